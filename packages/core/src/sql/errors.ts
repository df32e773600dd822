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
