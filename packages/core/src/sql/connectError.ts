import { Redacted } from "effect"

/** `postgres://user@host:port/database`: the target of a connection URL without its password. */
export const redactedTarget = (url: Redacted.Redacted<string>) => {
  const text = Redacted.value(url)
  if (!URL.canParse(text)) return "(a DATABASE_URL that is not a URL)"
  const parsed = new URL(text)
  parsed.password = ""
  parsed.search = ""
  return parsed.toString()
}

interface PgFailure {
  readonly code?: string
  readonly message?: string
  readonly errors?: ReadonlyArray<PgFailure>
}

/** Why a connection failed, in words: refused, unknown host, unknown database, authentication. */
export const connectCause = (cause: unknown): string => {
  const failure = (cause ?? {}) as PgFailure
  const code = failure.code ?? failure.errors?.[0]?.code
  switch (code) {
    case "ECONNREFUSED":
      return "connection refused (is PostgreSQL running and listening there?)"
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "unknown host"
    case "ETIMEDOUT":
      return "connection timed out"
    case "3D000":
      return `unknown database (${failure.message ?? "it does not exist"})`
    case "28P01":
    case "28000":
      return `authentication failed (${failure.message ?? "wrong user or password"})`
    default:
      return failure.message || String(code ?? cause)
  }
}

/** The one line a failed connection is reported with. */
export const connectFailure = (url: Redacted.Redacted<string>, cause: unknown) =>
  `cannot connect to PostgreSQL at ${redactedTarget(url)}: ${connectCause(cause)}`
