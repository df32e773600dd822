/**
 * timestamptz columns as PostgreSQL writes them (DateStyle ISO), parsed without regular expressions:
 * `YYYY-MM-DD HH:MM:SS[.fraction]±HH[:MM[:SS]]`. node-postgres's parser (postgres-date) runs three
 * regular expressions a value; a course detail reads ~70 dates, a feed page ~60, and the parse was
 * ~4% of their Node CPU. Anything else (years before 1000 or after 9999, BC, infinity) goes to
 * `fallback`, which gives the same Date for what both read (test/unit/timestamps.test.ts).
 */
export const timestamptzParser = <A>(fallback: (text: string) => A) => (text: string): Date | A =>
  isoTimestamptz(text) ?? fallback(text)

const DASH = 45
const SPACE = 32
const COLON = 58
const DOT = 46
const PLUS = 43

/** The digit at `i`, or NaN (which every sum it enters then carries). */
const digit = (text: string, i: number): number => {
  const d = text.charCodeAt(i) - 48
  return d >= 0 && d <= 9 ? d : NaN
}
const twoDigits = (text: string, i: number) => digit(text, i) * 10 + digit(text, i + 1)

/** The Date, or undefined when `text` is not in the common form. */
export const isoTimestamptz = (text: string): Date | undefined => {
  const length = text.length
  if (
    length < 22 || text.charCodeAt(4) !== DASH || text.charCodeAt(7) !== DASH || text.charCodeAt(10) !== SPACE ||
    text.charCodeAt(13) !== COLON || text.charCodeAt(16) !== COLON
  ) return undefined
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2)
  // Date.UTC reads years 0-99 as 1900-1999: those (and NaN) are the fallback's.
  if (!(year >= 1000)) return undefined
  let i = 19
  let ms = 0
  if (text.charCodeAt(i) === DOT) {
    i++
    let places = 0
    for (let d = digit(text, i); !Number.isNaN(d); d = digit(text, ++i)) {
      if (places < 3) ms = ms * 10 + d
      places++
    }
    if (places === 0) return undefined
    for (; places < 3; places++) ms *= 10
  }
  const sign = text.charCodeAt(i)
  if (sign !== PLUS && sign !== DASH) return undefined
  let offset = twoDigits(text, i + 1) * 3600
  i += 3
  if (i < length) {
    if (text.charCodeAt(i) !== COLON) return undefined
    offset += twoDigits(text, i + 1) * 60
    i += 3
    if (i < length) {
      if (text.charCodeAt(i) !== COLON) return undefined
      offset += twoDigits(text, i + 1)
      i += 3
    }
  }
  if (i !== length) return undefined
  const utc = Date.UTC(
    year,
    twoDigits(text, 5) - 1,
    twoDigits(text, 8),
    twoDigits(text, 11),
    twoDigits(text, 14),
    twoDigits(text, 17),
    ms
  )
  const time = utc - (sign === PLUS ? offset : -offset) * 1000
  return Number.isNaN(time) ? undefined : new Date(time)
}
