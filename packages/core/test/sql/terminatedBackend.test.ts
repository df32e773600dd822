import { SqlClient } from "@effect/sql"
import { Effect, Exit, Fiber, Redacted } from "effect"
import pg from "pg"
import { expect, it } from "vitest"
import { POSTGRES_ONLY, skipWhen } from "../../../../testing/skips"
import { poolOptions, postgresClient } from "../../node/sql/Database"

/**
 * A backend terminated while it runs a statement (an administrator, a failover) answers that
 * statement with a FATAL error and then closes its socket. The connection must leave the pool with
 * that error: given back as healthy, it went to the next waiting statement, which then failed with
 * "Connection terminated unexpectedly" (a 503 for a request that never met the failure; CI saw it in
 * resilience-connection-loss.test.ts).
 */
skipWhen(POSTGRES_ONLY).describe("a terminated PostgreSQL backend", () => {
  const applicationName = `roda-terminate-test-${process.pid}`

  it("fails only its own statement: the statement waiting for the pool's connection runs", async () => {
    const killer = new pg.Client({ connectionString: process.env.DATABASE_URL! })
    await killer.connect()
    try {
      for (let round = 0; round < 5; round++) {
        const outcome = await Effect.runPromise(
          Effect.gen(function*() {
            const sql = yield* SqlClient.SqlClient
            const sleeping = yield* Effect.fork(Effect.exit(sql`SELECT pg_sleep(5)`))
            yield* Effect.sleep("50 millis")
            // Queued behind the sleep: the pool has one connection.
            const waiting = yield* Effect.fork(Effect.exit(sql`SELECT 1 AS one`))
            yield* Effect.sleep("20 millis")
            yield* Effect.promise(() =>
              killer.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
                [applicationName]
              )
            )
            return { slept: yield* Fiber.join(sleeping), waited: yield* Fiber.join(waiting) }
          }).pipe(
            Effect.provide(postgresClient({
              ...poolOptions(Redacted.make(process.env.DATABASE_URL!)),
              max: 1,
              application_name: applicationName
            }))
          )
        )
        expect(Exit.isFailure(outcome.slept)).toBe(true)
        expect(Exit.isSuccess(outcome.waited) ? "ran" : String(outcome.waited)).toBe("ran")
      }
    } finally {
      await killer.end()
    }
  })
})
