import { HttpApi } from "@effect/platform"
import { Either, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { effectInternalNames } from "../../src/api/polish"
import { RodaApi } from "../../src/index"
import { client, makeCommunity, startRoda } from "../support/harness"

/** The OpenAPI document served at /api/openapi.json, as its readers and client generators see it. */
const roda = startRoda()
const api = client(roda)
let doc: any

beforeAll(async () => {
  const reply = await api.get("/api/openapi.json")
  expect(reply.status).toBe(200)
  doc = reply.body
})
afterAll(() => roda.dispose())

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]
const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).filter(([method]) => METHODS.includes(method)).map(([method, operation]) => ({
      path,
      method,
      operation
    }))
  )

/** Every endpoint with a JSON body: its operation id, method, path and payload schema. */
const jsonBodies = () => {
  const found: Array<{ id: string; method: string; path: string; schema: Schema.Schema<any, any> }> = []
  HttpApi.reflect(RodaApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, group, payloads }) => {
      const json = payloads.get("application/json")
      if (json && !["GET", "DELETE", "HEAD"].includes(endpoint.method)) {
        found.push({
          id: `${group.identifier}.${endpoint.name}`,
          method: endpoint.method.toLowerCase(),
          path: endpoint.path.replace(/:(\w+)\??/g, "{$1}"),
          schema: Schema.make(json.ast)
        })
      }
    }
  })
  return found
}

const exampleOf = (path: string, method: string) =>
  doc.paths[path]?.[method]?.requestBody?.content?.["application/json"]?.example

