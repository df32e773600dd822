import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as } from "../support/community"
import { contract, fails, invalid, ok, rawFails, rawInvalid } from "../support/contract"
import { client, startRoda } from "../support/harness"
import { query } from "../support/sql"
import { createEvent, type EventCommunity, eventCommunity, INVALID_EVENT_ID } from "./support"

// Contract calls through `typed`; input the contract's types cannot express raw through `api`.
const roda = startRoda()
const api = client(roda)
const typed = contract(roda)
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
  // Their clients, made here once: making one takes a while (support/contract.ts), and `typed` keeps them.
  for (const member of members) typed.as(member, setup.community)
}, 300_000)

const participate = (eventId: string, person: Person) =>
  ok(typed.as(person, setup.community).events.participate({ path: { id: eventId } }))
const owner = () => typed.as(setup.owner, setup.community)
const anonymous = () => typed.anonymous(setup.community)

const statuses = async (eventId: string) => {
  const rows = await query<{ profileId: string; status: string }>(
    roda,
    (sql) => sql`SELECT profile_id, status FROM event_participants WHERE event_id = ${eventId}`
  )
  return new Map(rows.map((row) => [row.profileId, row.status]))
}

describe("POST /api/events/{id}/participate", () => {
  it("toggles going -> cancelled -> going, with the message of each state", async () => {
    const event = await createEvent(typed, setup)
    const going = await participate(event.id, members[0]!)
    expect(going.message).toBe("Presença confirmada.")
    expect(going.data).toMatchObject({ eventId: event.id, profileId: members[0]!.profileId, status: "going" })
    expect(going.data.counts).toEqual({ going: 1, waitlisted: 0 })
    const cancelled = await participate(event.id, members[0]!)
    expect(cancelled.message).toBe("Participação cancelada.")
    expect(cancelled.data).toMatchObject({ status: "cancelled", counts: { going: 0, waitlisted: 0 } })
    expect((await participate(event.id, members[0]!)).message).toBe("Presença confirmada.")
    // (raw: the contract's types refuse a malformed id)
    rawFails(
      await api.post("/api/events/nope/participate", undefined, as(members[0]!, setup.community)),
      400,
      INVALID_EVENT_ID
    )
    await fails(anonymous().events.participate({ path: { id: event.id } }), 401)
  })

  it("waitlists when full and promotes the oldest waitlisted when a seat frees", async () => {
    const event = await createEvent(typed, setup, { capacity: 2 })
    const [a, b, c, d] = members.slice(10, 14) as [Person, Person, Person, Person]
    await participate(event.id, a)
    await participate(event.id, b)
    expect((await participate(event.id, c)).message).toBe("Evento lotado: você está na lista de espera.")
    expect((await participate(event.id, d)).data.status).toBe("waitlisted")
    const left = (await participate(event.id, a)).data
    expect(left).toMatchObject({ status: "cancelled", promotedProfileIds: [c.profileId] })
    expect(left.counts).toEqual({ going: 2, waitlisted: 1 })
    // A waitlisted person leaving frees no seat.
    expect((await participate(event.id, d)).data.promotedProfileIds).toEqual([])
    // Coming back puts a (former) participant at the end of the line.
    expect((await participate(event.id, a)).data.status).toBe("waitlisted")
    expect((await participate(event.id, d)).data.status).toBe("waitlisted")
    const s = await statuses(event.id)
    expect([s.get(b.profileId), s.get(c.profileId), s.get(a.profileId), s.get(d.profileId)])
      .toEqual(["going", "going", "waitlisted", "waitlisted"])
    // Raising the capacity promotes in order; lowering it below those going is 409.
    const capacity = (seats: number | null) =>
      owner().events.update({ path: { id: event.id }, payload: { capacity: seats } })
    expect((await ok(capacity(3))).data).toMatchObject({ counts: { going: 3, waitlisted: 1 }, seatsLeft: 0 })
    expect((await statuses(event.id)).get(a.profileId)).toBe("going")
    const error = await fails(
      capacity(1),
      409,
      "A capacidade não pode ser menor que o número de participantes confirmados (3)."
    )
    expect(error.errors?.[0]?.param).toBe("capacity")
    expect((await ok(capacity(null))).data).toMatchObject({ counts: { going: 4, waitlisted: 0 }, seatsLeft: null })
  })

  it("never exceeds capacity under 100 concurrent calls; cancellations promote in line order", async () => {
    const event = await createEvent(typed, setup, { capacity: 10 })
    // (each answered 200: the contract's only success status of the route)
    const replies = await Promise.all(members.map((person) => participate(event.id, person)))
    const results = replies.map((reply) => reply.data.status)
    expect(results.filter((s) => s === "going")).toHaveLength(10)
    expect(results.filter((s) => s === "waitlisted")).toHaveLength(90)
    const detail = (await ok(anonymous().events.detail({ path: { id: event.id } }))).data
    expect(detail.counts).toEqual({ going: 10, waitlisted: 90 })
    expect(detail.seatsLeft).toBe(0)

    // The line, as staff see it.
    const pageAfter = (cursor: string | null) =>
      ok(
        owner().events.participants({
          path: { id: event.id },
          urlParams: cursor === null ? { status: "waitlisted", limit: 40 } : { status: "waitlisted", limit: 40, cursor }
        })
      )
    const line: Array<{ profileId: string; status: string }> = []
    let cursor: string | null = null
    do {
      const page = await pageAfter(cursor)
      line.push(...page.data)
      cursor = page.pagination.nextCursor
    } while (cursor !== null)
    expect(line).toHaveLength(90)
    expect(new Set(line.map((p) => p.profileId)).size).toBe(90)

    // Five people going leave, concurrently: the first five of the line move up, nobody else.
    const goers = members.filter((_, i) => results[i] === "going").slice(0, 5)
    const left = await Promise.all(goers.map((person) => participate(event.id, person)))
    const promoted = left.flatMap((reply) => reply.data.promotedProfileIds)
    expect(new Set(promoted)).toEqual(new Set(line.slice(0, 5).map((p) => p.profileId)))
    // Then one by one: the next of the line each time.
    const stillGoing = members.filter((_, i) => results[i] === "going").slice(5)
    for (const [index, person] of stillGoing.entries()) {
      expect((await participate(event.id, person)).data.promotedProfileIds).toEqual([line[5 + index]!.profileId])
    }
    const counts = (await ok(anonymous().events.detail({ path: { id: event.id } }))).data.counts
    expect(counts).toEqual({ going: 10, waitlisted: 80 })
  }, 120_000)
})

