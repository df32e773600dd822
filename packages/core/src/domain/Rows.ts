import { Effect, Schema } from "effect"

/**
 * A decoder of database rows by `Row`, to build once (at module or service construction) and apply to
 * a `sql\`...\`` result. A row that does not decode is a bug, not a client error: a defect.
 */
export const decodeRows = <A, I>(Row: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknown(Schema.Array(Row))
  return (rows: unknown): Effect.Effect<ReadonlyArray<A>> => Effect.orDie(decode(rows))
}
