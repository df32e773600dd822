import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fetchLocation } from "../certificates/support"
import { as } from "../support/community"
import { expectError, expectInvalid, expectOk, unknownId } from "../support/envelope"
import { createEvent, EVENT_NOT_FOUND, type EventCommunity, eventCommunity, HOST_OR_STAFF } from "../support/events"
import { client, startRoda } from "../support/harness"
import { outboxFor } from "../support/outbox"
import { query } from "../support/sql"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

type Person = { token: string; profileId: string; email: string }
let setup: EventCommunity
let other: EventCommunity
let moderator: Person
let people: Array<Person>
beforeAll(async () => {
  setup = await eventCommunity(api, "Check-in")
  other = await eventCommunity(api, "Outra")
  moderator = await setup.addMember("moderator", "Mara Moderadora")
  people = await Promise.all(Array.from({ length: 5 }, (_, i) => setup.addMember("member", `Pessoa ${i}`)))
}, 120_000)

const owner = () => as(setup.owner, setup.community)
const participate = async (eventId: string, person: Person) =>
  expectOk(await api.post(`/api/events/${eventId}/participate`, undefined, as(person, setup.community)))
const checkIn = (eventId: string, body: unknown, user: { token: string } = setup.owner) =>
  api.post(`/api/events/${eventId}/check-in`, body, as(user, setup.community))
const ticketOf = async (eventId: string, profileId: string) =>
  (await query<{ ticketCode: string }>(
    roda,
    (sql) => sql`SELECT ticket_code FROM event_participants WHERE event_id = ${eventId} AND profile_id = ${profileId}`
  ))[0]!.ticketCode

const NOT_GOING = (status: string) =>
  `Apenas participantes confirmados (going) podem fazer check-in. Situação atual: ${status}.`

