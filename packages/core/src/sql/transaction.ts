import type { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

const isSqlError = (error: unknown): error is SqlError => error instanceof SqlError

/** Runs `effect` in a transaction (a savepoint when nested); SQL failures are defects (rule 2). */
export const transactional = (sql: SqlClient.SqlClient) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  sql.withTransaction(effect).pipe(Effect.catchIf(isSqlError, Effect.die)) as Effect.Effect<A, Exclude<E, SqlError>, R>
