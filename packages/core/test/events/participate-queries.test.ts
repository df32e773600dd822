import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as } from "../support/community"
import { expectCreated, expectOk } from "../support/envelope"
import { type EventCommunity, eventCommunity, onlineEvent } from "../support/events"
import { client, type Reply, startRoda } from "../support/harness"
import { statements } from "../support/queries"

// Statements are counted through their spans, which only exist with tracing on.
const roda = startRoda({}, { tracing: true })
const api = client(roda)
afterAll(() => roda.dispose())

type Person = { token: string; profileId: string }
let setup: EventCommunity
let ana: Person
let bia: Person
let caio: Person
beforeAll(async () => {
  setup = await eventCommunity(api, "Consultas de participação")
  ana = await setup.addMember("member", "Ana")
  bia = await setup.addMember("member", "Bia")
  caio = await setup.addMember("member", "Caio")
})

const newEvent = async (capacity: number | null) =>
  expectCreated(
    await api.post("/api/events", onlineEvent(setup.space.id, { capacity }), as(setup.owner, setup.community))
  ) as { id: string }

/** The answer's counts are those the event reads after it. */
const countsRead = async (eventId: string, answer: Reply) => {
  const detail = expectOk(await api.get(`/api/events/${eventId}`, as(setup.owner, setup.community)))
  expect(detail.counts).toEqual(expectOk(answer).counts)
}

const participate = (eventId: string, person: Person) =>
  statements(() => api.post(`/api/events/${eventId}/participate`, undefined, as(person, setup.community)))

/**
 * Counted without BEGIN and SAVEPOINT (`transactions`: the request's, and no savepoint inside).
 * Before: 14 statements to go, 11 to be waitlisted, 15 to leave and promote, and a savepoint.
 * Issue 58 ("Writes at scale"): the toggle read the event three times (before, under and after its
 * lock) and the caller's participation twice; now once each, the answer built from what the
 * transaction read and wrote.
 */
describe("POST /api/events/{id}/participate statements", () => {
  it("going, waitlisted, a seat freed that promotes, counts as a later read shows them", async () => {
    const event = await newEvent(1)
    const going = await participate(event.id, ana)
    expect(expectOk(going.result)).toMatchObject({ status: "going", counts: { going: 1, waitlisted: 0 } })
    expect([going.n, going.transactions]).toEqual([9, 1])
    await countsRead(event.id, going.result)
    const waiting = await participate(event.id, bia)
    expect(expectOk(waiting.result)).toMatchObject({
      status: "waitlisted",
      counts: { going: 1, waitlisted: 1 },
      promotedProfileIds: []
    })
    expect([waiting.n, waiting.transactions]).toEqual([6, 1])
    await countsRead(event.id, waiting.result)
    const left = await participate(event.id, ana)
    expect(expectOk(left.result)).toMatchObject({
      status: "cancelled",
      counts: { going: 1, waitlisted: 0 },
      promotedProfileIds: [bia.profileId]
    })
    expect([left.n, left.transactions]).toEqual([10, 1])
    await countsRead(event.id, left.result)
    const again = await participate(event.id, ana)
    expect(expectOk(again.result)).toMatchObject({ status: "waitlisted", counts: { going: 1, waitlisted: 1 } })
    const leftWaiting = await participate(event.id, ana)
    expect(expectOk(leftWaiting.result)).toMatchObject({
      status: "cancelled",
      counts: { going: 1, waitlisted: 0 },
      promotedProfileIds: []
    })
    const detail = expectOk(await api.get(`/api/events/${event.id}`, as(ana, setup.community)))
    expect(detail).toMatchObject({ participation: { status: "cancelled", joinedAt: expect.any(String) } })
    expect(detail.participation.joinedAt).toBe(expectOk(leftWaiting.result).joinedAt)
  })

  it("without a capacity", async () => {
    const event = await newEvent(null)
    const going = await participate(event.id, caio)
    expect(expectOk(going.result)).toMatchObject({ status: "going", counts: { going: 1, waitlisted: 0 } })
    expect([going.n, going.transactions]).toEqual([9, 1])
    await countsRead(event.id, going.result)
  })
})
