import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as, NOT_MEMBER } from "./support/community"
import { expectCreated, expectError, expectInvalid, expectOk, uniqueTag, unknownId } from "./support/envelope"
import {
  createEvent,
  EVENT_NOT_FOUND,
  type EventCommunity,
  eventCommunity,
  HOST_OR_STAFF,
  INVALID_EVENT_ID,
  onlineEvent
} from "./support/events"
import { client, register, startRoda } from "./support/harness"
import { createSpace, STAFF_REQUIRED } from "./support/structure"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: EventCommunity
let other: EventCommunity
let people: Record<"moderator" | "member" | "host", { token: string; profileId: string }>
beforeAll(async () => {
  setup = await eventCommunity(api)
  other = await eventCommunity(api, "Outra")
  people = {
    moderator: await setup.addMember("moderator"),
    member: await setup.addMember("member"),
    host: await setup.addMember("member", "Helena Host")
  }
})
const owner = () => as(setup.owner, setup.community)
const address = { street: "Rua A", number: "10", city: "São Paulo", country: "BR", postalCode: "01000-000" }

describe("GET /api/events/categories", () => {
  it("lists the catalogue to anyone, in the caller's language", async () => {
    const pt = expectOk(await api.get("/api/events/categories", { community: setup.community.id }), 200)
    expect(pt).toEqual(expect.arrayContaining([{ id: "workshop", name: "Oficina" }]))
    const en = expectOk(
      await api.get("/api/events/categories", { community: setup.community.id, headers: { "accept-language": "en" } })
    )
    expect(en).toEqual(expect.arrayContaining([{ id: "workshop", name: "Workshop" }]))
    expectError(await api.get("/api/events/categories"), 400)
  })
})

