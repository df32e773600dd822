/**
 * The bounds of a `from`/`to` filter that takes a date (`2026-11-24`, a whole UTC day) or an
 * instant (ISO 8601 with an offset). Both ends are inclusive for the caller; the upper bound
 * returned is exclusive, for `created_at < until`.
 */
const DAY_MS = 24 * 60 * 60 * 1000
const dateOnly = /^\d{4}-\d{2}-\d{2}$/

/** The first moment of a date, or the instant itself. */
export const rangeStart = (value: string) => new Date(dateOnly.test(value) ? `${value}T00:00:00Z` : value)

/** Just after the last moment of a date, or just after the instant. */
export const rangeEnd = (value: string) =>
  dateOnly.test(value)
    ? new Date(new Date(`${value}T00:00:00Z`).getTime() + DAY_MS)
    : new Date(new Date(value).getTime() + 1)
