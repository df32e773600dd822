// Malformed variants derived from the OpenAPI document Roda serves, shared by the in-process
// robustness sweep (packages/core/test/robustness-sweep.test.ts) and the black-box sweep
// (scripts/sweep.mjs): each operation's own parameters and body schema say what to break, so both
// follow the routes as they change.
import { randomUUID } from "node:crypto"

export const HUGE_INTEGER = "99999999999999999999999999"
export const LONG = (n) => "a".repeat(n)

/** Ten hex characters no other call of the run uses (unique names, addresses). */
export const uniqueTag = () => randomUUID().replace(/-/g, "").slice(0, 10)

export const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value)

/** Every operation of the document, with its parameters and its (first) request body resolved. */
export const operationsOf = (doc) => {
  const resolve = (schema) => {
    let current = schema ?? {}
    while (typeof current.$ref === "string") {
      current = current.$ref.split("/").slice(1).reduce((at, key) => at?.[key], doc) ?? {}
    }
    return current
  }
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations).filter(([, operation]) => isObject(operation) && "responses" in operation).map((
      [method, operation]
    ) => {
      const content = Object.entries(operation.requestBody?.content ?? {})[0]
      const body = content === undefined ? undefined : (() => {
        const schema = resolve(content[1].schema)
        const properties = Object.fromEntries(
          [schema, ...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].map(resolve).flatMap((
            member
          ) => Object.entries(member.properties ?? {}).map(([k, v]) => [k, resolve(v)]))
        )
        return { contentType: content[0], schema: { ...schema, properties }, example: content[1].example }
      })()
      return {
        method: method.toUpperCase(),
        path,
        description: operation.description ?? "",
        parameters: (operation.parameters ?? []).map((parameter) => ({
          name: parameter.name,
          in: parameter.in,
          required: parameter.required,
          schema: resolve(parameter.schema)
        })),
        ...(body === undefined ? {} : { body })
      }
    })
  )
}