describe("POST /api/events", () => {
  it("creates an online event; the creator is the host; slug from the title", async () => {
    const tag = uniqueTag()
    const data = expectCreated(
      await api.post(
        "/api/events",
        onlineEvent(setup.space.id, { title: `Lançamento Ação ${tag}`, capacity: 5, categoryId: "webinar" }),
        owner()
      ),
      "Evento criado com sucesso."
    )
    expect(data).toMatchObject({
      communityId: setup.community.id,
      spaceId: setup.space.id,
      hostProfileId: setup.owner.profileId,
      slug: `lancamento-acao-${tag}`,
      type: "online",
      startTime: "2030-05-01T19:00:00.000Z",
      endTime: "2030-05-01T21:00:00.000Z",
      capacity: 5,
      categoryId: "webinar",
      joinUrl: "https://meet.example.com/abc",
      address: null,
      streamStatus: "idle",
      counts: { going: 0, waitlisted: 0 },
      seatsLeft: 5
    })
  })

  it("gives back the times it keeps, in any year (year 50 is not 1950)", async () => {
    const data = await createEvent(api, setup, { startTime: "0050-05-01T19:00:00Z", endTime: "0050-05-01T21:00:00Z" })
    expect([data.startTime, data.endTime]).toEqual(["0050-05-01T19:00:00.000Z", "0050-05-01T21:00:00.000Z"])
    const read = expectOk(await api.get(`/api/events/${data.id}`, owner()))
    expect([read.startTime, read.endTime]).toEqual(["0050-05-01T19:00:00.000Z", "0050-05-01T21:00:00.000Z"])
  })

  it("creates an in-person event with its address", async () => {
    const data = await createEvent(api, setup, { type: "in_person", address, joinUrl: null })
    expect(data.address).toMatchObject({ ...address, complement: null, state: null })
  })

  it("suffixes a taken generated slug and refuses a taken explicit one (409)", async () => {
    const title = `Encontro ${uniqueTag()}`
    const first = await createEvent(api, setup, { title })
    const second = await createEvent(api, setup, { title })
    expect(second.slug).toBe(`${first.slug}-2`)
    const taken = await api.post("/api/events", onlineEvent(setup.space.id, { slug: first.slug }), owner())
    expect(expectError(taken, 409, "Este endereço (slug) já está em uso.").errors[0].param).toBe("slug")
    await createEvent(api, other, { slug: first.slug })
  })

  it("answers 400 for bad times, address, category, space and input", async () => {
    const post = (body: Record<string, unknown>) => api.post("/api/events", onlineEvent(setup.space.id, body), owner())
    let error = expectError(
      await post({ endTime: "2030-05-01T19:00:00Z" }),
      400,
      "O início do evento (startTime) deve ser anterior ao fim (endTime)."
    )
    expect(error.errors[0].param).toBe("endTime")
    error = expectError(await post({ type: "in_person" }), 400, "Eventos presenciais precisam de endereço (address).")
    expect(error.errors[0].param).toBe("address")
    error = expectError(await post({ type: "in_person", address: { street: "Rua A", city: "Rio" } }), 400)
    expect(error.errors.map((e: { param: string }) => e.param)).toEqual(["address.number"])
    error = expectError(await post({ categoryId: "party" }), 400)
    expect(error.errors[0].param).toBe("categoryId")
    expectError(
      await api.post("/api/events", { ...onlineEvent(setup.space.id), spaceId: undefined }, owner()),
      400,
      "ID do espaço é obrigatório."
    )
    for (const spaceId of [unknownId(), other.space.id, "nope"]) {
      expectError(await post({ spaceId }), 400, "Espaço não encontrado ou não pertence a esta comunidade.")
    }
    const courses = await createSpace(api, setup, setup.section.id, { module: "courses" })
    expectError(await post({ spaceId: courses.id }), 400, "Este espaço não é um espaço de eventos (module events).")
    expectInvalid(await post({ type: "hybrid" }), "type")
    expectInvalid(await post({ startTime: "amanhã" }), "startTime")
    expectInvalid(await post({ startTime: "2030-05-01" }), "startTime")
    expectInvalid(await post({ capacity: 0 }), "capacity")
    expectInvalid(await post({ capacity: 2.5 }), "capacity")
    expectInvalid(await post({ timezone: "Mars/Olympus" }), "timezone")
    expectInvalid(await post({ joinUrl: "javascript:alert(1)" }), "joinUrl")
    expectInvalid(await post({ address: "Rua A" }), "address")
    expectInvalid(await post({ title: "" }), "title")
    expectInvalid(await api.post("/api/events", [1, 2], owner()), "body")
    expectError(await api.call("POST", "/api/events", { ...owner(), raw: "{nope" }), 400)
  })

  it("requires owner, admin or moderator", async () => {
    expectCreated(await api.post("/api/events", onlineEvent(setup.space.id), as(people.moderator, setup.community)))
    expectError(
      await api.post("/api/events", onlineEvent(setup.space.id), as(people.member, setup.community)),
      403,
      STAFF_REQUIRED("member")
    )
    expectError(await api.post("/api/events", onlineEvent(setup.space.id), { community: setup.community.id }), 401)
    const stranger = await register(api)
    expectError(
      await api.post("/api/events", onlineEvent(setup.space.id), as(stranger, setup.community)),
      403,
      NOT_MEMBER
    )
  })
})

describe("GET /api/events/{identifier}", () => {
  it("finds by id and slug; another community's event is 404", async () => {
    const event = await createEvent(api, setup)
    expectOk(await api.get(`/api/events/${event.id}`, { community: setup.community.id }), 200, "Evento encontrado.")
    const bySlug = expectOk(await api.get(`/api/events/${event.slug}`, { community: setup.community.id }))
    expect(bySlug.id).toBe(event.id)
    expect(bySlug.participation).toBeNull()
    expectError(await api.get(`/api/events/${event.id}`, { community: other.community.id }), 404, EVENT_NOT_FOUND)
    expectError(await api.get(`/api/events/${event.id}`, as(other.owner, other.community)), 404, EVENT_NOT_FOUND)
  })

  it("shows joinUrl only to participants going, the host and staff", async () => {
    const event = await createEvent(api, setup, {}, people.moderator)
    const seen = async (options: { token?: string; community: string }) =>
      expectOk(await api.get(`/api/events/${event.id}`, options)).joinUrl
    expect(await seen({ community: setup.community.id })).toBeNull()
    expect(await seen(as(people.member, setup.community))).toBeNull()
    expect(await seen(as(people.moderator, setup.community))).toBe("https://meet.example.com/abc")
    expect(await seen(owner())).toBe("https://meet.example.com/abc")
    expectOk(await api.post(`/api/events/${event.id}/participate`, undefined, as(people.member, setup.community)))
    const detail = expectOk(await api.get(`/api/events/${event.id}`, as(people.member, setup.community)))
    expect(detail.joinUrl).toBe("https://meet.example.com/abc")
    expect(detail.participation.status).toBe("going")
    expect(detail.counts).toEqual({ going: 1, waitlisted: 0 })
  })
})

