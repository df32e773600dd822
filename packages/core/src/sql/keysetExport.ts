import type { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Chunk, Effect, Option, Stream } from "effect"

/** Rows per statement of a members' data export (`ExportFile.records`). */
export const EXPORT_PAGE = 500

/** A row as the client answers it (camelCase keys). */
export type ExportRow = Readonly<Record<string, unknown>>

/** The column of a page's rows that holds only the page's key, dropped from the records. */
export const PAGE_KEY = "pageKey"

const withoutPageKey = (row: ExportRow): ExportRow => {
  if (!(PAGE_KEY in row)) return row
  const { [PAGE_KEY]: _key, ...record } = row
  return record
}

/**
 * The rows `page` reads, page after page (keyset): each page is one statement of at most `size` rows
 * after the key of the previous page's last row (`keyOf`); a short page is the last. Never more than a
 * page in memory. A `pageKey` column (a key not meant for the member) is dropped from the records.
 */
export const keysetRows = <K>(
  page: (after: Option.Option<K>) => Effect.Effect<ReadonlyArray<ExportRow>, unknown>,
  keyOf: (row: ExportRow) => K,
  size: number = EXPORT_PAGE
): Stream.Stream<ExportRow> =>
  Stream.paginateChunkEffect(Option.none<K>(), (after) =>
    Effect.map(Effect.orDie(page(after)), (rows) =>
      [
        Chunk.unsafeFromArray(rows.map(withoutPageKey)),
        rows.length < size ? Option.none() : Option.some(Option.some(keyOf(rows[rows.length - 1]!)))
      ] as const))

/** `keysetRows` over each of `owners` in turn (a data subject's profiles, say). */
export const keysetRowsOfEach = <P, K>(
  owners: ReadonlyArray<P>,
  page: (owner: P, after: Option.Option<K>) => Effect.Effect<ReadonlyArray<ExportRow>, unknown>,
  keyOf: (row: ExportRow) => K,
  size: number = EXPORT_PAGE
): Stream.Stream<ExportRow> =>
  Stream.flatMap(Stream.fromIterable(owners), (owner) => keysetRows((after) => page(owner, after), keyOf, size))

/** `AND <column> > <key>` after the first page; nothing on the first. `column` is a constant of the code. */
export const afterKey = <K>(sql: SqlClient.SqlClient, column: string, after: Option.Option<K>): Fragment =>
  Option.match(after, { onNone: () => sql``, onSome: (key) => sql`AND ${sql.unsafe(column)} > ${key}` })

/** A key of rows keyed by `id`. */
export const idKey = (row: ExportRow): string => row["id"] as string

/** `column` (a constant of the code, never input) as an ISO 8601 instant in UTC, to the millisecond. */
export const isoOf = (sql: SqlClient.SqlClient, column: string): Fragment =>
  sql.unsafe(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`)

/** `column` to the microsecond: a key for `(created_at, id)` keysets, exact where milliseconds are not. */
export const isoMicrosOf = (sql: SqlClient.SqlClient, column: string): Fragment =>
  sql.unsafe(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`)