describe("POST /api/events/{id}/check-in", () => {
  it("checks in by profile id, then answers the same state again without writing (200, alreadyCheckedIn)", async () => {
    const event = await createEvent(api, setup)
    await participate(event.id, people[0]!)
    const first = expectOk(await checkIn(event.id, { profileId: people[0]!.profileId }), 200, "Check-in realizado.")
    expect(first).toMatchObject({
      eventId: event.id,
      profileId: people[0]!.profileId,
      fullName: "Pessoa 0",
      status: "going",
      alreadyCheckedIn: false
    })
    expect(Date.parse(first.checkedInAt)).not.toBeNaN()
    const again = expectOk(
      await checkIn(event.id, { profileId: people[0]!.profileId }),
      200,
      "Check-in já realizado anteriormente."
    )
    expect(again).toMatchObject({ checkedInAt: first.checkedInAt, alreadyCheckedIn: true })
    const jobs = await query(
      roda,
      (sql) => sql`SELECT id FROM jobs WHERE kind = 'events.attended' AND key LIKE ${`${event.id}:%`}`
    )
    expect(jobs).toHaveLength(1)
  })

  it("checks in by the ticket's code, forgiving case and dashes; codes are random, unique per participation", async () => {
    const event = await createEvent(api, setup)
    await participate(event.id, people[1]!)
    await participate(event.id, people[2]!)
    const code = await ticketOf(event.id, people[1]!.profileId)
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{16}$/)
    expect(await ticketOf(event.id, people[2]!.profileId)).not.toBe(code)
    expect(code).not.toContain(people[1]!.profileId.replace(/-/g, "").slice(0, 8).toUpperCase())
    const typed = code.toLowerCase().replace(/(.{4})(?=.)/g, "$1-")
    const done = expectOk(await checkIn(event.id, { code: typed }, moderator))
    expect(done).toMatchObject({ profileId: people[1]!.profileId, alreadyCheckedIn: false })
  })

  it("refuses waitlisted (409), cancelled (409), non-participants and unknown codes (404 with param)", async () => {
    const event = await createEvent(api, setup, { capacity: 1 })
    await participate(event.id, people[0]!)
    await participate(event.id, people[1]!) // waitlisted
    const waitlisted = expectError(
      await checkIn(event.id, { profileId: people[1]!.profileId }),
      409,
      NOT_GOING("waitlisted")
    )
    expect(waitlisted.errors[0].param).toBe("status")
    await participate(event.id, people[1]!) // leaves the waitlist
    expectError(await checkIn(event.id, { profileId: people[1]!.profileId }), 409, NOT_GOING("cancelled"))
    const stranger = expectError(
      await checkIn(event.id, { profileId: people[3]!.profileId }),
      404,
      "Participante não encontrado neste evento."
    )
    expect(stranger.errors[0].param).toBe("profileId")
    const wrong = expectError(
      await checkIn(event.id, { code: "ZZZZ-ZZZZ-ZZZZ-ZZZZ" }),
      404,
      "Ingresso não encontrado neste evento."
    )
    expect(wrong.errors[0].param).toBe("code")
    // a code of another event is no ticket of this one
    const otherEvent = await createEvent(api, setup)
    await participate(otherEvent.id, people[4]!)
    expectError(await checkIn(event.id, { code: await ticketOf(otherEvent.id, people[4]!.profileId) }), 404)
  })

  it("answers 400 naming both params unless exactly one of profileId and code is sent", async () => {
    const event = await createEvent(api, setup)
    const message = "Informe profileId ou code (o código do ingresso), apenas um deles."
    for (const body of [{}, { profileId: people[0]!.profileId, code: "ABCD" }]) {
      const reply = await checkIn(event.id, body)
      expectInvalid(reply, "profileId")
      expectInvalid(reply, "code")
      expect(reply.body.message).toBe(message)
    }
    expectInvalid(await checkIn(event.id, { profileId: "nope" }), "profileId")
    expectInvalid(await checkIn(event.id, { code: 12 }), "code")
    expectInvalid(await checkIn(event.id, { profileId: people[0]!.profileId, extra: 1 }), "extra")
    expectInvalid(await api.post("/api/events/nope/check-in", { code: "X" }, owner()), "id", "params")
  })

  it("lets staff and the host check in; members 403; another community's event and unknown ids 404", async () => {
    const event = await createEvent(api, setup)
    await participate(event.id, people[0]!)
    expectError(await checkIn(event.id, { profileId: people[0]!.profileId }, people[1]!), 403, HOST_OR_STAFF)
    expectOk(await checkIn(event.id, { profileId: people[0]!.profileId }, moderator))
    // the host keeps managing their event after losing the staff role
    const host = await setup.addMember("moderator", "Hélio Host")
    const hosted = await createEvent(api, setup, {}, host)
    await participate(hosted.id, people[2]!)
    expectOk(await api.put(`/api/profiles/${host.profileId}/role`, { role: "member" }, owner()))
    expectOk(await checkIn(hosted.id, { profileId: people[2]!.profileId }, host))
    expectOk(await api.get(`/api/events/${hosted.id}/attendance`, as(host, setup.community)))
    expectError(await checkIn(event.id, { profileId: people[0]!.profileId }, host), 403, HOST_OR_STAFF)
    const foreign = await createEvent(api, other)
    expectError(await checkIn(foreign.id, { profileId: people[0]!.profileId }), 404, EVENT_NOT_FOUND)
    expectError(await checkIn(unknownId(), { profileId: people[0]!.profileId }), 404, EVENT_NOT_FOUND)
    expectError(
      await api.post(`/api/events/${event.id}/check-in`, { code: "X" }, { community: setup.community.id }),
      401
    )
  })

  it("two parallel check-ins of one person write once: one first, one already checked in", async () => {
    const event = await createEvent(api, setup)
    await participate(event.id, people[3]!)
    const code = await ticketOf(event.id, people[3]!.profileId)
    const replies = await Promise.all([
      checkIn(event.id, { profileId: people[3]!.profileId }),
      checkIn(event.id, { code })
    ])
    const data = replies.map((reply) => expectOk(reply))
    expect(data.map((row) => row.alreadyCheckedIn).sort()).toEqual([false, true])
    expect(data[0].checkedInAt).toBe(data[1].checkedInAt)
    const jobs = await query(
      roda,
      (sql) =>
        sql`SELECT id FROM jobs WHERE kind = 'events.attended' AND key = ${`${event.id}:${people[3]!.profileId}`}`
    )
    expect(jobs).toHaveLength(1)
  })
})