describe("PUT and DELETE /api/events/{id}", () => {
  it("lets staff and the host edit and remove; others get 403", async () => {
    const event = await createEvent(api, setup, {}, setup.owner)
    // The host: created by staff acting as the member.
    const hosted = expectCreated(
      await api.post("/api/events", onlineEvent(setup.space.id), { ...owner(), profile: people.host.profileId })
    )
    expect(hosted.hostProfileId).toBe(people.host.profileId)
    const edited = expectOk(
      await api.put(
        `/api/events/${hosted.id}`,
        { title: "Novo título", capacity: 3 },
        as(people.host, setup.community)
      ),
      200,
      "Evento atualizado com sucesso."
    )
    expect(edited).toMatchObject({ title: "Novo título", capacity: 3 })
    expectError(
      await api.put(`/api/events/${event.id}`, { title: "X" }, as(people.host, setup.community)),
      403,
      HOST_OR_STAFF
    )
    expectError(await api.del(`/api/events/${event.id}`, as(people.member, setup.community)), 403, HOST_OR_STAFF)
    expectOk(await api.put(`/api/events/${event.id}`, { title: "Y" }, as(people.moderator, setup.community)))
    expectOk(
      await api.del(`/api/events/${hosted.id}`, as(people.host, setup.community)),
      200,
      "Evento removido com sucesso."
    )
    expectError(await api.get(`/api/events/${hosted.id}`, owner()), 404, EVENT_NOT_FOUND)
    expectError(await api.del(`/api/events/${hosted.id}`, owner()), 404, EVENT_NOT_FOUND)
    // Its slug is free again.
    expectCreated(await api.post("/api/events", onlineEvent(setup.space.id, { slug: hosted.slug }), owner()))
  })

  it("validates the merged event, ids and another community's ids", async () => {
    const event = await createEvent(api, setup)
    expectError(await api.put(`/api/events/${event.id}`, { endTime: "2020-01-01T00:00:00Z" }, owner()), 400)
    const error = expectError(await api.put(`/api/events/${event.id}`, { type: "in_person" }, owner()), 400)
    expect(error.errors[0].param).toBe("address")
    expectOk(await api.put(`/api/events/${event.id}`, { type: "in_person", address }, owner()))
    expectError(await api.put("/api/events/nope", { title: "X" }, owner()), 400, INVALID_EVENT_ID)
    expectError(await api.put(`/api/events/${unknownId()}`, { title: "X" }, owner()), 404, EVENT_NOT_FOUND)
    expectError(await api.put(`/api/events/${event.id}`, { title: "X" }, as(other.owner, other.community)), 404)
    expectError(await api.del(`/api/events/${event.id}`, as(other.owner, other.community)), 404)
    expectError(await api.post(`/api/events/${event.id}/participate`, undefined, as(other.owner, other.community)), 404)
    expectError(await api.get(`/api/events/${event.id}/participants`, { community: other.community.id }), 404)
  })
})

