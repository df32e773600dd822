import { Effect } from "effect"
import { expect, it } from "vitest"
import { Jobs } from "../../src/platform/Jobs"
import { RETENTION_BATCH, RETENTION_JOB } from "../../src/webhooks/Retention"
import { as, newCommunity } from "../support/community"
import { expectOk } from "../support/envelope"
import { query } from "../support/sql"
import { webhookSuite } from "./receiver"

/** Issue 54: the event log keeps 30 days; older events leave the database with their deliveries. */
const { api, roda, receiver: running } = webhookSuite()

const queuedRetention = () =>
  query<{ due: boolean; inMinutes: number }>(
    roda,
    (sql) =>
      sql`SELECT run_at <= now() AS due, (extract(epoch FROM run_at - now()) / 60)::float8 AS in_minutes FROM jobs
      WHERE kind = ${RETENTION_JOB} AND status = 'queued'`
  )

/** Makes the queued retention run due, and runs it. */
const runRetention = async () => {
  await query(roda, (sql) =>
    sql`UPDATE jobs SET run_at = now() - interval '1 second'
    WHERE kind = ${RETENTION_JOB} AND status = 'queued' RETURNING id`)
  return roda.runtime.runPromise(Effect.flatMap(Jobs, (jobs) => jobs.runDue({ kinds: [RETENTION_JOB] })))
}

it("deletes events older than 30 days with their deliveries, a batch at a time, and runs again an hour later", async () => {
  const setup = await newCommunity(api, "Retenção de eventos")
  const owner = as(setup.owner, setup.community)
  const hook = expectOk(await api.post("/api/webhooks", { url: running().url("/kept"), events: ["*"] }, owner), 201)
  for (let i = 0; i < 2; i++) expectOk(await api.post(`/api/webhooks/${hook.id}/test`, undefined, owner))
  await running().waitFor("/kept", 2)
  const events = await query<{ id: string }>(
    roda,
    (sql) => sql`SELECT id FROM webhook_events WHERE community_id = ${setup.community.id} ORDER BY id`
  )
  expect(events).toHaveLength(2)
  const [old, recent] = events.map((event) => event.id)
  await query(
    roda,
    (sql) => sql`UPDATE webhook_events SET created_at = now() - interval '31 days' WHERE id = ${old!} RETURNING id`
  )
  // More than a batch of older events: one run deletes them all, a batch at a time.
  await query(roda, (sql) =>
    sql`INSERT INTO webhook_events (id, community_id, type, data, created_at)
      SELECT gen_random_uuid(), ${setup.community.id}, 'webhook.test', '{}'::jsonb, now() - interval '40 days'
      FROM generate_series(1, ${RETENTION_BATCH + 1}) RETURNING id`)

  // Every process that runs jobs queued one run when it started.
  expect(await queuedRetention()).toHaveLength(1)
  expect(await runRetention()).toBe(1)
  const [next] = await queuedRetention()
  expect(next!.due).toBe(false)
  expect(next!.inMinutes).toBeGreaterThan(55)
  expect(next!.inMinutes).toBeLessThanOrEqual(60)

  const left = await query<{ id: string }>(
    roda,
    (sql) => sql`SELECT id FROM webhook_events WHERE community_id = ${setup.community.id}`
  )
  expect(left.map((event) => event.id)).toEqual([recent])
  const deliveries = await query<{ eventId: string }>(
    roda,
    (sql) => sql`SELECT event_id FROM webhook_deliveries WHERE endpoint_id = ${hook.id}`
  )
  expect(deliveries.map((delivery) => delivery.eventId)).toEqual([recent])
  const log = expectOk(await api.get("/api/webhook-events", owner))
  expect(log.map((event: { id: string }) => event.id)).toEqual([recent])
})
