import { Either, Option, Schema, SchemaAST as AST } from "effect"

/**
 * Request examples for the OpenAPI document, made from the payload schemas themselves: each value is
 * tried against the schema it is meant for (filters included), so an example decodes when sent as it is.
 * Field names choose the first candidates (an `email` gets an address, a `…Id` a UUID), then the type.
 */

const UUID = "0192d6a2-7c4b-7def-8a3b-1c2d3e4f5a6b"
const INSTANT = "2026-12-01T19:00:00Z"

const byName: ReadonlyArray<readonly [RegExp, ReadonlyArray<unknown>]> = [
  [/^e-?mail$|Email$/i, ["ana@example.com"]],
  [/password$/i, ["Secret123"]],
  [/^fullName$|^speakerName$/i, ["Ana Souza"]],
  [/^name$/, ["General"]],
  [/^taxId$/, ["52998224725"]],
  [/^pixKey$/, ["ana@example.com"]],
  [/^(id|ids)$|Ids?$/, [UUID]],
  [/^module$/, ["feed", "courses", "events"]],
  [/slug$/i, ["my-community"]],
  [/^domain$|hostname/i, ["community.example.com", "my-community"]],
  [/^(title|subject)$/i, ["Getting started"]],
  [/url$/i, ["https://example.com/image.png"]],
  [/uris?$/i, ["https://app.example.com/callback"]],
  [/^phone$/i, ["+5511999990000"]],
  [/currency$/i, ["BRL"]],
  [/^country$/i, ["BR"]],
  [/^code$|couponCode$/i, ["WELCOME10"]],
  [/^cardToken$/, ["tok_visa"]],
  [/token$/i, ["3f9a8c2e1b7d4a6f9e0c5b2a8d1f7e3c"]],
  [/color$/i, ["#2563eb"]],
  [/^tags?$/i, ["vip"]],
  [/timeZone$/i, ["America/Sao_Paulo"]],
  [/(At|^from|^to|^until|Until)$/, [INSTANT, "2026-12-01"]],
  [/date$|^day$/i, ["2026-12-01"]],
  [/startTime$/i, ["09:00"]],
  [/endTime$/i, ["10:00"]],
  [/reason$/i, ["The document is not legible."]],
  [/^(body|description|bio|abstract|note|comment|content|text|message)$/i, ["A few words about it."]]
]

const strings = [
  "Example",
  UUID,
  "example",
  "ana@example.com",
  "https://example.com",
  INSTANT,
  "2026-12-01",
  "BRL",
  "BR",
  "vip",
  "+5511999990000",
  "12345678909",
  "#2563eb"
]
const numbers = [1, 10, 100, 1000, 0, 5, 12, 30, 2026, 50]

const isValid = (ast: AST.AST, value: unknown) =>
  Either.isRight(Schema.decodeUnknownEither(Schema.make(ast), { onExcessProperty: "error" })(value))

const firstValid = (ast: AST.AST, candidates: ReadonlyArray<unknown>) => candidates.find((c) => isValid(ast, c))

const hinted = (key: string | undefined) =>
  key === undefined ? [] : byName.filter(([pattern]) => pattern.test(key)).flatMap(([, values]) => values)

const NONE = Symbol("none")
type Result = unknown | typeof NONE

const example = (ast: AST.AST, key: string | undefined, depth: number): Result => {
  if (depth > 12) return NONE
  const annotated = Option.getOrUndefined(AST.getExamplesAnnotation(ast))?.[0]
  if (annotated !== undefined && isValid(ast, annotated)) return annotated
  switch (ast._tag) {
    case "Literal":
      return ast.literal
    case "Enums":
      return ast.enums[0]?.[1] ?? NONE
    case "StringKeyword":
      return firstValid(ast, [...hinted(key), ...strings]) ?? NONE
    case "NumberKeyword":
      return numbers[0]
    case "BooleanKeyword":
      return true
    case "Refinement":
    case "Transformation":
    case "Declaration":
      return fromCandidates(ast, key, depth)
    case "Suspend":
      return example(ast.f(), key, depth + 1)
    case "Union": {
      const members = [...ast.types].sort((a, b) => Number(isNull(a)) - Number(isNull(b)))
      for (const member of members) {
        const value = example(member, key, depth + 1)
        if (value !== NONE && isValid(ast, value)) return value
      }
      return NONE
    }
    case "TupleType":
      return tuple(ast, key, depth)
    case "TypeLiteral":
      return struct(ast, depth)
    default:
      return NONE
  }
}

