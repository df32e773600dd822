import type { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"

/**
 * The periods of a report (issue 12, reports): calendar dates `from`..`to` (both included) in
 * `timeZone`, cut by `interval`. Every feature's `*Stats` read contract takes one and groups its
 * rows with `periodOf` and bounds them with `inPeriods`, so the series of all features line up.
 */
export interface ReportRange {
  /** `YYYY-MM-DD`, the first day (included). */
  readonly from: string
  /** `YYYY-MM-DD`, the last day (included). */
  readonly to: string
  readonly interval: "day" | "week" | "month"
  /** IANA time zone the days are cut in (UTC when the community has none). */
  readonly timeZone: string
}

/** The period label (`YYYY-MM-DD` of the period's first day; weeks start on Monday) of a `timestamptz` column. */
export const periodOf = (sql: SqlClient.SqlClient, column: Fragment | string, range: ReportRange): Fragment =>
  sql`to_char(date_trunc(${range.interval}, ${
    typeof column === "string" ? sql.unsafe(column) : column
  } AT TIME ZONE ${range.timeZone}), 'YYYY-MM-DD')`

/** `column` falls within the range's days, in its time zone (an index on the column serves it). */
export const inPeriods = (sql: SqlClient.SqlClient, column: Fragment | string, range: ReportRange): Fragment => {
  const col = typeof column === "string" ? sql.unsafe(column) : column
  return sql`${col} >= (${range.from}::date::timestamp AT TIME ZONE ${range.timeZone})
    AND ${col} < ((${range.to}::date + 1)::timestamp AT TIME ZONE ${range.timeZone})`
}

/** The instant each period ends (exclusive), for "as of the end of the period" series. */
export const periodEnds = (sql: SqlClient.SqlClient, range: ReportRange): Fragment =>
  sql`SELECT to_char(p, 'YYYY-MM-DD') AS period,
      least((p + ('1 ' || ${range.interval})::interval), (${range.to}::date + 1)::timestamp)
        AT TIME ZONE ${range.timeZone} AS ends_at
    FROM generate_series(date_trunc(${range.interval}, ${range.from}::date::timestamp),
      ${range.to}::date::timestamp, ('1 ' || ${range.interval})::interval) AS p`