describe("GET /api/events/{id}/participants", () => {
  it("shows counts to anyone, going names to members, everyone to staff and the host", async () => {
    const event = await createEvent(typed, setup, { capacity: 1 })
    await participate(event.id, members[20]!)
    await participate(event.id, members[21]!)
    const path = { id: event.id }
    const visitor = await ok(anonymous().events.participants({ path, urlParams: {} }))
    expect(visitor.message).toBe("Participantes encontrados.")
    expect(visitor.data).toEqual([])
    expect(visitor).toMatchObject({ counts: { going: 1, waitlisted: 1 }, visibility: "counts" })
    const asMember = typed.as(members[22]!, setup.community)
    const member = await ok(asMember.events.participants({ path, urlParams: {} }))
    expect(member.data.map((p) => p.profileId)).toEqual([members[20]!.profileId])
    expect(member.visibility).toBe("going")
    expect(member.data[0]).toMatchObject({ fullName: "Pessoa 20", status: "going" })
    const waitlistAsMember = await ok(asMember.events.participants({ path, urlParams: { status: "waitlisted" } }))
    expect(waitlistAsMember.data).toEqual([])
    const staff = await ok(owner().events.participants({ path, urlParams: {} }))
    expect(staff.data.map((p) => p.status)).toEqual(["going", "waitlisted"])
    expect(staff.visibility).toBe("all")
    await invalid(owner().events.participants({ path, urlParams: { cursor: "WzFd" } }), "cursor", "query")
    // (raw: the contract's types refuse these)
    const call = { community: setup.community.id }
    rawInvalid(await api.get(`/api/events/${event.id}/participants?status=maybe`, call), "status", "query")
    rawInvalid(await api.get(`/api/events/${event.id}/participants?limit=0`, call), "limit", "query")
  })
})