const isNull = (ast: AST.AST) => ast._tag === "Literal" && ast.literal === null

/** A refined or transformed value: what its encoded side gives, else candidates checked against the whole. */
const fromCandidates = (
  ast: AST.Refinement | AST.Transformation | AST.Declaration,
  key: string | undefined,
  depth: number
) => {
  const inner = ast._tag === "Declaration" ? undefined : ast.from
  const base = inner === undefined
    ? NONE
    : inner._tag === "TypeLiteral"
    ? struct(inner, depth + 1, ast)
    : example(inner, key, depth + 1)
  if (base !== NONE && isValid(ast, base)) return base
  const pool = AST.encodedAST(ast)._tag === "NumberKeyword" || isNumeric(ast) ? numbers : [...hinted(key), ...strings]
  return firstValid(ast, pool) ?? NONE
}

const isNumeric = (ast: AST.AST): boolean =>
  ast._tag === "NumberKeyword" ||
  ((ast._tag === "Refinement" || ast._tag === "Transformation") && isNumeric(ast.from))

const tuple = (ast: AST.TupleType, key: string | undefined, depth: number): Result => {
  const singular = key?.endsWith("s") ? key.slice(0, -1) : key
  const items: Array<unknown> = []
  for (const element of ast.elements) {
    const value = example(element.type, singular, depth + 1)
    if (value === NONE) return NONE
    items.push(value)
  }
  const [rest] = ast.rest
  if (rest !== undefined) {
    const value = example(rest.type, singular, depth + 1)
    if (value !== NONE && isValid(ast, [...items, value])) return [...items, value]
  }
  return isValid(ast, items) ? items : NONE
}

/**
 * The required fields; optional ones only while the object is not valid yet (`whole` may be a refinement
 * of it, such as "one of these fields"), the needless ones dropped again.
 */
const struct = (ast: AST.TypeLiteral, depth: number, whole: AST.AST = ast): Result => {
  const value: Record<string, unknown> = {}
  const optional: Array<readonly [string, unknown]> = []
  for (const field of ast.propertySignatures) {
    if (typeof field.name !== "string") continue
    const fieldValue = example(field.type, field.name, depth + 1)
    if (field.isOptional) {
      if (fieldValue !== NONE && fieldValue !== undefined) optional.push([field.name, fieldValue])
    } else {
      if (fieldValue === NONE) return NONE
      value[field.name] = fieldValue
    }
  }
  for (const [name, fieldValue] of optional) {
    if (!isValid(whole, value)) value[name] = fieldValue
  }
  // A partial update with nothing required still shows what it takes.
  if (Object.keys(value).length === 0) {
    for (const [name, fieldValue] of optional.slice(0, 2)) {
      if (isValid(whole, { ...value, [name]: fieldValue })) value[name] = fieldValue
    }
  }
  for (const [name] of optional) {
    if (isValid(whole, value) || !(name in value)) continue
    const { [name]: _, ...without } = value
    if (isValid(whole, without)) delete value[name]
  }
  return value
}

/** An example of the schema's encoded form that the schema decodes, if one is found. */
export const exampleOf = (schema: Schema.Schema.AnyNoContext): Option.Option<unknown> => {
  const value = example(schema.ast, undefined, 0)
  return value !== NONE && isValid(schema.ast, value) ? Option.some(value) : Option.none()
}
