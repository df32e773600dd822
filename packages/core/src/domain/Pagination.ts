import { Effect, Option, Schema } from "effect"
import { fromBase64Url, toBase64Url, utf8Text } from "../platform/bytes"
import { invalidField } from "./AppError"
import type { Pagination } from "./Envelope"
import { Uuid } from "./Ids"
import { same } from "./Text"

export const DEFAULT_LIMIT = 20
export const MAX_LIMIT = 100

/**
 * An integer query parameter from `min` to `max`: text on the wire, decoded to a number, and
 * documented as the integer a client sends (with its default, when the route has one).
 */
export const QueryInteger = (name: string, options: {
  readonly min: number
  readonly max: number
  readonly default?: number
  readonly description: string
}) =>
  Schema.NumberFromString.pipe(Schema.int(), Schema.between(options.min, options.max)).annotations({
    // override: also when the value is not a number at all
    message: () => ({
      message: `${name} must be an integer between ${options.min} and ${options.max}`,
      override: true
    }),
    jsonSchema: {
      type: "integer",
      minimum: options.min,
      maximum: options.max,
      ...(options.default === undefined ? {} : { default: options.default }),
      description: options.description
    }
  })

/** `?limit=&cursor=`: every keyset-paginated list accepts these. */
export const PageQuery = Schema.Struct({
  limit: Schema.optional(QueryInteger("limit", {
    min: 1,
    max: MAX_LIMIT,
    default: DEFAULT_LIMIT,
    description: `How many items the page holds, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}).`
  })),
  cursor: Schema.optional(
    Schema.String.pipe(Schema.maxLength(512)).annotations({
      description:
        "Where the page starts: the `nextCursor` of the page before, as it was given. Omit it for the first page."
    })
  )
})
export type PageQuery = typeof PageQuery.Type

/**
 * Parts of a cursor, each within the range of the column it is compared with: a cursor is client
 * input (tampered ones must answer 400 "cursor is not valid", never reach the database as an
 * int4 overflow or an impossible date).
 */
export const CursorPart = {
  uuid: Uuid,
  /** An `integer` (int4) column. */
  int4: Schema.Int.pipe(Schema.between(-2147483648, 2147483647)),
  /** A `bigint` column, carried as a string of at most 18 digits. */
  bigintText: Schema.String.pipe(Schema.pattern(/^\d{1,18}$/)),
  /**
   * A `timestamptz`, as `toISOString()` writes it or with microseconds: a real calendar date in
   * the years 1…9999 (within both PostgreSQL's and JavaScript's ranges), UTC.
   */
  timestamp: Schema.String.pipe(Schema.filter(isTimestamp)),
  /** A `text` column compared in a keyset, at most `max` characters. */
  text: (max: number) => Schema.String.pipe(Schema.maxLength(max))
}

const timestampPattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?Z$/

function isTimestamp(value: string): boolean {
  const parts = timestampPattern.exec(value)
  if (parts === null) return false
  const [year, month, day, hour, minute, second] = parts.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number
  ]
  if (year < 1 || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return false
  // Day 0 of the next month is the last day of this one.
  const lastDay = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeap(year) ? 1 : 0)
  return day >= 1 && day <= lastDay
}

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0

/** A cursor is the keyset of the last row seen, opaque to clients. */
export const encodeCursor = (key: ReadonlyArray<string | number>): string => toBase64Url(JSON.stringify(key))

/** The keyset a cursor holds, checked against `key` (e.g. `Schema.Tuple(Uuid)`); 400 otherwise. */
export const decodeCursor = <A, I>(cursor: string | undefined, key: Schema.Schema<A, I>) =>
  Effect.suspend(() => {
    if (cursor === undefined) return Effect.succeed(undefined)
    const decoded = Option.flatMap(
      Option.fromNullable(fromBase64Url(cursor)),
      (bytes) => Schema.decodeUnknownOption(Schema.parseJson(key))(utf8Text(bytes))
    )
    return Option.match(decoded, {
      onNone: () =>
        Effect.fail(invalidField("cursor", { ...same("cursor is not valid"), code: "invalid_input" }, "query")),
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

/**
 * One keyset page of a list: the limit (default `DEFAULT_LIMIT`), the cursor checked against `cursor`
 * (400 otherwise), then `fetch` given the key after which to read and the page size (it reads one row
 * more, to tell whether a next page exists), and the page cut with `keyOf`, the keyset of a row.
 */
export const paginate = <K, I, Row, E, R>(
  query: { readonly limit?: number | undefined; readonly cursor?: string | undefined },
  cursor: Schema.Schema<K, I>,
  fetch: (after: K | undefined, limit: number) => Effect.Effect<ReadonlyArray<Row>, E, R>,
  keyOf: (row: Row) => ReadonlyArray<string | number>
) => {
  const limit = query.limit ?? DEFAULT_LIMIT
  return Effect.flatMap(
    decodeCursor(query.cursor, cursor),
    (after) => Effect.map(fetch(after, limit), (rows) => toPage(rows, limit, keyOf))
  )
}

/** A page as `paginate` returns it. */
export type Page<Row> = ReturnType<typeof toPage<Row>>