/** The JSON types a schema admits (`type`, or the members of a union). */
export const typesOf = (schema) =>
  new Set(
    [schema, ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap((member) =>
      member.type === undefined ? (member.enum ? [typeof member.enum[0]] : []) : [member.type].flat()
    )
  )

/**
 * The example with addresses of its own: a variant that is still valid (an optional field set to
 * null, say) would otherwise register the document's example account, and the next variant would
 * find its address taken.
 */
export const ownAddresses = (example) =>
  Object.fromEntries(
    Object.entries(example).map(([key, value]) => [
      key,
      typeof value === "string" && /email/i.test(key)
        ? `sweep-${uniqueTag()}@example.com`
        : isObject(value)
        ? ownAddresses(value)
        : value
    ])
  )

/** A plausible value of a schema, for the parts of a request not under test. */
export const plausible = (schema) => {
  if (schema.enum) return schema.enum[0]
  const types = typesOf(schema)
  if (types.has("integer") || types.has("number")) return 1
  if (types.has("boolean")) return true
  if (types.has("array")) return []
  if (types.has("object")) return {}
  if (schema.format === "uuid") return randomUUID()
  return "x".repeat(Math.max(1, schema.minLength ?? 1))
}

/** The operation's example body (or its required properties, plausibly filled), with addresses of its own. */
export const exampleBody = (body) => {
  const properties = body.schema.properties ?? {}
  const required = new Set(body.schema.required ?? [])
  return ownAddresses(
    isObject(body.example)
      ? body.example
      : Object.fromEntries([...required].map((name) => [name, plausible(properties[name] ?? {})]))
  )
}

export const nested = (depth) => depth === 0 ? 1 : { a: nested(depth - 1) }

/** Strings a schema of plain text lets through, for the handlers' own parsing (dates, time zones, text). */
export const oddStrings = [
  ["far-past date", "-271821-04-20T00:00:00.000Z"],
  ["far-future date", "+275760-09-13T00:00:00.000Z"],
  ["year zero", "0000-01-01T00:00:00Z"],
  ["year zero day", "0000-01-01"],
  ["last day of 9999", "9999-12-31"],
  ["year 10000 in UTC", "9999-12-31T23:00:00-05:00"],
  ["unknown time zone", "Mars/Olympus"],
  ["lone surrogate", "\ud800x"],
  ["blank", "   "]
]

/** Unicode a text field may meet: each must be stored as sent or refused with 400, never a 5xx. */
export const unicodeStrings = [
  ["NUL", "a\u0000b"],
  ["right-to-left override", "\u202Egnp.exe"],
  ["combining marks", "e\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301"],
  ["emoji with joiners", "\u{1F469}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}\u{1F3FD}"],
  ["decomposed (NFD)", "Jose\u0301 Conceic\u0327a\u0303o"],
  ["zero-width and BOM", "\u200B\uFEFFx\u200C"],
  ["noncharacters", "\uFFFE\uFFFF\u{10FFFF}"],
  ["control characters", "\u0001\u0007\u001B[31m\u007F"]
]

/** Wrong values for one body property, by name. */
export const propertyVariants = (schema, { unicode = false } = {}) => {
  const types = typesOf(schema)
  const numeric = types.has("integer") || types.has("number")
  const text = types.has("string") && schema.enum === undefined && schema.format === undefined
  return [
    ["wrong type", types.has("string") ? 12345 : numeric ? "12345x" : "text"],
    ["object", { a: 1 }],
    ["array", [{ a: 1 }]],
    ["null", null],
    ["100000-char string", LONG(100_000)],
    ["60 levels deep", nested(59)],
    ...(text ? oddStrings : []),
    ...(text && unicode ? unicodeStrings : []),
    ...(numeric || types.size === 0
      ? [["negative", -1], ["huge", 1e300], ["float", 1.5], ["beyond safe integer", 2 ** 60]]
      : [])
  ]
}

export const pathParameterValues = [
  ["random UUID", () => randomUUID()],
  ["not-a-uuid", () => "not-a-uuid"],
  ["300-char string", () => LONG(300)],
  ["..%2F..", () => "..%2F.."],
  ["huge integer", () => HUGE_INTEGER],
  ["invalid UTF-8", () => "%ED%A0%80"]
]

/** Query values, already percent-encoded. */
export const queryValues = [
  ["string", ["abc"]],
  ["1e309", ["1e309"]],
  ["-1", ["-1"]],
  ["999999999999", ["999999999999"]],
  ["repeated twice", ["1", "2"]],
  ["empty", [""]],
  ["300-char string", [LONG(300)]],
  ["invalid UTF-8", ["%ED%A0%80"]],
  ["malformed escape", ["%ZZ"]],
  ...oddStrings.filter(([label]) => label !== "lone surrogate").map((
    [label, value]
  ) => [label, [encodeURIComponent(value)]])
]

/** Bodies that are not the operation's JSON object. */
export const wholeBodies = [
  ["no body", undefined],
  ["{}", "{}"],
  ["[]", "[]"],
  ["null", "null"],
  ["a JSON string", "\"text\""],
  ["not JSON", "{not json"]
]

/**
 * Why an answer breaks the rule that nothing a client sends produces a 5xx (and that an /api error in
 * JSON carries the envelope), or undefined when it keeps it.
 */
export const serverFault = (path, status, body) => {
  if (status >= 500) return "server error"
  if (path.startsWith("/api/") && status >= 400 && isObject(body) && body.success !== false) {
    return "error without the envelope"
  }
  return undefined
}

/** The first 300 characters of a body, as text. */
export const excerptOf = (body) => (typeof body === "string" ? body : JSON.stringify(body) ?? "").slice(0, 300)

/**
 * A seeded id for a path parameter. Seeds are keyed `<segment>:<parameter>` or, where one segment
 * names several kinds (certificates, templates and batches), `<segment>/<next segment>:<parameter>`;
 * the segments are those of the documented path after `/api` (`/api/certificates/templates/{id}` is
 * `certificates/templates:id`, then `certificates:id`); `*:<parameter>` stands for any path.
 */
export const seedOf = (seeds, path, name) => {
  const segments = path.split("/").filter((segment) => segment !== "")
  const [first, second] = segments[0] === "api" ? segments.slice(1) : segments
  return seeds?.[`${first}/${second}:${name}`] ?? seeds?.[`${first}:${name}`] ?? seeds?.[`*:${name}`]
}
