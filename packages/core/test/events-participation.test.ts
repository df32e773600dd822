import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as } from "./support/community"
import { expectError, expectInvalid, expectOk } from "./support/envelope"
import { createEvent, type EventCommunity, eventCommunity, INVALID_EVENT_ID } from "./support/events"
import { client, startRoda } from "./support/harness"
import { query } from "./support/sql"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

type Person = { token: string; profileId: string }
let setup: EventCommunity
let members: Array<Person>
beforeAll(async () => {
  setup = await eventCommunity(api, "Participação")
  members = []
  // 100 members, created 10 at a time.
  for (let batch = 0; batch < 10; batch++) {
    members.push(
      ...await Promise.all(Array.from({ length: 10 }, (_, i) => setup.addMember("member", `Pessoa ${batch * 10 + i}`)))
    )
  }
}, 300_000)

const participate = (eventId: string, person: Person) =>
  api.post(`/api/events/${eventId}/participate`, undefined, as(person, setup.community))

const statuses = async (eventId: string) => {
  const rows = await query<{ profileId: string; status: string }>(
    roda,
    (sql) => sql`SELECT profile_id, status FROM event_participants WHERE event_id = ${eventId}`
  )
  return new Map(rows.map((row) => [row.profileId, row.status]))
}

describe("POST /api/events/{id}/participate", () => {
  it("toggles going -> cancelled -> going, with the message of each state", async () => {
    const event = await createEvent(api, setup)
    const going = expectOk(await participate(event.id, members[0]!), 200, "Presença confirmada.")
    expect(going).toMatchObject({ eventId: event.id, profileId: members[0]!.profileId, status: "going" })
    expect(going.counts).toEqual({ going: 1, waitlisted: 0 })
    const cancelled = expectOk(await participate(event.id, members[0]!), 200, "Participação cancelada.")
    expect(cancelled).toMatchObject({ status: "cancelled", counts: { going: 0, waitlisted: 0 } })
    expectOk(await participate(event.id, members[0]!), 200, "Presença confirmada.")
    expectError(
      await api.post("/api/events/nope/participate", undefined, as(members[0]!, setup.community)),
      400,
      INVALID_EVENT_ID
    )
    expectError(
      await api.post(`/api/events/${event.id}/participate`, undefined, { community: setup.community.id }),
      401
    )
  })

  it("waitlists when full and promotes the oldest waitlisted when a seat frees", async () => {
    const event = await createEvent(api, setup, { capacity: 2 })
    const [a, b, c, d] = members.slice(10, 14) as [Person, Person, Person, Person]
    expectOk(await participate(event.id, a))
    expectOk(await participate(event.id, b))
    expectOk(await participate(event.id, c), 200, "Evento lotado: você está na lista de espera.")
    expect(expectOk(await participate(event.id, d)).status).toBe("waitlisted")
    const left = expectOk(await participate(event.id, a))
    expect(left).toMatchObject({ status: "cancelled", promotedProfileIds: [c.profileId] })
    expect(left.counts).toEqual({ going: 2, waitlisted: 1 })
    // A waitlisted person leaving frees no seat.
    expect(expectOk(await participate(event.id, d)).promotedProfileIds).toEqual([])
    // Coming back puts a (former) participant at the end of the line.
    expect(expectOk(await participate(event.id, a)).status).toBe("waitlisted")
    expect(expectOk(await participate(event.id, d)).status).toBe("waitlisted")
    const s = await statuses(event.id)
    expect([s.get(b.profileId), s.get(c.profileId), s.get(a.profileId), s.get(d.profileId)])
      .toEqual(["going", "going", "waitlisted", "waitlisted"])
    // Raising the capacity promotes in order; lowering it below those going is 409.
    expect(expectOk(await api.put(`/api/events/${event.id}`, { capacity: 3 }, as(setup.owner, setup.community))))
      .toMatchObject({ counts: { going: 3, waitlisted: 1 }, seatsLeft: 0 })
    expect((await statuses(event.id)).get(a.profileId)).toBe("going")
    const error = expectError(
      await api.put(`/api/events/${event.id}`, { capacity: 1 }, as(setup.owner, setup.community)),
      409,
      "A capacidade não pode ser menor que o número de participantes confirmados (3)."
    )
    expect(error.errors[0].param).toBe("capacity")
    expect(expectOk(await api.put(`/api/events/${event.id}`, { capacity: null }, as(setup.owner, setup.community))))
      .toMatchObject({ counts: { going: 4, waitlisted: 0 }, seatsLeft: null })
  })

  it("never exceeds capacity under 100 concurrent calls; cancellations promote in line order", async () => {
    const event = await createEvent(api, setup, { capacity: 10 })
    const replies = await Promise.all(members.map((person) => participate(event.id, person)))
    for (const reply of replies) expect(reply.status).toBe(200)
    const results = replies.map((reply) => reply.body.data.status as string)
    expect(results.filter((s) => s === "going")).toHaveLength(10)
    expect(results.filter((s) => s === "waitlisted")).toHaveLength(90)
    const detail = expectOk(await api.get(`/api/events/${event.id}`, { community: setup.community.id }))
    expect(detail.counts).toEqual({ going: 10, waitlisted: 90 })
    expect(detail.seatsLeft).toBe(0)

    // The line, as staff see it.
    const line: Array<{ profileId: string; status: string }> = []
    let cursor: string | null = null
    do {
      const reply = await api.get(
        `/api/events/${event.id}/participants?status=waitlisted&limit=40${cursor ? `&cursor=${cursor}` : ""}`,
        as(setup.owner, setup.community)
      )
      line.push(...expectOk(reply))
      cursor = reply.body.pagination.nextCursor
    } while (cursor !== null)
    expect(line).toHaveLength(90)
    expect(new Set(line.map((p) => p.profileId)).size).toBe(90)

    // Five people going leave, concurrently: the first five of the line move up, nobody else.
    const goers = members.filter((_, i) => results[i] === "going").slice(0, 5)
    const left = await Promise.all(goers.map((person) => participate(event.id, person)))
    const promoted = left.flatMap((reply) => expectOk(reply).promotedProfileIds as Array<string>)
    expect(new Set(promoted)).toEqual(new Set(line.slice(0, 5).map((p) => p.profileId)))
    // Then one by one: the next of the line each time.
    const stillGoing = members.filter((_, i) => results[i] === "going").slice(5)
    for (const [index, person] of stillGoing.entries()) {
      expect(expectOk(await participate(event.id, person)).promotedProfileIds).toEqual([line[5 + index]!.profileId])
    }
    const counts = expectOk(await api.get(`/api/events/${event.id}`, { community: setup.community.id })).counts
    expect(counts).toEqual({ going: 10, waitlisted: 80 })
  }, 120_000)
})

