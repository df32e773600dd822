import type { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { RodaApi } from "@roda/core"
import { JSONSchema, Option, type Schema, type SchemaAST } from "effect"
import type { ToolSpec } from "./tool"

type Part = "path" | "urlParams" | "payload"
const PARTS: ReadonlyArray<readonly [Part, "pathSchema" | "urlParamsSchema" | "payloadSchema", string]> = [
  ["path", "pathSchema", "params"],
  ["urlParams", "urlParamsSchema", "query"],
  ["payload", "payloadSchema", "body"]
]

const endpointAt = (group: string, name: string, user: string): HttpApiEndpoint.HttpApiEndpoint.AnyWithProps => {
  const endpoint = (RodaApi.groups as unknown as Record<string, HttpApiGroup.HttpApiGroup.AnyWithProps>)[group]
    ?.endpoints[name]
  if (endpoint === undefined) throw new Error(`@roda/mcp: ${user} names no route ${group}.${name}`)
  return endpoint
}

export const endpointOf = (tool: ToolSpec): HttpApiEndpoint.HttpApiEndpoint.AnyWithProps =>
  endpointAt(tool.route[0], tool.route[1], `tool ${tool.name}`)

/** The field names of a struct schema's encoded side (through refinements and transformations). */
const fieldsOf = (ast: SchemaAST.AST): ReadonlyArray<string> | undefined => {
  switch (ast._tag) {
    case "Refinement":
    case "Transformation":
      return fieldsOf(ast.from)
    case "TypeLiteral":
      return ast.propertySignatures.map((property) => String(property.name))
    default:
      return undefined
  }
}

interface JsonObjectSchema {
  $ref?: string
  $defs?: Record<string, JSONSchema.JsonSchema7>
  properties?: Record<string, JSONSchema.JsonSchema7>
  required?: Array<string>
}

const asObject = (schema: Schema.Schema.Any): JsonObjectSchema => {
  const json = JSONSchema.make(schema) as JsonObjectSchema
  const ref = json.$ref?.replace("#/$defs/", "")
  return ref !== undefined && json.$defs?.[ref] ? { ...(json.$defs[ref] as JsonObjectSchema), $defs: json.$defs } : json
}

/** The route's path, query and body fields of a tool, each under the name the tool offers it by. */
export const partsOf = (tool: ToolSpec) => {
  let parts = partsCache.get(tool)
  if (parts === undefined) {
    parts = readParts(tool)
    partsCache.set(tool, parts)
  }
  return parts
}

const readParts = (tool: ToolSpec) => {
  const endpoint = endpointOf(tool)
  const hidden = new Set([...Object.keys(tool.fixed ?? {}), ...(tool.omit ?? [])])
  const parts = PARTS.flatMap(([part, key, location]) =>
    Option.match(endpoint[key] as Option.Option<Schema.Schema.Any>, {
      onNone: () => [],
      onSome: (schema) => {
        const names = fieldsOf(schema.ast)
        if (names === undefined) throw new Error(`@roda/mcp: tool ${tool.name}: the ${part} schema is not an object`)
        const fields = names.map((field) => ({
          field,
          arg: tool.rename?.[part]?.[field] ?? field,
          offered: !hidden.has(field)
        }))
        return [{ part, location, schema, fields }]
      }
    })
  )
  const args = parts.flatMap((part) => part.fields.filter((f) => f.offered).map((f) => f.arg))
  const clash = args.find((arg, index) => args.indexOf(arg) !== index)
  if (clash !== undefined) throw new Error(`@roda/mcp: tool ${tool.name}: two inputs named ${clash} (use rename)`)
  return parts
}

const partsCache = new WeakMap<ToolSpec, ReturnType<typeof readParts>>()

/**
 * The tool's input schema: the route's path, query and body fields side by side, generated from
 * the route's own Effect schemas (their encoded side: what a client sends).
 */
export const inputSchemaOf = (tool: ToolSpec) => {
  const properties: Record<string, JSONSchema.JsonSchema7> = {}
  const required: Array<string> = []
  let defs: Record<string, JSONSchema.JsonSchema7> = {}
  for (const { fields, schema } of partsOf(tool)) {
    const json = asObject(schema)
    defs = { ...defs, ...json.$defs }
    for (const { arg, field, offered } of fields) {
      if (!offered) continue
      const property = json.properties?.[field]
      if (property !== undefined) properties[arg] = property
      if (json.required?.includes(field)) required.push(arg)
    }
  }
  return {
    type: "object" as const,
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {})
  }
}

/**
 * The `data` schema of a route's answer (`Ok(data)`), for a tool whose answer puts several routes'
 * together (the overview). Fails at start-up if the route answers something else.
 */
export const routeDataOf = (group: string, name: string): Schema.Schema.Any => {
  const success = endpointAt(group, name, "a tool").successSchema as {
    readonly fields?: { readonly data?: Schema.Schema.Any }
  }
  const data = success.fields?.data
  if (data === undefined) throw new Error(`@roda/mcp: route ${group}.${name} answers no Ok(data)`)
  return data
}

export const answerSchemaOf = (tool: ToolSpec) =>
  tool.output === undefined ? endpointOf(tool).successSchema : tool.output

/** The route's answer schema (`success`, `message`, `data`, …), as the tool's output schema. */
export const outputSchemaOf = (tool: ToolSpec) => {
  const schema = answerSchemaOf(tool)
  const json = asObject(schema)
  return { type: "object" as const, ...json }
}
