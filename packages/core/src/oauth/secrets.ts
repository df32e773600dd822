import { sha256Hex } from "../platform/bytes"

/** Codes and tokens are stored only as this hash (hex SHA-256). */
export const sha256 = (value: string) => sha256Hex(value)

/**
 * Prefixes of the opaque MCP tokens. They are not JWTs, so the `/api` middleware refuses them (401),
 * and `/api` JWTs are never found among their hashes.
 */
export const ACCESS_PREFIX = "roda_mcp_at_"
export const REFRESH_PREFIX = "roda_mcp_rt_"

export const ACCESS_TOKEN_SECONDS = 3600
export const REFRESH_TOKEN_DAYS = 30
export const CODE_SECONDS = 60
export const REQUEST_MINUTES = 10

/** Argument names whose values the MCP audit never keeps (compared lower-case, without `-` and `_`). */
const SECRET_KEY =
  /pass(word|phrase)?|token|secret|authorization|apikey|cookie|credential|privatekey|cvv|cvc|cardnumber|pixkey/

export const REDACTED = "[redacted]"

/**
 * Text PostgreSQL's jsonb can hold: without NUL characters, unpaired surrogates as U+FFFD (either
 * would fail the insert, and a call whose arguments carry one would go unaudited).
 */
const storable = (text: string) => text.replaceAll("\u0000", "").toWellFormed()

/** A copy of `value` with the values of secret-looking keys replaced by `[redacted]`, at any depth. */
export const redact = (value: unknown, depth = 0): unknown => {
  if (depth > 32) return REDACTED
  if (typeof value === "string") return storable(value)
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1))
  if (typeof value !== "object" || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      storable(key),
      SECRET_KEY.test(key.toLowerCase().replace(/[-_]/g, "")) ? REDACTED : redact(item, depth + 1)
    ])
  )
}

/** Audit rows keep at most this many characters of arguments. */
const MAX_ARGUMENTS = 16_000

/** The JSON text of the redacted arguments, cut to a preview when very large. */
export const auditArguments = (value: unknown): string => {
  const text = JSON.stringify(redact(value ?? null)) ?? "null"
  return text.length <= MAX_ARGUMENTS
    ? text
    : JSON.stringify({ truncated: true, preview: storable(text.slice(0, MAX_ARGUMENTS)) })
}
