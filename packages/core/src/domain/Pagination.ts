import { Effect, Option, Schema } from "effect"
import { invalidField } from "./AppError"
import type { Pagination } from "./Envelope"
import { same } from "./Text"

export const DEFAULT_LIMIT = 20
export const MAX_LIMIT = 100

/** `?limit=&cursor=`: every keyset-paginated list accepts these. */
export const PageQuery = Schema.Struct({
  limit: Schema.optional(
    Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, MAX_LIMIT)).annotations({
      // override: also when the value is not a number at all
      message: () => ({ message: `limit must be an integer between 1 and ${MAX_LIMIT}`, override: true })
    })
  ),
  cursor: Schema.optional(Schema.String.pipe(Schema.maxLength(512)))
})
export type PageQuery = typeof PageQuery.Type

/** A cursor is the keyset of the last row seen, opaque to clients. */
export const encodeCursor = (key: ReadonlyArray<string | number>): string =>
  Buffer.from(JSON.stringify(key)).toString("base64url")

/** The keyset a cursor holds, checked against `key` (e.g. `Schema.Tuple(Uuid)`); 400 otherwise. */
export const decodeCursor = <A, I>(cursor: string | undefined, key: Schema.Schema<A, I>) =>
  Effect.suspend(() => {
    if (cursor === undefined) return Effect.succeed(undefined)
    const decoded = Schema.decodeUnknownOption(Schema.parseJson(key))(Buffer.from(cursor, "base64url").toString("utf8"))
    return Option.match(decoded, {
      onNone: () => Effect.fail(invalidField("cursor", same("cursor is not valid"), "query")),
      onSome: (value) => Effect.succeed(value)
    })
  })

/** Rows were fetched with `limit + 1`; the extra row only tells that there is a next page. */
export const toPage = <A>(rows: ReadonlyArray<A>, limit: number, keyOf: (row: A) => ReadonlyArray<string | number>) => {
  const items = rows.slice(0, limit)
  const last = items[items.length - 1]
  const pagination: Pagination = {
    limit,
    nextCursor: rows.length > limit && last !== undefined ? encodeCursor(keyOf(last)) : null
  }
  return { items, pagination }
}
