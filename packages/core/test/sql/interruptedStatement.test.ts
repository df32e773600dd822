import { SqlClient } from "@effect/sql"
import { Effect, Exit, Fiber, Redacted } from "effect"
import { expect, it } from "vitest"
import { POSTGRES_ONLY, skipWhen } from "../../../../testing/skips"
import { poolOptions, postgresClient } from "../../node/sql/Database"
import { ABANDON_AFTER_MS } from "../../node/sql/guardedPool"

/**
 * A request whose client leaves is interrupted (issue 11, item 5), often while one of its statements
 * runs. That statement must not reach anyone else's: @effect/sql-pg answers the interruption with
 * `SELECT pg_cancel_backend(<pid>)` sent through the pool, which waits for a free connection while
 * the interrupted statement finishes and gives its connection back, so the cancel lands on whatever
 * that backend runs by then: another request's statement, or its own query. Roda's PostgreSQL layer
 * (`postgresClient`, a `GuardedPool`) answers that cancel itself once the statement has answered.
 */
skipWhen(POSTGRES_ONLY).describe("an interrupted statement on PostgreSQL", () => {
  const applicationName = `roda-interrupt-test-${process.pid}`
  const withPool = (max: number) =>
    Effect.provide(postgresClient({
      ...poolOptions(Redacted.make(process.env.DATABASE_URL!)),
      max,
      application_name: applicationName
    }))
  /** Cancel requests sent from this test's connections. */
  const cancelsSent = (sql: SqlClient.SqlClient) =>
    Effect.map(
      sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE application_name = ${applicationName} AND query LIKE 'SELECT pg_cancel_backend(%'`,
      (rows) => rows[0]!.n
    )

  it("finishes, then lets the pool's next statement run uncancelled", async () => {
    const outcome = await Effect.runPromise(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        // A holds one connection briefly, X the other longer; B queues for a connection before the
        // interruption of A, so it takes A's connection when A's statement ends.
        const a = yield* Effect.fork(sql`SELECT pg_sleep(0.15)`)
        const x = yield* Effect.fork(sql`SELECT pg_sleep(0.6)`)
        yield* Effect.sleep("30 millis")
        const b = yield* Effect.fork(sql`SELECT pg_sleep(0.8)`)
        yield* Effect.sleep("30 millis")
        const interrupted = yield* Effect.fork(Fiber.interrupt(a))
        const bExit = yield* Fiber.await(b)
        yield* Fiber.join(x)
        const aExit = yield* Fiber.join(interrupted)
        return { aExit, bExit, cancels: yield* cancelsSent(sql) }
      }).pipe(withPool(2))
    )
    expect(Exit.isInterrupted(outcome.aExit)).toBe(true)
    expect(Exit.isSuccess(outcome.bExit) ? "ran" : String(outcome.bExit)).toBe("ran")
    expect(outcome.cancels).toBe(0)
  })

  /**
   * Interrupts a `pg_sleep(seconds)` after `afterMs`, then runs `SELECT 1`: how long the interruption
   * and that next statement took, with no cancel sent.
   */
  const interruptSleep = (seconds: number, afterMs: number) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const a = yield* Effect.fork(sql`SELECT pg_sleep(${seconds})`)
      yield* Effect.sleep(afterMs)
      const started = Date.now()
      yield* Fiber.interrupt(a)
      const waitedMs = Date.now() - started
      const selected = Date.now()
      const [row] = yield* sql<{ one: number }>`SELECT 1 AS one`
      expect(row!.one).toBe(1)
      expect(yield* cancelsSent(sql)).toBe(0)
      return { selectMs: Date.now() - selected, waitedMs }
    })

  it("is waited for: the interruption ends once the statement has answered", async () => {
    // A second connection is free, so nothing but the statement itself holds the interruption up;
    // the connection is back and usable at once.
    const { waitedMs } = await Effect.runPromise(interruptSleep(0.2, 40).pipe(withPool(2)))
    expect(waitedMs).toBeGreaterThanOrEqual(100)
  })

  it(
    "is waited for 4.5 seconds at most: then its connection is dropped, not given to the next statement",
    async () => {
      // The only connection is still busy sleeping: the next statement gets a new one at once.
      const { selectMs, waitedMs } = await Effect.runPromise(interruptSleep(9, 50).pipe(withPool(1)))
      expect(waitedMs).toBeGreaterThanOrEqual(ABANDON_AFTER_MS - 50)
      expect(waitedMs).toBeLessThan(8_000)
      expect(selectMs).toBeLessThan(2_000)
    },
    20_000
  )
})
