import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import type { Roda } from "../../src/index"
import { startRoda } from "../support/harness"

let roda: Roda

beforeAll(() => {
  roda = startRoda({ runJobs: false })
})
afterAll(() => roda.dispose())

it("the sweep of expired Idempotency-Keys (subscriptions) finds them by the index on created_at", async () => {
  // the statement of `SubscriptionsRepo.sweepKeys`, planned with sequential scans priced out
  const plan = await roda.runtime.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql.withTransaction(Effect.gen(function*() {
        yield* sql`SET LOCAL enable_seqscan = off`
        const rows = yield* sql<Record<string, string>>`EXPLAIN DELETE FROM subscription_request_keys WHERE ctid IN (
            SELECT ctid FROM subscription_request_keys WHERE created_at <= ${new Date()} LIMIT 100)`
        return rows.map((row) => Object.values(row)[0]).join("\n")
      })))
  )
  expect(plan).toContain("subscription_request_keys_created_idx")
})
