import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import type { Results } from "@electric-sql/pglite"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { Engine, StatementOptions } from "./engine"

type TransformRows = <A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>

/**
 * Hands a statement to the engine (`begin`), when the session allows it: at once inside a
 * transaction, after the transactions ahead of it outside one.
 */
export type Guard = <A>(begin: () => Promise<A>) => Effect.Effect<A, SqlError>

// PGlite's DatabaseError keeps the SQLSTATE in `code` (e.g. "23505"). An SqlError already says why
// (the database did not open, say).
export const statementFailed = (cause: unknown) =>
  cause instanceof SqlError ? cause : new SqlError({ cause, message: "Failed to execute statement" })

const applyTransform = (rows: ReadonlyArray<any>, transformRows: TransformRows | undefined) =>
  transformRows ? transformRows(rows) : rows

/**
 * A `Connection` over the single PGlite session. Every statement goes through
 * `guard`, which decides when it may be handed to the engine.
 */
export const makeConnection = (engine: Engine, guard: Guard): Connection => {
  const query = (sql: string, params: ReadonlyArray<unknown>, options?: StatementOptions) =>
    guard(() => engine.query(sql, params, options))

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
      : Effect.map(guard(() => engine.exec(sql)), (results: Array<Results>) => {
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
