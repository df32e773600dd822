/**
 * The bounds of a `from`/`to` filter that takes a date (`2026-11-24`, a whole UTC day) or an
 * instant (ISO 8601 with an offset). Both ends are inclusive for the caller; the upper bound
 * returned is exclusive, for `created_at < until`.
 *
 * Instants are handed to PostgreSQL as ISO text, whose `timestamptz` input takes the years 0001 to
 * 9999 only (`0000-…` and `+010000-…` are errors): an instant a client sends must fall in them
 * (`isStorable`), else 400; an exclusive end past them is capped at the last storable millisecond.
 */
const DAY_MS = 24 * 60 * 60 * 1000
const dateOnly = /^\d{4}-\d{2}-\d{2}$/
const dateOrInstant = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/

const FIRST_MS = new Date("0001-01-01T00:00:00.000Z").getTime()
const LAST_MS = new Date("9999-12-31T23:59:59.999Z").getTime()

/** A valid date whose UTC year is 0001 to 9999 (what PostgreSQL's `timestamptz` reads back). */
export const isStorable = (date: Date) => {
  const ms = date.getTime()
  return !Number.isNaN(ms) && ms >= FIRST_MS && ms <= LAST_MS
}

/** The first moment of a date, or the instant itself. */
export const rangeStart = (value: string) => new Date(dateOnly.test(value) ? `${value}T00:00:00Z` : value)

/** Just after the last moment of a date, or just after the instant (at most the last storable millisecond). */
export const rangeEnd = (value: string) =>
  new Date(Math.min(
    LAST_MS,
    dateOnly.test(value) ? new Date(`${value}T00:00:00Z`).getTime() + DAY_MS : new Date(value).getTime() + 1
  ))

/** Whether `YYYY-MM-DD` is a day of the calendar (JavaScript reads 2030-02-31 as 2030-03-03). */
const isCalendarDay = (day: string) => {
  const date = new Date(`${day}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day
}

/** A date alone (`YYYY-MM-DD`) that is a day of the calendar in the years 0001 to 9999 (PostgreSQL reads no year 0000). */
export const isStorableDay = (value: string) => dateOnly.test(value) && value >= "0001-01-01" && isCalendarDay(value)

const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/

/**
 * An instant as RFC 3339 writes one (a date, a time, an offset), naming a real day and hour in the
 * years 0001 to 9999 UTC: JavaScript reads `2030-02-30T10:00:00Z` as March 2 and `T24:00` as the next
 * day, which would store a date the client never sent.
 */
export const isInstant = (value: string) =>
  isoInstant.test(value) && isCalendarDay(value.slice(0, 10)) && Number(value.slice(11, 13)) <= 23 &&
  isStorable(new Date(value))

/** Whether a value reads as a `from`/`to` bound: a calendar date, or an instant with an offset (any year). */
export const readsAsRangeBound = (value: string) =>
  dateOrInstant.test(value) && isCalendarDay(value.slice(0, 10)) && !Number.isNaN(rangeStart(value).getTime())

/** A `from`/`to` bound as the filters take it: a date or an instant with an offset, in the years 0001 to 9999 (UTC). */
export const isRangeBound = (value: string) => readsAsRangeBound(value) && isStorable(rangeStart(value))
