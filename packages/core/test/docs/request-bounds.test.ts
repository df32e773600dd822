import { afterAll, describe, expect, it } from "vitest"
import { client, startRoda } from "../support/harness"

/**
 * Every input has a bound the OpenAPI document shows (issue 52): each string a request carries
 * (path, query, header, JSON body) has `maxLength` (or is an enum, a constant or a UUID), and each
 * array `maxItems`. The JSON-RPC envelope of `/mcp` is described there but read by the MCP server,
 * within the 1 MB body limit.
 */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const unbounded = (doc: any): Array<string> => {
  const resolve = (schema: any): any =>
    schema?.$ref ? resolve(doc.components.schemas[schema.$ref.split("/").pop()]) : schema
  const found: Array<string> = []
  const walk = (raw: any, where: string, seen: Set<unknown>) => {
    const schema = resolve(raw)
    if (schema === undefined || seen.has(schema)) return
    seen.add(schema)
    for (const key of ["anyOf", "oneOf", "allOf"]) for (const inner of schema[key] ?? []) walk(inner, where, seen)
    const bounded = schema.maxLength !== undefined || schema.enum !== undefined || schema.const !== undefined ||
      schema.format === "uuid"
    if (schema.type === "string" && !bounded) found.push(`${where}: a string without maxLength`)
    if (
      where.includes(" query ") && schema.type === "integer" &&
      (schema.minimum === undefined || schema.maximum === undefined)
    ) {
      found.push(`${where}: an integer without minimum and maximum`)
    }
    if (schema.type === "array") {
      if (schema.maxItems === undefined) found.push(`${where}: an array without maxItems`)
      walk(schema.items, `${where}[]`, seen)
    }
    for (const [name, property] of Object.entries(schema.properties ?? {})) walk(property, `${where}.${name}`, seen)
    if (typeof schema.additionalProperties === "object") walk(schema.additionalProperties, `${where}.*`, seen)
  }
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    if (path === "/mcp") continue
    for (const [method, operation] of Object.entries<any>(item)) {
      if (typeof operation !== "object" || operation.responses === undefined) continue
      const at = `${method.toUpperCase()} ${path}`
      for (const parameter of operation.parameters ?? []) {
        walk(parameter.schema, `${at} ${parameter.in} ${parameter.name}`, new Set())
      }
      for (const [type, content] of Object.entries<any>(operation.requestBody?.content ?? {})) {
        walk(content.schema, `${at} body (${type})`, new Set())
      }
    }
  }
  return found
}

describe("bounds of every input in the OpenAPI document", () => {
  it("every request string has maxLength and every request array maxItems", async () => {
    const reply = await api.get("/api/openapi.json")
    expect(reply.status).toBe(200)
    expect(unbounded(reply.body)).toEqual([])
  })

  it("a value longer than its bound is refused as sent, with the field's own message", async () => {
    const long = await api.post("/api/auth/register", {
      fullName: "x".repeat(201),
      email: `${"a".repeat(250)}@roda.test`,
      password: `Aa1${"x".repeat(300)}`
    })
    expect(long.status).toBe(400)
    expect(long.body.errors).toEqual(expect.arrayContaining([
      expect.objectContaining({ param: "fullName", msg: "must be between 1 and 200 characters" }),
      expect.objectContaining({ param: "email", msg: "must be a valid e-mail address" }),
      expect.objectContaining({ param: "password" })
    ]))
  })
})
