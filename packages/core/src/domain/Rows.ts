import { Effect, Option, Schema } from "effect"
import { compileRowCheck, compileRowTrim } from "./rowCheck"

/**
 * A decoder of database rows by `Row`, to build once (at module or service construction) and apply to
 * a `sql\`...\`` result. A row that does not decode is a bug, not a client error: a defect. Rows that
 * already are what `Row` decodes to are used as they are, less the keys `Row` does not declare
 * (`rowCheck.ts`); any other goes through Schema.
 */
export const decodeRows = <A, I>(Row: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknown(Schema.Array(Row))
  // undefined when `Row` transforms anything (its AST then holds a Transformation)
  const check = compileRowCheck(Row.ast)
  const trim = check === undefined ? undefined : compileRowTrim(Schema.Array(Row).ast)
  return (rows: unknown): Effect.Effect<ReadonlyArray<A>> =>
    check !== undefined && trim !== undefined && Array.isArray(rows) && rows.every(check)
      ? Effect.succeed(trim(rows) as ReadonlyArray<A>)
      : Effect.orDie(decode(rows))
}

/** A decoder of one row by `Row` (as `decodeRows`). */
export const decodeRow = <A, I>(Row: Schema.Schema<A, I>) => {
  const rows = decodeRows(Row)
  return (row: unknown): Effect.Effect<A> => Effect.map(rows([row]), (decoded) => decoded[0]!)
}

/** The first of the rows, decoded by `Row` (as `decodeRows`), or none. */
export const firstRow = <A, I>(Row: Schema.Schema<A, I>) => {
  const rows = decodeRows(Row)
  return (found: ReadonlyArray<unknown>): Effect.Effect<Option.Option<A>> =>
    found.length === 0 ? Effect.succeedNone : Effect.map(rows(found.slice(0, 1)), (decoded) => Option.some(decoded[0]!))
}
