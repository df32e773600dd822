import { Schema } from "effect"
import { isStrongPassword } from "../platform/passwordStrength"
import { isInstant, isRangeBound, readsAsRangeBound } from "./DateRange"

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * A string of at most `max` characters as sent, then trimmed: the bound is checked before any other
 * work and is the `maxLength` OpenAPI shows (a bound checked after `Trim` is invisible there).
 * `message` is the field's own, so a long value reads as any other invalid one.
 */
export const Trimmed = (max: number, message = `must be at most ${max} characters`) =>
  Schema.compose(Schema.String.pipe(Schema.maxLength(max, { message: () => message })), Schema.Trim)

/**
 * The same address however it was typed: trimmed, Unicode NFC (so look-alike spellings are one
 * address), lower case. The one rule for e-mails: the `Email` schema decodes with it, and lookups of
 * addresses that were not decoded by it (sign-in, the CLI, operator lists) apply it too. Migration
 * 0039 wrote it in SQL for the addresses stored before it.
 */
export const normalEmail = (email: string): string => email.trim().normalize("NFC").toLowerCase()

/** An e-mail address as `normalEmail` writes it; at most 254 characters as sent. */
export const Email = Schema.compose(
  Trimmed(254, "must be a valid e-mail address"),
  Schema.transform(Schema.String, Schema.String, { strict: true, decode: normalEmail, encode: (value) => value })
).pipe(
  Schema.filter((value) => (emailPattern.test(value) && value.length <= 254) || "must be a valid e-mail address"),
  Schema.annotations({ identifier: "Email", format: "email" })
)

/** Spec §5.6: at least 8 characters with an uppercase letter, a lowercase letter and a number. */
const PASSWORD_RULE =
  "Password must be at least 8 characters long and contain an uppercase letter, a lowercase letter and a number"
export const NewPassword = Schema.String.pipe(
  Schema.maxLength(200, { message: () => PASSWORD_RULE }),
  Schema.filter((value) => (isStrongPassword(value) && value.length <= 200) || PASSWORD_RULE),
  Schema.annotations({ identifier: "NewPassword" })
)

/** A required human-readable name or title, trimmed. */
export const Name = (max = 200) =>
  Trimmed(max, `must be between 1 and ${max} characters`).pipe(
    Schema.filter((value) => (value.length >= 1 && value.length <= max) || `must be between 1 and ${max} characters`)
  )

export const Slug = Trimmed(80, "must be lower-case letters, digits and single hyphens (at most 80 characters)").pipe(
  Schema.filter((value) =>
    /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value) && value.length <= 80 ||
    "must be lower-case letters, digits and single hyphens (at most 80 characters)"
  )
)

export const Hostname = Schema.compose(Trimmed(253, "must be a valid domain name"), Schema.Lowercase).pipe(
  Schema.filter((value) =>
    (/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(value)) || "must be a valid domain name"
  )
)

/** URL-safe slug made from a name: accents removed, lower case, hyphens. */
export const slugify = (value: string): string =>
  value
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/g, "")

/**
 * A request body: every invalid field is reported, not only the first, and a field the route does not
 * declare is refused (400, `errors[].param` = its path, nested objects included) instead of being dropped.
 */
export const Body = <Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.Struct(fields).annotations({ parseOptions: { errors: "all", onExcessProperty: "error" } })

const hasControl = (value: string) => {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if (code < 0x20 || code === 0x7f) return true
  }
  return false
}

export const HttpUrl = Trimmed(2000, "must be an http(s) URL").pipe(
  // no white space or control character: a URL is written into headers, e-mails and calendar files as it is
  Schema.filter((value) =>
    /^https?:\/\/\S+$/.test(value) && !hasControl(value) && value.length <= 2000 || "must be an http(s) URL"
  )
)

const isTimeZone = (value: string) => {
  try {
    new Intl.DateTimeFormat("en", { timeZone: value })
    return true
  } catch {
    return false
  }
}

/** An IANA time zone name such as `America/Sao_Paulo` (what PostgreSQL's `AT TIME ZONE` reads too). */
export const TimeZone = Trimmed(64, "must be an IANA time zone such as America/Sao_Paulo").pipe(
  Schema.filter((value) =>
    (value.length <= 64 && isTimeZone(value)) || "must be an IANA time zone such as America/Sao_Paulo"
  )
)

export const HexColor = Schema.String.pipe(
  Schema.maxLength(7, { message: () => "must be a color like #1a2b3c" }),
  Schema.pattern(/^#[0-9a-fA-F]{6}$/, { message: () => "must be a color like #1a2b3c" })
)

/**
 * An instant: ISO 8601 with a date, a time and an offset (`Z` or `±hh:mm`), in the years 0001 to
 * 9999 UTC (what PostgreSQL's `timestamptz` takes; another year would fail in the database).
 */
export const Instant = Trimmed(40, "must be an ISO 8601 date-time with an offset, e.g. 2030-05-01T19:00:00Z").pipe(
  Schema.filter((value) =>
    isInstant(value) ||
    "must be an ISO 8601 date-time with an offset, e.g. 2030-05-01T19:00:00Z"
  ),
  Schema.annotations({ format: "date-time" })
)

/**
 * A `from`/`to` query bound: a date (`2030-05-01`, a whole UTC day) or an instant with an offset,
 * in the years 0001 to 9999 (UTC); `DateRange` turns it into the bounds of a filter.
 */
export const DateOrInstant = Trimmed(
  40,
  "must be an ISO 8601 date (2030-05-01) or date-time with an offset (2030-05-01T19:00:00Z)"
).pipe(
  Schema.filter((value) =>
    !readsAsRangeBound(value)
      ? "must be an ISO 8601 date (2030-05-01) or date-time with an offset (2030-05-01T19:00:00Z)"
      : isRangeBound(value) || "must fall within the years 0001 to 9999"
  )
)
