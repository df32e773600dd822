import { type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, type Schema, type SchemaAST as AST } from "effect"
import type { Language } from "../../domain/Text"
import { requestLanguage } from "../Reply"

/**
 * Why a schema is not plain (its encoded form differs from its type, or encoding checks more than
 * the type says), or undefined when it is plain: structs, arrays, records, unions and tuples of
 * strings, numbers, booleans, null and literals.
 */
export const notPlain = (ast: AST.AST, seen = new Set<AST.AST>()): string | undefined => {
  if (seen.has(ast)) return undefined
  seen.add(ast)
  switch (ast._tag) {
    case "StringKeyword":
    case "NumberKeyword":
    case "BooleanKeyword":
    case "Literal":
      return undefined
    case "TypeLiteral":
      for (const property of ast.propertySignatures) {
        const why = notPlain(property.type, seen)
        if (why !== undefined) return `${String(property.name)}: ${why}`
      }
      for (const index of ast.indexSignatures) {
        const why = notPlain(index.type, seen)
        if (why !== undefined) return `[key]: ${why}`
      }
      return undefined
    case "Union":
      for (const member of ast.types) {
        const why = notPlain(member, seen)
        if (why !== undefined) return why
      }
      return undefined
    case "TupleType":
      for (const element of [...ast.elements.map((e) => e.type), ...ast.rest.map((r) => r.type)]) {
        const why = notPlain(element, seen)
        if (why !== undefined) return why
      }
      return undefined
    default:
      return `a ${ast._tag} (${String(ast)})`
  }
}

const requirePlain = (schema: Schema.Schema.Any) => {
  const why = notPlain(schema.ast)
  if (why !== undefined) throw new Error(`plainJson: the schema is not plain at ${why}`)
}

/**
 * Answers a handler's value as JSON without the success schema's encoding pass, for hot routes whose
 * success schema is plain (see `notPlain`, checked when the route is defined): there the pass only
 * re-checks what the compiler already did and copies every object, ~4% of a feed page's CPU. The
 * value must be built field by field (an object spread could carry fields the schema does not
 * name, which encoding would have dropped); a test of the route compares its answer with the
 * schema's encoding of it.
 */
export const plainJson = <S extends Schema.Schema.Any>(schema: S, options?: { readonly status?: number }) => {
  requirePlain(schema)
  const init = { status: options?.status ?? 200 }
  return <A extends Schema.Schema.Encoded<S>, E, R>(
    body: Effect.Effect<A, E, R>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R> =>
    Effect.map(body, (value) => HttpServerResponse.unsafeJson(value, init))
}

/** Where a constant handler (`constantPlainJson`) keeps its answers, for `constantRoute.ts`. */
export const ConstantAnswer: unique symbol = Symbol.for("@roda/core/http/ConstantAnswer")

/**
 * A handler whose answer depends on nothing but the request's language: the answer in each
 * language, made once, is also readable without running the handler (`handler[ConstantAnswer]`).
 */
export interface ConstantHandler {
  (): Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>
  readonly [ConstantAnswer]: (language: Language) => HttpServerResponse.HttpServerResponse
}

/**
 * `plainJson` for an answer that depends on nothing but the request's language (a catalogue): a
 * handler that makes it once per language, then answers the same immutable response again.
 */
export const constantPlainJson = <S extends Schema.Schema.Any>(
  schema: S,
  answer: (language: Language) => Schema.Schema.Encoded<S>
): ConstantHandler => {
  requirePlain(schema)
  const made = new Map<Language, HttpServerResponse.HttpServerResponse>()
  const answerIn = (language: Language) => {
    let response = made.get(language)
    if (response === undefined) {
      response = HttpServerResponse.unsafeJson(answer(language))
      made.set(language, response)
    }
    return response
  }
  const effect = Effect.map(requestLanguage, answerIn)
  return Object.assign(() => effect, { [ConstantAnswer]: answerIn })
}

/** The answers of a handler made by `constantPlainJson`, if it is one. */
export const constantAnswerOf = (handler: unknown): ConstantHandler[typeof ConstantAnswer] | undefined =>
  typeof handler === "function" && ConstantAnswer in handler ? (handler as ConstantHandler)[ConstantAnswer] : undefined
