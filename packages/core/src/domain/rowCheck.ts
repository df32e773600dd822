import { Either, Option, SchemaAST } from "effect"

/**
 * A check that a value already is what a row schema decodes to, compiled once from the schema's AST,
 * for schemas whose decoding changes nothing (no transformation: strings, numbers, booleans,
 * literals, unions, refinements such as the branded ids, `DateFromSelf`, arrays, structs). Such a
 * row decodes to an equal copy of itself without the keys the schema does not declare, so a row
 * that passes is used as it is (`compileRowTrim` drops undeclared keys): no `ParseResult` machinery
 * on the hot path (measured: decoding a course outline with Schema cost ~10% of the route's CPU, half
 * of it in the garbage collector). A row that fails the check goes through Schema, which reports what
 * differs. `undefined` when the schema has a part this does not know.
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
      return (u) => {
        for (const check of checks) if (check(u)) return true
        return false
      }
    }
    case "Refinement": {
      const from = compileRowCheck(ast.from)
      if (from === undefined) return undefined
      return (u) => from(u) && Option.isNone(ast.filter(u, PARSE_OPTIONS, ast))
    }
    case "Declaration": {
      if (SchemaAST.getIdentifierAnnotation(ast).pipe(Option.getOrUndefined) === "DateFromSelf") {
        return (u) => u instanceof Date
      }
      // `Schema.declare(is)` (stored jsonb): its decoder answers synchronously.
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
  return (u) => {
    if (!isObject(u)) return false
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

/**
 * What decoding a row that passed its check gives: the row itself when it has no key the schema does
 * not declare (at any depth), else a copy without those keys (as Schema's decoding drops them).
 */
export const compileRowTrim = (ast: SchemaAST.AST): (value: unknown) => unknown => {
  switch (ast._tag) {
    case "Union": {
      const members = ast.types.map((type) => ({ check: compileRowCheck(type)!, trim: compileRowTrim(type) }))
      return (u) => {
        const member = members.find(({ check }) => check(u))
        return member === undefined ? u : member.trim(u)
      }
    }
    case "Refinement":
      return compileRowTrim(ast.from)
    case "TupleType": {
      const item = compileRowTrim(ast.rest[0]!.type)
      return (u) => {
        const items = u as Array<unknown>
        let copy: Array<unknown> | undefined
        for (let i = 0; i < items.length; i++) {
          const trimmed = item(items[i])
          if (trimmed !== items[i]) (copy ??= items.slice())[i] = trimmed
        }
        return copy ?? items
      }
    }
    case "TypeLiteral": {
      if (ast.indexSignatures.length > 0) return (u) => u
      const fields = ast.propertySignatures.map((property) => property.name as string)
      const names = new Set(fields)
      const nested = ast.propertySignatures.filter((property) => mayHoldStructs(property.type)).map((property) => ({
        name: property.name as string,
        trim: compileRowTrim(property.type)
      }))
      return (u) => {
        const row = u as Record<string, unknown>
        let extra = false
        for (const key in row) {
          if (!names.has(key)) {
            extra = true
            break
          }
        }
        let trimmed: Record<string, unknown> | undefined
        for (const { name, trim } of nested) {
          if (!(name in row)) continue
          const value = trim(row[name])
          if (value !== row[name]) (trimmed ??= {})[name] = value
        }
        if (!extra && trimmed === undefined) return row
        const copy: Record<string, unknown> = {}
        for (const name of fields) {
          if (name in row) copy[name] = trimmed !== undefined && name in trimmed ? trimmed[name] : row[name]
        }
        return copy
      }
    }
    default:
      return (u) => u
  }
}

/** Whether values of `ast` may hold a struct (whose undeclared keys are dropped). */
const mayHoldStructs = (ast: SchemaAST.AST): boolean => {
  switch (ast._tag) {
    case "TypeLiteral":
      return ast.indexSignatures.length === 0
    case "TupleType":
      return ast.rest.some((rest) => mayHoldStructs(rest.type))
    case "Union":
      return ast.types.some(mayHoldStructs)
    case "Refinement":
      return mayHoldStructs(ast.from)
    default:
      return false
  }
}
