import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { CommunityId } from "../../src/domain/Ids"
import { EventModeration } from "../../src/events/Moderation"
import { inbox } from "../notifications/setup"
import { expectError, expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { type ModerationCommunity, moderationCommunity, SUBJECT_NOT_FOUND } from "./setup"

/**
 * Issue 56: a case on an event is resolved by `hide` or `remove` (`EventModeration`). Hidden: its
 * host (marked `hidden: true`) and staff read it; it leaves others' event lists, the feed, search,
 * reactions and the reports' counts. Removed: the host's soft delete, read by no one, its
 * participants told it is canceled. Both withdraw the notifications about it and tell its host.
 */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const EVENT_NOT_FOUND = "Evento não encontrado."

let m: ModerationCommunity
beforeAll(async () => {
  m = await moderationCommunity(api, "Eventos moderados")
})

const query = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
  roda.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, f) as Effect.Effect<ReadonlyArray<A>>)
const webhookCount = (type: string, id: string) =>
  query<{ n: number }>((sql) =>
    sql`SELECT count(*)::int AS n FROM webhook_events WHERE type = ${type} AND data->>'id' = ${id}`
  ).then((rows) => rows[0]!.n)

/** An event hosted by the admin (events are created by staff), with its own title. */
const hosted = async (title: string) =>
  expectOk(
    await api.post("/api/events", {
      spaceId: m.eventSpace.id,
      title,
      type: "online",
      startTime: "2030-06-01T19:00:00Z",
      endTime: "2030-06-01T21:00:00Z",
      joinUrl: "https://meet.example.com/x"
    }, m.in(m.admin)),
    201
  ) as { id: string; title: string }

const resolve = async (id: string, action: "hide" | "remove", reporter = m.carla) => {
  const caseId = expectOk(await m.report(reporter, "event", id, "misinformation"), 201).caseId
  return expectOk(await api.post(`/api/moderation/cases/${caseId}/resolve`, { action }, m.in(m.moderator)))
}
const detail = (user: { token: string }, id: string) => api.get(`/api/events/${id}`, m.in(user))
const listIds = async (
  user: { token: string }
) => (expectOk(await api.get("/api/events?limit=100", m.in(user))) as Array<{ id: string; hidden: boolean }>)
const feedIds = async (user: { token: string }) =>
  (expectOk(await api.get("/api/feed?limit=100", m.in(user))) as Array<{ id: string }>).map((item) => item.id)
const searchIds = async (user: { token: string }, q: string) =>
  (expectOk(await api.get(`/api/search?q=${encodeURIComponent(q)}`, m.in(user))) as Array<{ id: string }>).map(
    (r) => r.id
  )
const eventsIn2030 = async () =>
  expectOk(await api.get("/api/reports/events?from=2030-06-01&to=2030-06-01&timeZone=UTC", m.in(m.owner)))
    .totals.events as number
const kinds = async (user: { token: string }, id: string) =>
  (await inbox(api, { community: m.community }, user, "?limit=100"))
    .filter((n) => n.subject.id === id)
    .map((n) => n.kind)
    .sort()

