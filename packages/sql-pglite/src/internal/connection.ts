import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import type { PGlite, QueryOptions, Results } from "@electric-sql/pglite"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { namedQuery } from "./namedStatements"

type TransformRows = <A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>

/** Wraps every database call, e.g. to take the session permit. */
export type Guard = <A>(effect: Effect.Effect<A, SqlError>) => Effect.Effect<A, SqlError>

const applyTransform = (rows: ReadonlyArray<any>, transformRows: TransformRows | undefined) =>
  transformRows ? transformRows(rows) : rows

/**
 * A `Connection` over the single PGlite session. Every statement goes through
 * `guard`, which decides whether it must wait for the session permit.
 */
export const makeConnection = (pglite: PGlite, guard: Guard): Connection => {
  const run = <A>(evaluate: () => Promise<A>): Effect.Effect<A, SqlError> =>
    guard(Effect.tryPromise({
      try: evaluate,
      // PGlite's DatabaseError keeps the SQLSTATE in `code` (e.g. "23505")
      catch: (cause) => new SqlError({ cause, message: "Failed to execute statement" })
    }))

  const named = namedQuery(pglite)
  const query = (sql: string, params: ReadonlyArray<unknown>, options?: QueryOptions) =>
    run(() => named(sql, params, options))

  const execute = (sql: string, params: ReadonlyArray<unknown>, transformRows: TransformRows | undefined) =>
    Effect.map(query(sql, params), (result) => applyTransform(result.rows, transformRows))

  // Without parameters use the simple protocol, which accepts several
  // statements; like `pg`, several statements yield one row array each.
  const executeUnprepared = (
    sql: string,
    params: ReadonlyArray<unknown>,
    transformRows: TransformRows | undefined
  ) =>
    params.length > 0
      ? execute(sql, params, transformRows)
      : Effect.map(run(() => pglite.exec(sql)), (results: Array<Results>) => {
        const rows = results.length === 1 ? results[0]!.rows : results.map((result) => result.rows)
        return applyTransform(rows, transformRows)
      })

  return {
    execute,
    executeRaw: (sql, params) => query(sql, params),
    executeValues: (sql, params) =>
      Effect.map(
        query(sql, params, { rowMode: "array" }),
        (result) => result.rows as ReadonlyArray<ReadonlyArray<unknown>>
      ),
    executeUnprepared,
    // PGlite has no cursors over its single session, so the rows are read at once.
    executeStream: (sql, params, transformRows) => Stream.fromIterableEffect(execute(sql, params, transformRows))
  }
}
