/**
 * Effect writes a description and a title for every filter and transformation it knows ("a string at
 * most 200 character(s) long", `maxLength(200)`, "a string to be decoded into a number"). They repeat
 * what the JSON Schema keywords beside them already say (`maxLength`, `minimum`, `pattern`), in words
 * written for Effect's own error messages, not for someone reading the API: the served document drops
 * them, and keeps the descriptions written for people.
 */

type Json = Record<string, unknown>

const effectDescriptions: ReadonlyArray<RegExp> = [
  /^an? (string|number|integer|boolean|bigint|array|object|unknown|Date|UUID)$/,
  /^a non[ -]empty string$/,
  /^an? (lowercase|uppercase|capitalized|uncapitalized|trimmed) string$/,
  /^a string with no leading or trailing whitespace$/,
  /^a string at (most|least) \d+ character\(s\) long$/,
  /^a string at least \d+ character\(s\) and at most \d+ character\(s\) long$/,
  /^a single character$|^a string \d+ character\(s\) long$/,
  /^a string matching the pattern /,
  /^an? (string|number|bigint|record|tuple|boolean|array)[\w ,-]* to be decoded into /,
  /^a string that will be (trimmed|split|converted to [\w ]+)$/,
  /^a (finite|positive|negative|non-negative|non-positive) number$/,
  /^a number (excluding NaN|between .+ and .+|(greater|less) than( or equal to)? .+)$/,
  /^an integer$|^a Universally Unique (Lexicographically Sortable )?Identifier$/,
  /^an array of (at most|at least|exactly) \d+ item\(s\)$/,
  /^an array of at least \d+ item\(s\) and at most \d+ item\(s\)$/,
  /^a valid Date( instance)?$/
]

/** The names Effect gives its filters as titles: `maxLength(200)`, `between(1, 100)`, `int`. */
const effectTitle = /^(unknown|int|finite|trimmed|uuid|nonEmptyString|[a-zA-Z]+\(.*\))$/

export const isEffectDescription = (text: string) => effectDescriptions.some((pattern) => pattern.test(text))

export const isEffectTitle = (text: string) => effectTitle.test(text)

/** Examples are values, not schemas: a title or description inside one is data, and kept. */
const valueKeys = new Set(["example", "examples", "default", "enum", "const"])

/**
 * The document without Effect's default descriptions and filter titles (see above), and without the
 * `$id` Effect gives every `Schema.Unknown` (`/schemas/unknown`, the same id on different schemas,
 * which JSON Schema validators of examples refuse). A response keeps its description (OpenAPI requires
 * one, and Effect's is the only one a non-JSON answer has).
 */
export const withoutEffectWords = <A>(value: A): A => {
  const walk = (node: unknown, isResponse: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, false))
    if (node === null || typeof node !== "object") return node
    const out: Json = {}
    for (const [key, item] of Object.entries(node as Json)) {
      if (!isResponse && key === "description" && typeof item === "string" && isEffectDescription(item)) continue
      if (key === "title" && typeof item === "string" && isEffectTitle(item)) continue
      if (key === "$id" && typeof item === "string" && item.startsWith("/schemas/")) continue
      out[key] = valueKeys.has(key) ? item : key === "responses" ? walkResponses(item) : walk(item, false)
    }
    return out
  }
  const walkResponses = (responses: unknown): unknown =>
    responses === null || typeof responses !== "object" || Array.isArray(responses)
      ? walk(responses, false)
      : Object.fromEntries(
        Object.entries(responses as Json).map(([status, response]) => [status, walk(response, true)])
      )
  return walk(value, false) as A
}