describe("hide", () => {
  it("leaves the event to its host (marked hidden) and staff; out of lists, feed, search and counts", async () => {
    const event = await hosted("Palestra escondível")
    expectOk(await api.post(`/api/events/${event.id}/participate`, undefined, m.in(m.bruno)))
    expect(expectOk(await detail(m.alice, event.id)).hidden).toBe(false)
    expect(await searchIds(m.alice, "escondível")).toContain(event.id)
    const counted = await eventsIn2030()

    const resolved = await resolve(event.id, "hide")
    expect(resolved).toMatchObject({ status: "resolved", resolution: { action: "hide" } })

    for (const user of [m.admin, m.moderator, m.owner]) {
      expect(expectOk(await detail(user, event.id))).toMatchObject({ id: event.id, hidden: true })
      expect((await listIds(user)).find((e) => e.id === event.id)).toMatchObject({ hidden: true })
    }
    for (const user of [m.alice, m.bruno]) {
      expectError(await detail(user, event.id), 404, EVENT_NOT_FOUND)
      expectError(await api.get(`/api/events/${event.id}/calendar.ics`, m.in(user)), 404, EVENT_NOT_FOUND)
      expectError(await api.get(`/api/events/${event.id}/participants`, m.in(user)), 404, EVENT_NOT_FOUND)
      expect((await listIds(user)).some((e) => e.id === event.id)).toBe(false)
      expect(await searchIds(user, "escondível")).not.toContain(event.id)
    }
    // anonymous visitors neither
    expectError(await api.get(`/api/events/${event.id}`, { community: m.community.id }), 404, EVENT_NOT_FOUND)
    for (const user of [m.alice, m.admin, m.moderator]) expect(await feedIds(user)).not.toContain(event.id)
    expect(await searchIds(m.moderator, "escondível")).not.toContain(event.id)
    expect(await eventsIn2030()).toBe(counted - 1)

    // others can no longer take part, react, comment or report it
    expectError(await api.post(`/api/events/${event.id}/participate`, undefined, m.in(m.alice)), 404, EVENT_NOT_FOUND)
    expectError(await api.post(`/api/feed/event/${event.id}/react`, { type: "like" }, m.in(m.alice)), 404)
    expectError(await api.post(`/api/feed/event/${event.id}/comment`, { body: "oi" }, m.in(m.alice)), 404)
    expectError(await m.report(m.alice, "event", event.id), 404, SUBJECT_NOT_FOUND)
    // the participant keeps their place (staff see it)
    const participants = expectOk(await api.get(`/api/events/${event.id}/participants`, m.in(m.owner)))
    expect(participants.map((p: any) => p.profileId)).toContain(m.bruno.profileId)
  })

  it("withdraws the notifications about the event and tells its host (moderation); a second hide changes nothing", async () => {
    const event = await hosted("Evento com reações")
    expectOk(await api.post(`/api/feed/event/${event.id}/react`, { type: "like" }, m.in(m.bruno)))
    expect(await kinds(m.admin, event.id)).toEqual(["reaction"])
    await resolve(event.id, "hide")
    expect(await kinds(m.admin, event.id)).toEqual(["moderation"])
    const [before] = await query<{ hiddenAt: Date }>((sql) => sql`SELECT hidden_at FROM events WHERE id = ${event.id}`)
    // staff still read it, so may report it again: hiding again keeps the first time
    await resolve(event.id, "hide", m.moderator2)
    const [after] = await query<{ hiddenAt: Date }>((sql) => sql`SELECT hidden_at FROM events WHERE id = ${event.id}`)
    expect(after!.hiddenAt).toEqual(before!.hiddenAt)
    // each resolution tells the host once
    expect(await kinds(m.admin, event.id)).toEqual(["moderation", "moderation"])
  })

  it("a dismissed case leaves the event as it is", async () => {
    const event = await hosted("Evento dispensado")
    const caseId = expectOk(await m.report(m.alice, "event", event.id), 201).caseId
    expectOk(await api.post(`/api/moderation/cases/${caseId}/resolve`, { action: "dismiss" }, m.in(m.moderator)))
    expect(expectOk(await detail(m.alice, event.id)).hidden).toBe(false)
    expect(await kinds(m.admin, event.id)).toEqual([])
  })
})

describe("remove", () => {
  it("removes the event for everyone, tells participants going it is canceled, and logs it", async () => {
    const event = await hosted("Evento removível")
    expectOk(await api.post(`/api/events/${event.id}/participate`, undefined, m.in(m.bruno)))
    expectOk(await api.post(`/api/feed/event/${event.id}/react`, { type: "love" }, m.in(m.alice)))
    const counted = await eventsIn2030()

    const resolved = await resolve(event.id, "remove")
    expect(resolved).toMatchObject({ resolution: { action: "remove" }, subject: { excerpt: "Evento removível" } })

    for (const user of [m.admin, m.owner, m.moderator, m.alice, m.bruno]) {
      expectError(await detail(user, event.id), 404, EVENT_NOT_FOUND)
      expect((await listIds(user)).some((e) => e.id === event.id)).toBe(false)
      expect(await feedIds(user)).not.toContain(event.id)
    }
    expect(await searchIds(m.owner, "removível")).not.toContain(event.id)
    expect(await eventsIn2030()).toBe(counted - 1)
    // the host's reaction notification is withdrawn; the host is told of the moderation
    expect(await kinds(m.admin, event.id)).toEqual(["moderation"])
    // the participant going hears it is canceled, as when its host removes it
    expect(await kinds(m.bruno, event.id)).toEqual(["event_changed"])
    expect(await webhookCount("event.canceled", event.id)).toBe(1)
    const log = expectOk(await api.get("/api/moderation/log?limit=10", m.in(m.owner))) as Array<any>
    expect(log.find((entry) => entry.subject.id === event.id)).toMatchObject({
      action: "remove",
      subject: { type: "event", excerpt: "Evento removível" }
    })
  })

  it("removes a hidden event; removing again tells nobody twice", async () => {
    const event = await hosted("Escondido e depois removido")
    expectOk(await api.post(`/api/events/${event.id}/participate`, undefined, m.in(m.carla)))
    await resolve(event.id, "hide", m.alice)
    await resolve(event.id, "remove", m.moderator2)
    expectError(await detail(m.admin, event.id), 404, EVENT_NOT_FOUND)
    const remove = (id: string) =>
      roda.runtime.runPromise(
        Effect.flatMap(EventModeration, (events) => events.remove(m.community.id as CommunityId, id))
      )
    await remove(event.id)
    expect(await webhookCount("event.canceled", event.id)).toBe(1)
    expect(await kinds(m.carla, event.id)).toEqual(["event_changed"])
  })
})