describe("streams", () => {
  it("moves idle -> live -> ended; other moves are 409 with the allowed moves", async () => {
    const event = await createEvent(api, setup)
    const url = (action: string) => `/api/events/${event.id}/${action}`
    let error = expectError(
      await api.post(url("stop-stream"), undefined, owner()),
      409,
      "Não é possível mudar a transmissão de idle para ended. Movimentos permitidos: live."
    )
    expect(error.errors[0].param).toBe("status")
    expectError(await api.post(url("start-stream"), undefined, as(people.member, setup.community)), 403, HOST_OR_STAFF)
    const live = expectOk(await api.post(url("start-stream"), undefined, owner()), 200, "Transmissão iniciada.")
    expect(live.streamStatus).toBe("live")
    expect(live.streamStartedAt).not.toBeNull()
    error = expectError(await api.post(url("start-stream"), undefined, owner()), 409)
    expect(error.errors[0]).toMatchObject({ param: "status" })
    expect(error.message).toContain("ended")
    const ended = expectOk(await api.post(url("stop-stream"), undefined, as(people.moderator, setup.community)))
    expect(ended).toMatchObject({ streamStatus: "ended" })
    expect(ended.streamEndedAt).not.toBeNull()
    expectError(
      await api.post(url("start-stream"), undefined, owner()),
      409,
      "Não é possível mudar a transmissão de ended para live. Movimentos permitidos: nenhum."
    )
    expectError(
      await api.post(url("stop-stream"), undefined, { ...owner(), headers: { "accept-language": "en" } }),
      409,
      "The stream cannot move from ended to ended. Allowed moves: none."
    )
  })
})

describe("GET /api/events/{id}/calendar.ics", () => {
  it("answers an iCalendar VEVENT", async () => {
    const event = await createEvent(api, setup, {
      type: "in_person",
      address,
      title: "Encontro, com vírgula; e ponto",
      description: "Linha 1\nLinha 2"
    })
    const reply = await api.get(`/api/events/${event.slug}/calendar.ics`, { community: setup.community.id })
    expect(reply.status).toBe(200)
    expect(reply.headers.get("content-type")).toContain("text/calendar")
    const ics = reply.body as string
    expect(ics).toContain("BEGIN:VCALENDAR\r\n")
    expect(ics).toContain(`UID:${event.id}@roda\r\n`)
    expect(ics).toMatch(/DTSTAMP:\d{8}T\d{6}Z\r\n/)
    expect(ics).toContain("DTSTART:20300501T190000Z\r\n")
    expect(ics).toContain("DTEND:20300501T210000Z\r\n")
    expect(ics).toContain("SUMMARY:Encontro\\, com vírgula\\; e ponto\r\n")
    expect(ics).toContain("DESCRIPTION:Linha 1\\nLinha 2\r\n")
    expect(ics).toContain("LOCATION:Rua A\\, 10\\, São Paulo\\, 01000-000\\, BR\r\n")
    expect(ics).not.toContain("URL:")
    const online = await createEvent(api, setup)
    const staffIcs = (await api.get(`/api/events/${online.id}/calendar.ics`, owner())).body as string
    expect(staffIcs).toContain("LOCATION:Online\r\n")
    expect(staffIcs).toContain("URL:https://meet.example.com/abc\r\n")
    expectError(await api.get(`/api/events/${online.id}/calendar.ics`, { community: other.community.id }), 404)
  })
})

describe("GET /api/events", () => {
  it("lists by start time with keyset pagination and filters", async () => {
    const fresh = await eventCommunity(api, "Lista")
    const times = ["2031-01-03", "2031-01-01", "2031-01-02"]
    for (const day of times) {
      await createEvent(api, fresh, { title: day, startTime: `${day}T10:00:00Z`, endTime: `${day}T11:00:00Z` })
    }
    await createEvent(api, fresh, { title: "past", startTime: "2001-01-01T10:00:00Z", endTime: "2001-01-01T11:00:00Z" })
    const first = await api.get("/api/events?limit=2&upcoming=true", { community: fresh.community.id })
    expect(expectOk(first).map((e: { title: string }) => e.title)).toEqual(["2031-01-01", "2031-01-02"])
    const cursor = first.body.pagination.nextCursor
    const second = await api.get(`/api/events?limit=2&upcoming=true&cursor=${cursor}`, {
      community: fresh.community.id
    })
    expect(expectOk(second).map((e: { title: string }) => e.title)).toEqual(["2031-01-03"])
    expect(second.body.pagination.nextCursor).toBeNull()
    expect(expectOk(await api.get("/api/events", { community: fresh.community.id }))).toHaveLength(4)
    expectInvalid(await api.get("/api/events?cursor=abc", { community: fresh.community.id }), "cursor", "query")
    expectInvalid(await api.get("/api/events?spaceId=x", { community: fresh.community.id }), "spaceId", "query")
    expectInvalid(await api.get("/api/events?upcoming=yes", { community: fresh.community.id }), "upcoming", "query")
  })
})
