import { HttpApi } from "@effect/platform"
import { Option, Schema, SchemaAST } from "effect"
import { mergeErrorResponses } from "./errorResponses"
import { exampleOf } from "./examples"
import { withoutEffectWords } from "./peopleWords"
import { requestExamples } from "./requestExamples"

type Json = Record<string, unknown>
type Operation = Json & { requestBody?: { content?: Record<string, Json> }; responses?: Record<string, Json> }
type Spec = Json & { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Json> } }

/** Effect's own schema names, which say nothing to a client: their content is inlined where used. */
export const effectInternalNames: ReadonlySet<string> = new Set([
  "HttpApiDecodeError",
  "Issue",
  "PropertyKey",
  ...Object.values(Schema).flatMap((value) =>
    Schema.isSchema(value)
      ? [value.ast, ...("from" in value.ast ? [value.ast.from as typeof value.ast] : [])].flatMap((ast) =>
        Option.toArray(SchemaAST.getIdentifierAnnotation(ast))
      )
      : []
  )
])

const DECODE_ERROR_REF = "#/components/schemas/HttpApiDecodeError"
const DECODE_ERROR_DESCRIPTION = "The request did not match the expected schema"

/** Walks a JSON value, letting `visit` replace any object (its result is walked no further). */
const rewrite = (value: unknown, visit: (node: Json) => unknown): unknown => {
  if (Array.isArray(value)) return value.map((item) => rewrite(item, visit))
  if (value === null || typeof value !== "object") return value
  const replaced = visit(value as Json)
  if (replaced !== value) return replaced
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rewrite(item, visit)]))
}

/**
 * Every 400 answers the error envelope (the envelope middleware turns schema failures into it), so
 * Effect's `HttpApiDecodeError` is dropped from the responses, or replaced by the envelope (`AppError`).
 */
const dropDecodeError = (node: Json): unknown => {
  if (node.$ref === DECODE_ERROR_REF) return { $ref: "#/components/schemas/AppError" }
  const anyOf = node.anyOf
  if (!Array.isArray(anyOf) || !anyOf.some((item) => (item as Json).$ref === DECODE_ERROR_REF)) return node
  const rest = anyOf.filter((item) => (item as Json).$ref !== DECODE_ERROR_REF)
  const { anyOf: _, ...others } = node
  return rest.length === 1 ? { ...others, ...(rest[0] as Json) } : { ...others, anyOf: rest }
}

const refsIn = (value: unknown, found = new Set<string>()): Set<string> => {
  rewrite(value, (node) => {
    if (typeof node.$ref === "string") found.add(node.$ref.replace("#/components/schemas/", ""))
    return node
  })
  return found
}

/** Inlines Effect-named components and drops the components nothing refers to any more. */
const cleanComponents = (spec: Spec): Spec => {
  const schemas = spec.components.schemas
  const inline = (node: Json): unknown => {
    if (typeof node.$ref !== "string") return node
    const name = node.$ref.replace("#/components/schemas/", "")
    return effectInternalNames.has(name) && schemas[name] ? rewrite(schemas[name], inline) : node
  }
  const paths = rewrite(spec.paths, inline) as Spec["paths"]
  const kept = Object.fromEntries(
    Object.entries(schemas).filter(([name]) => !effectInternalNames.has(name)).map((
      [name, schema]
    ) => [name, rewrite(schema, inline) as Json])
  )
  // Only what is still referenced, directly or through another component.
  const used = refsIn(paths)
  let grown = true
  while (grown) {
    const before = used.size
    for (const name of [...used]) refsIn(kept[name], used)
    grown = used.size > before
  }
  const components = Object.fromEntries(
    Object.entries(kept).filter(([name]) => used.has(name)).map((
      [name, schema]
    ) => [name, withFormat(name, schema)])
  )
  return { ...spec, paths, components: { ...spec.components, schemas: components } }
}

/** Ids are UUIDs and `Email` an address: the schemas check it with filters JSON Schema cannot show. */
const withFormat = (name: string, schema: Json): Json =>
  schema.type !== "string" || schema.format !== undefined
    ? schema
    : name === "Uuid" || name.endsWith("Id")
    ? { ...schema, format: "uuid" }
    : name === "Email"
    ? { ...schema, format: "email" }
    : schema

const fixResponses = (spec: Spec): Spec => {
  for (const operations of Object.values(spec.paths)) {
    for (const operation of Object.values(operations)) {
      const bad = operation.responses?.["400"]
      if (bad && bad.description === DECODE_ERROR_DESCRIPTION) {
        bad.description = "The input is not valid: `errors[]` names each field (`param`) and where it was (`location`)."
      }
    }
  }
  return { ...spec, paths: rewrite(spec.paths, dropDecodeError) as Spec["paths"] }
}

/**
 * A request example on every JSON body, made from the endpoint's payload schema, and a response
 * example on every JSON success answer, made from its success schema (see `examples.ts`).
 */
const addExamples = (api: HttpApi.HttpApi.Any, spec: Spec): Spec => {
  HttpApi.reflect(api as HttpApi.HttpApi.AnyWithProps, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, group, payloads, successes }) => {
      const path = endpoint.path.replace(/:(\w+)\??/g, "{$1}")
      const operation = spec.paths[path]?.[endpoint.method.toLowerCase()]
      const json = payloads.get("application/json")
      const media = operation?.requestBody?.content?.["application/json"]
      if (json && media && media.example === undefined) {
        const written = requestExamples[`${group.identifier}.${endpoint.name}`]
        const value = written === undefined ? exampleOf(Schema.make(json.ast)) : Option.some(written)
        if (Option.isSome(value)) media.example = value.value
      }
      for (const [status, success] of successes) {
        const answer = operation?.responses?.[String(status)] as { content?: Record<string, Json> } | undefined
        const answerMedia = answer?.content?.["application/json"]
        if (Option.isNone(success.ast) || !answerMedia || answerMedia.example !== undefined) continue
        const value = exampleOf(Schema.make(success.ast.value))
        if (Option.isSome(value)) answerMedia.example = value.value
      }
    }
  })
  return spec
}

/** Groups that share a title share one tag: keep it once, with the first description given. */
const uniqueTags = (spec: Spec): Spec => {
  const tags = new Map<string, Json>()
  for (const tag of (spec.tags ?? []) as Array<Json>) {
    const seen = tags.get(tag.name as string)
    if (seen === undefined) tags.set(tag.name as string, tag)
    else if (seen.description === undefined && tag.description !== undefined) seen.description = tag.description
  }
  return { ...spec, tags: [...tags.values()] }
}

/** The served document, made clearer for its readers and linters; see each step. */
export const polishDocument = (api: HttpApi.HttpApi.Any, spec: Spec): Spec =>
  addExamples(api, uniqueTags(withoutEffectWords(cleanComponents(mergeErrorResponses(fixResponses(spec))))))
