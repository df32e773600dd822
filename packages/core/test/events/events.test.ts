import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as, NOT_MEMBER } from "../support/community"
import { contract, fails, invalid, ok, okAt, rawFails, rawInvalid } from "../support/contract"
import { uniqueTag, unknownId, UUID } from "../support/envelope"
import { client, register, startRoda } from "../support/harness"
import { createSpace, STAFF_REQUIRED } from "../support/structure"
import {
  createEvent,
  EVENT_NOT_FOUND,
  type EventCommunity,
  eventCommunity,
  HOST_OR_STAFF,
  INVALID_EVENT_ID,
  onlineEvent
} from "./support"

// Contract calls through `typed`; input the contract's types cannot express raw through `api`.
const roda = startRoda()
const api = client(roda)
const typed = contract(roda)
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
const owner = () => typed.as(setup.owner, setup.community)
const inCommunity = (person: { token: string }) => typed.as(person, setup.community)
const anonymous = () => typed.anonymous(setup.community)
const raw = () => as(setup.owner, setup.community)
const address = { street: "Rua A", number: "10", city: "São Paulo", country: "BR", postalCode: "01000-000" }

describe("GET /api/events/categories", () => {
  it("lists the catalogue to anyone, in the caller's language", async () => {
    const pt = await ok(anonymous().events.categories({}))
    expect(pt.data).toEqual(expect.arrayContaining([{ id: "workshop", name: "Oficina" }]))
    const en = await ok(typed.clientOf({ communityId: setup.community.id, language: "en" }).events.categories({}))
    expect(en.data).toEqual(expect.arrayContaining([{ id: "workshop", name: "Workshop" }]))
    // (raw: the contract of the route declares no error, so the typed client cannot read this one)
    rawFails(await api.get("/api/events/categories"), 400)
  })
})

