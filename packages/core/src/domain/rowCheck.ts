import { Either, Option, type SchemaAST } from "effect"

/**
 * A check that a value already is what a row schema decodes to, compiled once from the schema's AST,
 * for schemas whose decoding changes nothing (no transformation: strings, numbers, booleans,
 * literals, unions, refinements such as the branded ids, `DateFromSelf`, arrays, structs). Such a
 * row decodes to an equal copy of itself, so a row that passes is used as it is: no allocation, no
 * `ParseResult` machinery on the hot path (measured: decoding a course outline with Schema cost ~10%
 * of the route's CPU, half of it in the garbage collector). A struct with a key it does not declare
 * fails the check (decoding would drop the key), and so does anything else: the caller then decodes
 * with Schema, which drops or reports what differs. `undefined` when the schema has a part this does
 * not know.
 */
export type RowCheck = (value: unknown) => boolean

const PARSE_OPTIONS = {}

export const compileRowCheck = (ast: SchemaAST.AST): RowCheck | undefined => {
  switch (ast._tag) {
    case "StringKeyword":
      return (u) => typeof u === "string"
    case "NumberKeyword":
      return (u) => typeof u === "number"
    case "BooleanKeyword":
      return (u) => typeof u === "boolean"
    case "UndefinedKeyword":
      return (u) => u === undefined
    case "UnknownKeyword":
    case "AnyKeyword":
      return () => true
    case "Literal": {
      const literal = ast.literal
      return (u) => u === literal
    }
    case "Union": {
      const members = ast.types.map(compileRowCheck)
      if (members.some((member) => member === undefined)) return undefined
      const checks = members as Array<RowCheck>
      return (u) => checks.some((check) => check(u))
    }
    case "Refinement": {
      const from = compileRowCheck(ast.from)
      if (from === undefined) return undefined
      return (u) => from(u) && Option.isNone(ast.filter(u, PARSE_OPTIONS, ast))
    }
    case "Declaration": {
      // `Schema.declare(is)` (DateFromSelf, stored jsonb): its decoder answers synchronously.
      const decode = ast.decodeUnknown(...ast.typeParameters)
      return (u) => {
        const result = decode(u, PARSE_OPTIONS, ast)
        return Either.isEither(result) && Either.isRight(result) && result.right === u
      }
    }
    case "TupleType": {
      if (ast.elements.length > 0 || ast.rest.length !== 1) return undefined
      const item = compileRowCheck(ast.rest[0]!.type)
      if (item === undefined) return undefined
      return (u) => Array.isArray(u) && u.every(item)
    }
    case "TypeLiteral":
      return compileStruct(ast)
    default:
      return undefined
  }
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const compileStruct = (ast: SchemaAST.TypeLiteral): RowCheck | undefined => {
  if (ast.indexSignatures.length > 0) {
    // `Schema.Record({ key: Schema.String, value: Schema.Unknown })`: any object
    const [signature] = ast.indexSignatures
    const open = ast.propertySignatures.length === 0 && ast.indexSignatures.length === 1 &&
      signature!.parameter._tag === "StringKeyword" && signature!.type._tag === "UnknownKeyword"
    return open ? isObject : undefined
  }
  const fields: Array<{ name: string; optional: boolean; check: RowCheck }> = []
  for (const property of ast.propertySignatures) {
    const check = compileRowCheck(property.type)
    if (check === undefined || typeof property.name !== "string") return undefined
    fields.push({ name: property.name, optional: property.isOptional, check })
  }
  const names = new Set(fields.map((field) => field.name))
  return (u) => {
    if (!isObject(u)) return false
    for (const key in u) if (!names.has(key)) return false
    for (const field of fields) {
      if (!(field.name in u)) {
        if (field.optional) continue
        return false
      }
      if (!field.check(u[field.name])) return false
    }
    return true
  }
}
