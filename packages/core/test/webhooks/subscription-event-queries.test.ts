import { afterAll, expect, it } from "vitest"
import { controlledClock, DAY, runJobs, setCard, signIn, subscribed } from "../commerce/subscriptions-support"
import { expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { statements } from "../support/queries"
import { query } from "../support/sql"

/**
 * Issue 54, item 4: emitting a `subscription.*` event adds one statement, the event's. The view it
 * sends (option, member, add-ons) is answered by the statement that changes the subscription
 * (`updateViewed`, `insertViewed`); `emits` counts every statement made under a `WebhookEvents.*`
 * span, the family's emitter included, so a read made for the event would count. Requests and job
 * runs alike (`jobs: true`: renewals, retries, resumes and changes at a date are jobs).
 */
const time = controlledClock(Date.UTC(2026, 2, 31, 12, 0, 0))
const roda = startRoda({}, { clock: time.clock, tracing: true })
const api = client(roda)
afterAll(() => roda.dispose())

const eventIds = (communityId: string) =>
  query<{ id: string }>(roda, (sql) => sql`SELECT id FROM webhook_events WHERE community_id = ${communityId}`)
    .then((rows) => new Set(rows.map((row) => row.id)))

/** What `run` emitted (events written) and the statements it took to emit them. */
const emitting = async (communityId: string, run: () => Promise<unknown>) => {
  const before = await eventIds(communityId)
  const { emits } = await statements(run, { jobs: true })
  const fresh = [...await eventIds(communityId)].filter((id) => !before.has(id))
  return { events: fresh.length, emits }
}

const after = (end: string) => {
  time.set(new Date(end).getTime() + 1000)
  return runJobs(roda)
}

it("every subscription move emits each of its events in one statement", async () => {
  const made = await subscribed(api)
  const communityId = made.community.id
  const owner = async () => ({ token: await signIn(api, made.owner.email), community: communityId })
  const member = async () => ({ token: await signIn(api, made.member.email), community: communityId })
  const detail = async (id: string) => expectOk(await api.get(`/api/manage/subscriptions/${id}`, await owner()))
  const id = made.subscriptionId
  const start = await detail(id)

  const moves: Array<[string, () => Promise<unknown>]> = [
    ["pause", async () => expectOk(await api.post(`/api/subscriptions/${id}/pause`, {}, await member()))],
    ["resume", async () => expectOk(await api.post(`/api/subscriptions/${id}/resume`, undefined, await member()))],
    ["change now", async () =>
      expectOk(
        await api.post(`/api/subscriptions/${id}/change-tier`, {
          productId: made.premium.id,
          when: "now"
        }, await member())
      )],
    ["renewal", async () => after((await detail(id)).currentPeriodEnd)],
    ["renewal failed", async () => {
      await setCard(roda, id, "tok_chargeDeclined")
      await after((await detail(id)).currentPeriodEnd)
    }],
    [
      "team cancels",
      async () => expectOk(await api.post(`/api/manage/subscriptions/${id}/cancel`, { when: "now" }, await owner()))
    ],
    ["courtesy", async () =>
      expectOk(
        await api.post("/api/manage/subscriptions", {
          profileId: made.member.profileId,
          productId: made.premium.id,
          kind: "courtesy",
          periodEnd: new Date(time.now() + 5 * DAY).toISOString()
        }, await owner()),
        201
      )],
    ["bought", async () => made.buy(made.monthly.id, { ...made.member, token: await signIn(api, made.member.email) })]
  ]
  const seen: Record<string, { events: number; emits: number }> = {}
  for (const [name, run] of moves) {
    const { emits, events } = await emitting(communityId, run)
    seen[name] = { events, emits }
  }
  expect(seen).toEqual({
    "pause": { events: 1, emits: 1 },
    "resume": { events: 1, emits: 1 },
    "change now": { events: 1, emits: 1 },
    "renewal": { events: 1, emits: 1 },
    "renewal failed": { events: 1, emits: 1 },
    "team cancels": { events: 1, emits: 1 },
    "courtesy": { events: 1, emits: 1 },
    "bought": { events: 1, emits: 1 }
  })
  expect(start.status).toBe("active")
})