describe("the OpenAPI document", () => {
  it("gives every operation a summary and a description, and every tag a description", () => {
    const all = operations()
    expect(all.length).toBeGreaterThanOrEqual(284)
    expect(all.filter(({ operation }) => !operation.summary?.trim()).map(({ method, path }) => `${method} ${path}`))
      .toEqual([])
    expect(all.filter(({ operation }) => !operation.description?.trim()).map(({ method, path }) => `${method} ${path}`))
      .toEqual([])
    const used = new Set(all.flatMap(({ operation }) => operation.tags ?? []))
    const tags = doc.tags as Array<{ name: string; description?: string }>
    expect(tags.filter((tag) => !tag.description?.trim()).map((tag) => tag.name)).toEqual([])
    expect(new Set(tags.map((tag) => tag.name)).size).toBe(tags.length)
    for (const tag of used) expect(tags.map((t) => t.name)).toContain(tag)
  })

  it("has a license and relative servers, so that it holds wherever Roda is mounted", () => {
    expect(doc.info.license).toEqual({ name: "MIT", url: expect.stringMatching(/^https:\/\//) })
    expect(doc.servers.length).toBeGreaterThan(0)
    for (const server of doc.servers) expect(server.url).not.toMatch(/^[a-z]+:\/\//i)
  })

  it("reaches the API through its server when mounted under a prefix", async () => {
    // A host that mounts Roda at /community, stripping the prefix (as Hono's `mount` does).
    const host = (url: string) =>
      url.startsWith("http://host.test/community/")
        ? roda.handler(new Request(url.replace("/community", "")))
        : Promise.resolve(new Response("not the API", { status: 418 }))
    const documentUrl = "http://host.test/community/api/openapi.json"
    expect((await host(documentUrl)).status).toBe(200)
    const server = new URL(doc.servers[0].url, documentUrl).href.replace(/\/$/, "")
    const categories = await host(`${server}/api/events/categories`)
    expect(categories.status).not.toBe(418)
    expect(server).toBe("http://host.test/community")
  })

  it("names no component after Effect's internals and has no dangling reference", () => {
    const names = Object.keys(doc.components.schemas)
    for (const internal of ["Trim", "Issue", "HttpApiDecodeError", "PropertyKey"]) {
      expect(effectInternalNames.has(internal)).toBe(true)
    }
    expect(names.filter((name) => effectInternalNames.has(name))).toEqual([])
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1])
    expect(refs.filter((name) => !names.includes(name!))).toEqual([])
    expect(JSON.stringify(doc).match(/HttpApiDecodeError|"_tag"/g)).toBeNull()
  })

  it("merges paths that differ only by the name of a parameter", () => {
    const shapes = Object.keys(doc.paths).map((path) => path.replace(/\{[^}]+\}/g, "{}"))
    expect(shapes.filter((shape, i) => shapes.indexOf(shape) !== i)).toEqual([])
    expect(doc.paths["/api/courses/{id}"].get.summary).toBe("Get a course by id or slug")
    expect(doc.paths["/api/events/{id}"].get.summary).toBe("Get an event by id or slug")
    expect(doc.paths["/api/coupons/{id}"].get.summary).toBe("Get a coupon by id or code")
  })

  it("shows a request example on every JSON body, and each one decodes with the endpoint's schema", () => {
    const bodies = jsonBodies()
    expect(bodies.length).toBeGreaterThan(100)
    const missing = bodies.filter(({ method, path }) => exampleOf(path, method) === undefined)
    // Gateway webhooks take the gateway's own payload, whatever it is.
    expect(missing.map(({ id }) => id)).toEqual(["checkoutWebhooks.receive"])
    const refused = bodies.flatMap(({ id, method, path, schema }) => {
      const example = exampleOf(path, method)
      if (example === undefined) return []
      const decoded = Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "error" })(example)
      return Either.isLeft(decoded) ? [`${id}: ${decoded.left.message}`] : []
    })
    expect(refused).toEqual([])
  })

  it("shows a response example on every JSON success answer, and each one decodes with the success schema", () => {
    const refused: Array<string> = []
    let shown = 0
    HttpApi.reflect(RodaApi, {
      onGroup: () => {},
      onEndpoint: ({ endpoint, group, successes }) => {
        const operation = doc.paths[endpoint.path.replace(/:(\w+)\??/g, "{$1}")]?.[endpoint.method.toLowerCase()]
        for (const [status, success] of successes) {
          const media = operation?.responses?.[String(status)]?.content?.["application/json"]
          if (success.ast._tag === "None" || media === undefined) continue
          if (media.example === undefined) {
            refused.push(`${group.identifier}.${endpoint.name} ${status}: no example`)
            continue
          }
          shown++
          const decoded = Schema.decodeUnknownEither(Schema.make(success.ast.value))(media.example)
          if (Either.isLeft(decoded)) {
            refused.push(`${group.identifier}.${endpoint.name} ${status}: ${decoded.left.message}`)
          }
        }
      }
    })
    expect(refused).toEqual([])
    expect(shown).toBeGreaterThan(250)
  })

  it("types query parameters as what they are, in words written for people", () => {
    const limits = operations().flatMap(({ operation }) =>
      (operation.parameters ?? []).filter((parameter: any) => parameter.name === "limit")
    )
    expect(limits.length).toBeGreaterThan(40)
    for (const limit of limits) {
      expect(limit.schema).toMatchObject({ type: "integer", minimum: 1, maximum: expect.any(Number) })
      expect(limit.schema.default).toEqual(expect.any(Number))
    }
    // Effect's own words ("a string at most 200 character(s) long", `maxLength(200)`) say nothing the
    // schema's keywords do not; none is left, outside examples.
    const words: Array<string> = []
    const walk = (node: any, key?: string): void => {
      if (key === "example" || key === "examples" || node === null || typeof node !== "object") return
      if (
        typeof node.description === "string" &&
        /^an? (string|number|array) (at|to|between|of|matching)/.test(node.description)
      ) {
        words.push(node.description)
      }
      if (typeof node.title === "string" && /^\w+\(.*\)$/.test(node.title)) words.push(node.title)
      for (const [name, value] of Object.entries(node)) walk(value, name)
    }
    walk(doc)
    expect([...new Set(words)]).toEqual([])
  })

  it("answers every list route's documented query (defaults and examples) without a 400", async () => {
    const { community, owner } = await makeCommunity(api)
    const scoped = { token: owner.token, community: community.id }
    const sent: Array<string> = []
    const refused: Array<string> = []
    for (const { method, operation, path } of operations()) {
      if (method !== "get" || path.includes("{") || !path.startsWith("/api/")) continue
      const query = new URLSearchParams()
      let complete = true
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== "query") continue
        const value = parameter.example ?? parameter.schema?.default ?? parameter.schema?.example ??
          parameter.schema?.enum?.[0]
        if (value !== undefined) query.set(parameter.name, String(value))
        else if (parameter.required) complete = false
      }
      if (!complete || query.size === 0) continue
      const url = `${path}?${query}`
      const reply = await api.get(url, scoped)
      sent.push(url)
      if (reply.status === 400 || reply.status >= 500) {
        refused.push(`${url}: ${reply.status} ${JSON.stringify(reply.body)}`)
      }
    }
    expect(refused).toEqual([])
    expect(sent.length).toBeGreaterThan(20)
  })

  it("answers the examples that need nothing created before with success when sent as they are", async () => {
    const registered = await api.post("/api/auth/register", exampleOf("/api/auth/register", "post"))
    expect(registered.status).toBe(201)
    const login = await api.post("/api/auth/login", exampleOf("/api/auth/login", "post"))
    expect(login.status).toBe(200)
    const token = login.body.data.token as string
    const community = await api.post("/api/communities", exampleOf("/api/communities", "post"), { token })
    expect(community.status).toBe(201)
    const scoped = { token, community: community.body.data.id as string }
    for (const path of ["/api/sections", "/api/status", "/api/products", "/api/coupons"]) {
      const reply = await api.post(path, exampleOf(path, "post"), scoped)
      expect(reply.status, `${path} ${JSON.stringify(reply.body)}`).toBe(201)
    }
    const simulated = await api.post("/api/fees/simulate", exampleOf("/api/fees/simulate", "post"), scoped)
    expect(simulated.status, JSON.stringify(simulated.body)).toBe(200)
  })
})
