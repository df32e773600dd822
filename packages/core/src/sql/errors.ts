import { SqlError } from "@effect/sql/SqlError"

/** The constraint a unique violation (SQLSTATE 23505) was raised for, if this is one. */
export const uniqueViolation = (error: unknown): string | undefined => {
  if (!(error instanceof SqlError)) return undefined
  const cause = error.cause as { code?: unknown; constraint?: unknown; message?: unknown } | undefined
  if (cause?.code !== "23505") return undefined
  if (typeof cause.constraint === "string") return cause.constraint
  const match = typeof cause.message === "string" ? /"([^"]+)"/.exec(cause.message) : null
  return match?.[1] ?? ""
}

/** Whether this is a foreign-key violation (SQLSTATE 23503): a row is still referenced. */
export const foreignKeyViolation = (error: unknown): boolean =>
  error instanceof SqlError && (error.cause as { code?: unknown } | undefined)?.code === "23503"

const lostConnectionCodes = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTCONN",
  "57P01", // admin_shutdown: the backend was terminated (pg_terminate_backend)
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "53300" // too_many_connections
])

const lostConnectionMessage =
  /connection terminated|connection error|failed to acquire connection|failed to connect|connection timed out|timeout exceeded when trying to connect|client has encountered a connection error|client was closed|not queryable|connection ended|terminating connection|econnreset|epipe|socket hang up/i

/**
 * Whether `error` (or an error it wraps) says the database connection was lost or could not be
 * had: network errors, a terminated backend (SQLSTATE 57P01…57P03), connection exceptions (class
 * 08), pool failures. Such a request may be retried: the answer is 503, never 500.
 */
export const isConnectionLoss = (error: unknown): boolean => {
  const seen = new Set<unknown>()
  let current: unknown = error
  while (typeof current === "object" && current !== null && !seen.has(current)) {
    seen.add(current)
    const { code, message } = current as { code?: unknown; message?: unknown }
    if (typeof code === "string" && (lostConnectionCodes.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true
    if (typeof message === "string" && lostConnectionMessage.test(message)) return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}

/** Whether `error` is a SqlError caused by a lost database connection. */
export const lostConnection = (error: unknown): boolean => error instanceof SqlError && isConnectionLoss(error)

/**
 * Whether `error` is a SqlError of a statement PostgreSQL cancelled (SQLSTATE 57014, query_canceled:
 * `statement_timeout`): the transaction rolled back, so the answer is 503 and the client may retry.
 */
export const statementCancelled = (error: unknown): boolean =>
  error instanceof SqlError && (error.cause as { code?: unknown } | undefined)?.code === "57014"
