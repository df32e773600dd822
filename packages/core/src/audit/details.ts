/** Keys whose values the audit never keeps (compared lower-case, without `-` and `_`). */
const SECRET_KEY =
  /pass(word|phrase)?|token|secret|authorization|apikey|cookie|credential|privatekey|cvv|cvc|cardnumber|pixkey|bankaccount|accountnumber/

const MAX_DEPTH = 8

/**
 * `details` as stored: secret-looking keys dropped (not masked: a secret never reaches the table),
 * NUL characters removed (jsonb cannot hold them), nesting cut at a few levels.
 */
export const storedDetails = (value: unknown, depth = 0): unknown => {
  if (typeof value === "string") return value.replaceAll("\u0000", "")
  if (typeof value === "bigint") return value.toString()
  if (value instanceof Date) return value.toISOString()
  if (depth >= MAX_DEPTH) return null
  if (Array.isArray(value)) return value.map((item) => storedDetails(item, depth + 1))
  if (typeof value !== "object" || value === null) return value ?? null
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, item]) => item !== undefined && !SECRET_KEY.test(key.toLowerCase().replace(/[-_]/g, "")))
      .map(([key, item]) => [key, storedDetails(item, depth + 1)])
  )
}
