import { Clock, Effect } from "effect"
import { invalidField } from "../domain/AppError"
import type { ReportRange } from "../sql/periods"
import { reportMessages as M } from "./messages"

export interface RangeQuery {
  readonly from?: string | undefined
  readonly to?: string | undefined
  readonly interval?: "day" | "week" | "month" | undefined
  readonly timeZone?: string | undefined
}

/** The most periods one series may have (two years of days). */
export const MAX_PERIODS = 731
/** The longest range a report covers, whatever its interval. */
export const MAX_YEARS = 10
const DAY_MS = 24 * 60 * 60 * 1000

const utc = (date: string) => new Date(`${date}T00:00:00Z`)
const label = (date: Date) => date.toISOString().slice(0, 10)
/** A label of the years 0001 to 9999 (`toISOString` writes others as `0000-…`, `-000001-…` or `+010000-…`). */
const withinYears = (date: string) => /^\d{4}-\d{2}-\d{2}$/.test(date) && date >= "0001-01-01"

/** Today's date in the time zone (`YYYY-MM-DD`). */
const today = (timeZone: string) =>
  Effect.map(Clock.currentTimeMillis, (millis) => {
    const parts = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })
      .formatToParts(new Date(millis))
    const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "01"
    return `${part("year")}-${part("month")}-${part("day")}`
  })

/** The first day of the period holding `date` (weeks start on Monday, as PostgreSQL's `date_trunc`). */
const periodStart = (date: Date, interval: ReportRange["interval"]) => {
  if (interval === "day") return date
  if (interval === "month") return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1))
  const weekday = (date.getUTCDay() + 6) % 7
  return new Date(date.getTime() - weekday * DAY_MS)
}

const next = (date: Date, interval: ReportRange["interval"]) =>
  interval === "day"
    ? new Date(date.getTime() + DAY_MS)
    : interval === "week"
    ? new Date(date.getTime() + 7 * DAY_MS)
    : new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1))

/** How many periods the range has, by arithmetic: a range is checked before any period is made. */
export const periodCount = (range: ReportRange): number => {
  const from = utc(range.from)
  const to = utc(range.to)
  if (range.interval === "month") {
    return (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth() + 1
  }
  const step = range.interval === "week" ? 7 * DAY_MS : DAY_MS
  return Math.floor((to.getTime() - periodStart(from, range.interval).getTime()) / step) + 1
}

/** The labels of every period of the range, in order: the series are zero-filled on them. */
export const periodLabels = (range: ReportRange): ReadonlyArray<string> => {
  const labels: Array<string> = []
  const end = utc(range.to)
  for (let at = periodStart(utc(range.from), range.interval); at <= end; at = next(at, range.interval)) {
    labels.push(label(at))
  }
  return labels
}

/** Whether `to` falls before the same day `MAX_YEARS` years after `from`. */
const withinMaxYears = (from: string, to: string) => {
  const start = utc(from)
  const limit = Date.UTC(start.getUTCFullYear() + MAX_YEARS, start.getUTCMonth(), start.getUTCDate())
  return utc(to).getTime() < limit
}

/**
 * The range asked for: `from` and `to` (dates, both included; default the last 30 days up to today
 * in the time zone), `interval` (default `day`), `timeZone` (`Reports` fills in the community's; UTC
 * when none reaches here). Labels are calendar dates of that time zone; the SQL bounds each period by
 * its local midnights (`sql/periods.ts`). 400 with the param when
 * `from` is after `to`, a default end falls outside the years 0001 to 9999, the range spans more than
 * `MAX_YEARS` years, or the series would pass `MAX_PERIODS`. Every check is arithmetic, made before
 * any period is enumerated, so no range costs more than `MAX_PERIODS` steps.
 */
export const rangeOf = (query: RangeQuery) =>
  Effect.gen(function*() {
    const timeZone = query.timeZone ?? "UTC"
    const interval = query.interval ?? "day"
    const to = query.to ??
      (query.from === undefined ? yield* today(timeZone) : label(new Date(utc(query.from).getTime() + 29 * DAY_MS)))
    const from = query.from ?? label(new Date(utc(to).getTime() - 29 * DAY_MS))
    if (utc(from).getTime() > utc(to).getTime()) return yield* Effect.fail(invalidField("to", M.periodOrder, "query"))
    // A default 29 days away from a date near 0001-01-01 or 9999-12-31 leaves the years PostgreSQL
    // reads: the bound given is named (a date given is always within them).
    if (!withinYears(from)) return yield* Effect.fail(invalidField("to", M.outsideYears, "query"))
    if (!withinYears(to)) return yield* Effect.fail(invalidField("from", M.outsideYears, "query"))
    if (!withinMaxYears(from, to)) return yield* Effect.fail(invalidField("from", M.tooLong(MAX_YEARS), "query"))
    const range: ReportRange = { from, to, interval, timeZone }
    if (periodCount(range) > MAX_PERIODS) {
      return yield* Effect.fail(invalidField("from", M.tooManyPeriods(MAX_PERIODS), "query"))
    }
    return { range, labels: periodLabels(range) }
  })

/** Rows of a series placed on every period, with zeros where a period has none. */
export const zeroFilled = <K extends string>(
  labels: ReadonlyArray<string>,
  rows: ReadonlyArray<{ readonly period: string } & { readonly [key in K]: number }>,
  keys: ReadonlyArray<K>
): Array<{ period: string } & Record<K, number>> => {
  const byPeriod = new Map<string, Record<string, number | string>>()
  for (const period of labels) {
    const out: Record<string, number | string> = { period }
    for (const key of keys) out[key] = 0
    byPeriod.set(period, out)
  }
  for (const row of rows) {
    const out = byPeriod.get(row.period)
    if (out === undefined) continue
    for (const key of keys) out[key] = (out[key] as number) + (row as Record<K, number>)[key]
  }
  return [...byPeriod.values()] as Array<{ period: string } & Record<K, number>>
}

/** Each key summed over the series. */
export const totalsOf = <K extends string>(series: ReadonlyArray<Record<K, number>>, keys: ReadonlyArray<K>) => {
  const out: Record<string, number> = {}
  for (const key of keys) out[key] = series.reduce((sum, row) => sum + row[key], 0)
  return out as Record<K, number>
}