describe("POST /api/events", () => {
  it("creates an online event; the creator is the host; slug from the title", async () => {
    const tag = uniqueTag()
    const reply = await ok(
      owner().events.create({
        payload: onlineEvent(setup.space.id, { title: `Lançamento Ação ${tag}`, capacity: 5, categoryId: "webinar" })
      })
    )
    expect(reply.message).toBe("Evento criado com sucesso.")
    expect(reply.data.id).toMatch(UUID)
    expect(reply.data).toMatchObject({
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
    const data = await createEvent(typed, setup, {
      startTime: "0050-05-01T19:00:00Z",
      endTime: "0050-05-01T21:00:00Z"
    })
    expect([data.startTime, data.endTime]).toEqual(["0050-05-01T19:00:00.000Z", "0050-05-01T21:00:00.000Z"])
    const read = (await ok(owner().events.detail({ path: { id: data.id } }))).data
    expect([read.startTime, read.endTime]).toEqual(["0050-05-01T19:00:00.000Z", "0050-05-01T21:00:00.000Z"])
  })

  it("creates an in-person event with its address", async () => {
    const data = await createEvent(typed, setup, { type: "in_person", address, joinUrl: null })
    expect(data.address).toMatchObject({ ...address, complement: null, state: null })
  })

  it("suffixes a taken generated slug and refuses a taken explicit one (409)", async () => {
    const title = `Encontro ${uniqueTag()}`
    const first = await createEvent(typed, setup, { title })
    const second = await createEvent(typed, setup, { title })
    expect(second.slug).toBe(`${first.slug}-2`)
    const taken = await fails(
      owner().events.create({ payload: onlineEvent(setup.space.id, { slug: first.slug }) }),
      409,
      "Este endereço (slug) já está em uso."
    )
    expect(taken.errors?.[0]?.param).toBe("slug")
    await createEvent(typed, other, { slug: first.slug })
  })

  it("answers 400 for bad times, address, category, space and input", async () => {
    const post = (payload: Parameters<typeof onlineEvent>[1]) =>
      owner().events.create({ payload: onlineEvent(setup.space.id, payload) })
    let error = await fails(
      post({ endTime: "2030-05-01T19:00:00Z" }),
      400,
      "O início do evento (startTime) deve ser anterior ao fim (endTime)."
    )
    expect(error.errors?.[0]?.param).toBe("endTime")
    error = await fails(post({ type: "in_person" }), 400, "Eventos presenciais precisam de endereço (address).")
    expect(error.errors?.[0]?.param).toBe("address")
    error = await fails(post({ type: "in_person", address: { street: "Rua A", city: "Rio" } }), 400)
    expect(error.errors?.map((e) => e.param)).toEqual(["address.number"])
    error = await fails(post({ categoryId: "party" }), 400)
    expect(error.errors?.[0]?.param).toBe("categoryId")
    await fails(post({ spaceId: undefined }), 400, "ID do espaço é obrigatório.")
    for (const spaceId of [unknownId(), other.space.id, "nope"]) {
      await fails(post({ spaceId }), 400, "Espaço não encontrado ou não pertence a esta comunidade.")
    }
    const courses = await createSpace(api, setup, setup.section.id, { module: "courses" })
    await fails(post({ spaceId: courses.id }), 400, "Este espaço não é um espaço de eventos (module events).")
    // (raw: the contract's types refuse these)
    const rawPost = (body: Record<string, unknown>) =>
      api.post("/api/events", { ...onlineEvent(setup.space.id), ...body }, raw())
    rawInvalid(await rawPost({ type: "hybrid" }), "type")
    rawInvalid(await rawPost({ startTime: "amanhã" }), "startTime")
    rawInvalid(await rawPost({ startTime: "2030-05-01" }), "startTime")
    rawInvalid(await rawPost({ capacity: 0 }), "capacity")
    rawInvalid(await rawPost({ capacity: 2.5 }), "capacity")
    rawInvalid(await rawPost({ timezone: "Mars/Olympus" }), "timezone")
    rawInvalid(await rawPost({ joinUrl: "javascript:alert(1)" }), "joinUrl")
    rawInvalid(await rawPost({ address: "Rua A" }), "address")
    rawInvalid(await rawPost({ title: "" }), "title")
    rawInvalid(await api.post("/api/events", [1, 2], raw()), "body")
    rawFails(await api.call("POST", "/api/events", { ...raw(), raw: "{nope" }), 400)
  })

  it("requires owner, admin or moderator", async () => {
    await okAt(
      inCommunity(people.moderator).events.create({ payload: onlineEvent(setup.space.id), withResponse: true }),
      201
    )
    await fails(
      inCommunity(people.member).events.create({ payload: onlineEvent(setup.space.id) }),
      403,
      STAFF_REQUIRED("member")
    )
    await fails(anonymous().events.create({ payload: onlineEvent(setup.space.id) }), 401)
    const stranger = await register(api)
    await fails(inCommunity(stranger).events.create({ payload: onlineEvent(setup.space.id) }), 403, NOT_MEMBER)
  })
})

describe("GET /api/events/{identifier}", () => {
  it("finds by id and slug; another community's event is 404", async () => {
    const event = await createEvent(typed, setup)
    const byId = await ok(anonymous().events.detail({ path: { id: event.id } }))
    expect(byId.message).toBe("Evento encontrado.")
    const bySlug = (await ok(anonymous().events.detail({ path: { id: event.slug } }))).data
    expect(bySlug.id).toBe(event.id)
    expect(bySlug.participation).toBeNull()
    await fails(typed.anonymous(other.community).events.detail({ path: { id: event.id } }), 404, EVENT_NOT_FOUND)
    await fails(
      typed.as(other.owner, other.community).events.detail({ path: { id: event.id } }),
      404,
      EVENT_NOT_FOUND
    )
  })

  it("shows joinUrl only to participants going, the host and staff", async () => {
    const event = await createEvent(typed, setup, {}, people.moderator)
    const seen = async (viewer: ReturnType<typeof anonymous>) =>
      (await ok(viewer.events.detail({ path: { id: event.id } }))).data.joinUrl
    expect(await seen(anonymous())).toBeNull()
    expect(await seen(inCommunity(people.member))).toBeNull()
    expect(await seen(inCommunity(people.moderator))).toBe("https://meet.example.com/abc")
    expect(await seen(owner())).toBe("https://meet.example.com/abc")
    await ok(inCommunity(people.member).events.participate({ path: { id: event.id } }))
    const detail = (await ok(inCommunity(people.member).events.detail({ path: { id: event.id } }))).data
    expect(detail.joinUrl).toBe("https://meet.example.com/abc")
    expect(detail.participation?.status).toBe("going")
    expect(detail.counts).toEqual({ going: 1, waitlisted: 0 })
  })
})

describe("PUT and DELETE /api/events/{id}", () => {
  it("lets staff and the host edit and remove; others get 403", async () => {
    const event = await createEvent(typed, setup, {}, setup.owner)
    // The host: created by staff acting as the member.
    const actingAsHost = typed.clientOf({
      token: setup.owner.token,
      communityId: setup.community.id,
      profileId: people.host.profileId
    })
    const hosted = (await ok(actingAsHost.events.create({ payload: onlineEvent(setup.space.id) }))).data
    expect(hosted.id).toMatch(UUID)
    expect(hosted.hostProfileId).toBe(people.host.profileId)
    const host = inCommunity(people.host)
    const edited = await ok(
      host.events.update({ path: { id: hosted.id }, payload: { title: "Novo título", capacity: 3 } })
    )
    expect(edited.message).toBe("Evento atualizado com sucesso.")
    expect(edited.data).toMatchObject({ title: "Novo título", capacity: 3 })
    await fails(host.events.update({ path: { id: event.id }, payload: { title: "X" } }), 403, HOST_OR_STAFF)
    await fails(inCommunity(people.member).events.remove({ path: { id: event.id } }), 403, HOST_OR_STAFF)
    await ok(inCommunity(people.moderator).events.update({ path: { id: event.id }, payload: { title: "Y" } }))
    const removed = await ok(host.events.remove({ path: { id: hosted.id } }))
    expect(removed.message).toBe("Evento removido com sucesso.")
    await fails(owner().events.detail({ path: { id: hosted.id } }), 404, EVENT_NOT_FOUND)
    await fails(owner().events.remove({ path: { id: hosted.id } }), 404, EVENT_NOT_FOUND)
    // Its slug is free again.
    await createEvent(typed, setup, { slug: hosted.slug })
  })

  it("validates the merged event, ids and another community's ids", async () => {
    const event = await createEvent(typed, setup)
    const update = (payload: Parameters<ReturnType<typeof owner>["events"]["update"]>[0]["payload"]) =>
      owner().events.update({ path: { id: event.id }, payload })
    await fails(update({ endTime: "2020-01-01T00:00:00Z" }), 400)
    const error = await fails(update({ type: "in_person" }), 400)
    expect(error.errors?.[0]?.param).toBe("address")
    await ok(update({ type: "in_person", address }))
    rawFails(await api.put("/api/events/nope", { title: "X" }, raw()), 400, INVALID_EVENT_ID)
    await fails(owner().events.update({ path: { id: unknownId() }, payload: { title: "X" } }), 404, EVENT_NOT_FOUND)
    const foreigner = typed.as(other.owner, other.community)
    await fails(foreigner.events.update({ path: { id: event.id }, payload: { title: "X" } }), 404)
    await fails(foreigner.events.remove({ path: { id: event.id } }), 404)
    await fails(foreigner.events.participate({ path: { id: event.id } }), 404)
    await fails(typed.anonymous(other.community).events.participants({ path: { id: event.id }, urlParams: {} }), 404)
  })
})

describe("streams", () => {
  it("moves idle -> live -> ended; other moves are 409 with the allowed moves", async () => {
    const event = await createEvent(typed, setup)
    const path = { id: event.id }
    let error = await fails(
      owner().events.stopStream({ path }),
      409,
      "Não é possível mudar a transmissão de idle para ended. Movimentos permitidos: live."
    )
    expect(error.errors?.[0]?.param).toBe("status")
    await fails(inCommunity(people.member).events.startStream({ path }), 403, HOST_OR_STAFF)
    const live = await ok(owner().events.startStream({ path }))
    expect(live.message).toBe("Transmissão iniciada.")
    expect(live.data.streamStatus).toBe("live")
    expect(live.data.streamStartedAt).not.toBeNull()
    error = await fails(owner().events.startStream({ path }), 409)
    expect(error.errors?.[0]).toMatchObject({ param: "status" })
    expect(error.text.pt).toContain("ended")
    const ended = (await ok(inCommunity(people.moderator).events.stopStream({ path }))).data
    expect(ended).toMatchObject({ streamStatus: "ended" })
    expect(ended.streamEndedAt).not.toBeNull()
    await fails(
      owner().events.startStream({ path }),
      409,
      "Não é possível mudar a transmissão de ended para live. Movimentos permitidos: nenhum."
    )
    const english = typed.clientOf({ token: setup.owner.token, communityId: setup.community.id, language: "en" })
    await fails(
      english.events.stopStream({ path }),
      409,
      "The stream cannot move from ended to ended. Allowed moves: none."
    )
  })
})

describe("GET /api/events/{id}/calendar.ics", () => {
  it("answers an iCalendar VEVENT", async () => {
    const event = await createEvent(typed, setup, {
      type: "in_person",
      address,
      title: "Encontro, com vírgula; e ponto",
      description: "Linha 1\nLinha 2"
    })
    const [ics, response] = await ok(anonymous().events.calendar({ path: { id: event.slug }, withResponse: true }))
    expect(response.status).toBe(200)
    expect(response.headers["content-type"]).toContain("text/calendar")
    expect(ics).toContain("BEGIN:VCALENDAR\r\n")
    expect(ics).toContain(`UID:${event.id}@roda\r\n`)
    expect(ics).toMatch(/DTSTAMP:\d{8}T\d{6}Z\r\n/)
    expect(ics).toContain("DTSTART:20300501T190000Z\r\n")
    expect(ics).toContain("DTEND:20300501T210000Z\r\n")
    expect(ics).toContain("SUMMARY:Encontro\\, com vírgula\\; e ponto\r\n")
    expect(ics).toContain("DESCRIPTION:Linha 1\\nLinha 2\r\n")
    expect(ics).toContain("LOCATION:Rua A\\, 10\\, São Paulo\\, 01000-000\\, BR\r\n")
    expect(ics).not.toContain("URL:")
    const online = await createEvent(typed, setup)
    const staffIcs = await ok(owner().events.calendar({ path: { id: online.id } }))
    expect(staffIcs).toContain("LOCATION:Online\r\n")
    expect(staffIcs).toContain("URL:https://meet.example.com/abc\r\n")
    await fails(typed.anonymous(other.community).events.calendar({ path: { id: online.id } }), 404)
  })
})

describe("GET /api/events", () => {
  it("lists by start time with keyset pagination and filters", async () => {
    const fresh = await eventCommunity(api, "Lista")
    const times = ["2031-01-03", "2031-01-01", "2031-01-02"]
    for (const day of times) {
      await createEvent(typed, fresh, { title: day, startTime: `${day}T10:00:00Z`, endTime: `${day}T11:00:00Z` })
    }
    await createEvent(typed, fresh, {
      title: "past",
      startTime: "2001-01-01T10:00:00Z",
      endTime: "2001-01-01T11:00:00Z"
    })
    const visitor = typed.anonymous(fresh.community)
    const first = await ok(visitor.events.list({ urlParams: { limit: 2, upcoming: "true" } }))
    expect(first.data.map((e) => e.title)).toEqual(["2031-01-01", "2031-01-02"])
    const cursor = first.pagination.nextCursor
    expect(cursor).not.toBeNull()
    const second = await ok(visitor.events.list({ urlParams: { limit: 2, upcoming: "true", cursor: cursor! } }))
    expect(second.data.map((e) => e.title)).toEqual(["2031-01-03"])
    expect(second.pagination.nextCursor).toBeNull()
    expect((await ok(visitor.events.list({ urlParams: {} }))).data).toHaveLength(4)
    await invalid(visitor.events.list({ urlParams: { cursor: "abc" } }), "cursor", "query")
    // (raw: the contract's types refuse these)
    const call = { community: fresh.community.id }
    rawInvalid(await api.get("/api/events?spaceId=x", call), "spaceId", "query")
    rawInvalid(await api.get("/api/events?upcoming=yes", call), "upcoming", "query")
  })
})
