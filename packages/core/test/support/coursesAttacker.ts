import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Roda } from "../../src/index"
import { query } from "./sql"

/**
 * Opens a transaction on its own connection, runs `work` in it and keeps it open (with its row locks)
 * until `commit()` is called: a concurrent writer caught between its check and its write.
 */
export const holdTransaction = async (
  roda: Roda,
  work: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>
) => {
  let commit!: () => void
  const committing = new Promise<void>((resolve) => (commit = resolve))
  let ready!: () => void
  let failed!: (error: unknown) => void
  const started = new Promise<void>((resolve, reject) => {
    ready = resolve
    failed = reject
  })
  const done = roda.runtime.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql.withTransaction(Effect.gen(function*() {
        yield* work(sql)
        ready()
        yield* Effect.promise(() => committing)
      })))
  ).catch((error) => failed(error))
  await started
  return {
    commit: async () => {
      commit()
      await done
    }
  }
}

/** Waits until `count` sessions of this database wait on a lock (or `timeoutMs` passed); how many do. */
export const lockWaiters = async (roda: Roda, count: number, timeoutMs = 3_000) => {
  const until = Date.now() + timeoutMs
  for (;;) {
    const [row] = await query<{ waiting: number }>(
      roda,
      (sql) =>
        sql`SELECT count(*)::int AS waiting FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`
    )
    if (row!.waiting >= count || Date.now() > until) return row!.waiting
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