describe("GET /api/events/{id}/attendance", () => {
  it("lists the people checked in by arrival with counts, keyset-paginated", async () => {
    const event = await createEvent(api, setup)
    for (const person of people) await participate(event.id, person)
    for (const person of people.slice(0, 3)) expectOk(await checkIn(event.id, { profileId: person.profileId }))
    const first = await api.get(`/api/events/${event.id}/attendance?limit=2`, owner())
    expect(expectOk(first, 200, "Presenças encontradas.")).toHaveLength(2)
    expect(first.body.counts).toEqual({ going: 5, checkedIn: 3 })
    expect(first.body.data.map((row: any) => row.profileId)).toEqual(people.slice(0, 2).map((p) => p.profileId))
    expect(first.body.data[0]).toEqual({
      profileId: people[0]!.profileId,
      fullName: "Pessoa 0",
      avatarUrl: null,
      checkedInAt: expect.any(String)
    })
    const next = await api.get(
      `/api/events/${event.id}/attendance?limit=2&cursor=${first.body.pagination.nextCursor}`,
      owner()
    )
    expect(expectOk(next).map((row: any) => row.profileId)).toEqual([people[2]!.profileId])
    expect(next.body.pagination.nextCursor).toBeNull()
  })

  it("is for staff and the host: members 403, another community's event 404, bad cursor 400", async () => {
    const event = await createEvent(api, setup)
    expectOk(await api.get(`/api/events/${event.id}/attendance`, as(moderator, setup.community)))
    expectError(
      await api.get(`/api/events/${event.id}/attendance`, as(people[0]!, setup.community)),
      403,
      HOST_OR_STAFF
    )
    const foreign = await createEvent(api, other)
    expectError(await api.get(`/api/events/${foreign.id}/attendance`, owner()), 404, EVENT_NOT_FOUND)
    expectInvalid(await api.get(`/api/events/${event.id}/attendance?cursor=nope`, owner()), "cursor", "query")
    expectInvalid(await api.get(`/api/events/${event.id}/attendance?limit=0`, owner()), "limit", "query")
  })
})

describe("event_attendance certificates", () => {
  const certificatesOf = async (profileId: string) =>
    expectOk(await api.get(`/api/certificates?spaceId=${setup.space.id}&profileId=${profileId}`, owner())) as Array<any>
  const eventually = async <A>(read: () => Promise<A>, done: (value: A) => boolean) => {
    for (let i = 0; i < 600; i++) {
      const value = await read()
      if (done(value)) return value
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    return read()
  }

  it("issues the space's active templates to whoever is checked in, once, with a real PDF", async () => {
    const template = expectOk(
      await api.post("/api/certificates/templates", {
        spaceId: setup.space.id,
        name: "Presença",
        title: "Certificado de Presença",
        body: "Certificamos que {{name}} esteve em {{space}} em {{date}}. Código {{code}}.",
        fontId: "lora",
        orientation: "landscape",
        background: "#ffffff"
      }, owner()),
      201
    )
    expectOk(await api.post(`/api/certificates/templates/${template.id}/activate`, undefined, owner()))
    const event = await createEvent(api, setup)
    await participate(event.id, people[0]!)
    await participate(event.id, people[1]!)
    // the rule is still `staff`: a check-in issues nothing
    expectOk(await checkIn(event.id, { profileId: people[1]!.profileId }))
    // (the rule is read when the job runs: wait for it before changing the rule)
    await eventually(
      () =>
        query<{ status: string }>(
          roda,
          (sql) =>
            sql`SELECT status FROM jobs WHERE kind = 'events.attended' AND key = ${`${event.id}:${
              people[1]!.profileId
            }`}`
        ),
      (rows) => rows[0]?.status === "done"
    )
    expectOk(await api.put(`/api/certificates/spaces/${setup.space.id}`, { issuer: "event_attendance" }, owner()))
    expectOk(await checkIn(event.id, { profileId: people[0]!.profileId }))
    const issued = await eventually(
      () => certificatesOf(people[0]!.profileId),
      (list) => list.length === 1 && list[0].status === "issued"
    )
    expect(issued[0]).toMatchObject({ templateId: template.id, status: "issued", recipientName: "Pessoa 0" })
    const batch = expectOk(await api.get(`/api/certificates/batches/${issued[0].batchId}`, owner()))
    expect(batch).toMatchObject({ source: "event_attendance", total: 1, issued: 1, status: "completed" })
    const pdf = await api.get(`/api/certificates/${issued[0].id}/pdf`, owner())
    expect(pdf.status).toBe(302)
    const file = await fetchLocation(roda, pdf.headers.get("location")!)
    expect(file.headers.get("content-type")).toBe("application/pdf")
    expect(new TextDecoder().decode((await file.arrayBuffer()).slice(0, 5))).toBe("%PDF-")
    // checking in again, or at another event of the space, issues nothing twice
    expectOk(await checkIn(event.id, { profileId: people[0]!.profileId }))
    const second = await createEvent(api, setup)
    await participate(second.id, people[0]!)
    expectOk(await checkIn(second.id, { profileId: people[0]!.profileId }))
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(await certificatesOf(people[0]!.profileId)).toHaveLength(1)
    expect(await certificatesOf(people[1]!.profileId)).toHaveLength(0)
    const mails = (await outboxFor(roda, people[0]!.email)).filter((mail) => mail.kind === "certificate-issued")
    expect(mails).toHaveLength(1)
    expectOk(await api.put(`/api/certificates/spaces/${setup.space.id}`, { issuer: "staff" }, owner()))
  })
})