describe("GET /api/events/{id}/participants", () => {
  it("shows counts to anyone, going names to members, everyone to staff and the host", async () => {
    const event = await createEvent(api, setup, { capacity: 1 })
    expectOk(await participate(event.id, members[20]!))
    expectOk(await participate(event.id, members[21]!))
    const anonymous = await api.get(`/api/events/${event.id}/participants`, { community: setup.community.id })
    expect(expectOk(anonymous, 200, "Participantes encontrados.")).toEqual([])
    expect(anonymous.body).toMatchObject({ counts: { going: 1, waitlisted: 1 }, visibility: "counts" })
    const member = await api.get(`/api/events/${event.id}/participants`, as(members[22]!, setup.community))
    expect(expectOk(member).map((p: { profileId: string }) => p.profileId)).toEqual([members[20]!.profileId])
    expect(member.body.visibility).toBe("going")
    expect(expectOk(member)[0]).toMatchObject({ fullName: "Pessoa 20", status: "going" })
    const waitlistAsMember = await api.get(
      `/api/events/${event.id}/participants?status=waitlisted`,
      as(members[22]!, setup.community)
    )
    expect(expectOk(waitlistAsMember)).toEqual([])
    const staff = await api.get(`/api/events/${event.id}/participants`, as(setup.owner, setup.community))
    expect(expectOk(staff).map((p: { status: string }) => p.status)).toEqual(["going", "waitlisted"])
    expect(staff.body.visibility).toBe("all")
    expectInvalid(
      await api.get(`/api/events/${event.id}/participants?status=maybe`, { community: setup.community.id }),
      "status",
      "query"
    )
    expectInvalid(
      await api.get(`/api/events/${event.id}/participants?cursor=WzFd`, as(setup.owner, setup.community)),
      "cursor",
      "query"
    )
    expectInvalid(
      await api.get(`/api/events/${event.id}/participants?limit=0`, { community: setup.community.id }),
      "limit",
      "query"
    )
  })
})
