// Requests of the black-box sweep, built from an operation of the OpenAPI document and the seeded
// world: its paths filled with one community's ids, its bodies with that community's resources, and
// the malformed variants of each part.
import { randomUUID } from "node:crypto"
import {
  exampleBody,
  isObject,
  LONG,
  pathParameterValues,
  plausible,
  propertyVariants,
  queryValues,
  seedOf,
  uniqueTag,
  wholeBodies
} from "./variants.mjs"

export const operationName = (operation) => `${operation.method} ${operation.path}`
export const isRead = (operation) => operation.method === "GET" || operation.method === "HEAD"

/** Moves that end a resource's life go after the others, removals after them, the community's last. */
export const lifeOrder = (operation) =>
  operation.method === "DELETE"
    ? (operation.path === "/api/communities/{id}" ? 3 : 2)
    : /\/(cancel|close|revoke|withdraw|decline|archive|unpublish)$/.test(operation.path)
    ? 1
    : 0

const pathNames = (operation) => operation.parameters.filter((p) => p.in === "path").map((p) => p.name)

/** Whether every path parameter of the operation names a seeded resource. */
export const fullySeeded = (operation, seeds) =>
  pathNames(operation).every((name) => seedOf(seeds, operation.path, name) !== undefined)

/** The path with `seeds`' ids (else the enum's first value, else a random UUID); `override` wins. */
export const fillPath = (operation, seeds, override) =>
  operation.path.replace(/\{([^}]+)\}/g, (_, name) => {
    if (override?.name === name) return override.value
    const schema = operation.parameters.find((p) => p.in === "path" && p.name === name)?.schema ?? {}
    return encodeURIComponent(String(seedOf(seeds, operation.path, name) ?? schema.enum?.[0] ?? randomUUID()))
  })

/** Query pairs: required parameters plausibly filled, and those naming a seeded kind (`*:name`) with its id. */
export const queryPairs = (operation, seeds, except) =>
  operation.parameters.filter((p) => p.in === "query" && p.name !== except).flatMap((p) => {
    const seeded = seeds[`*:${p.name}`]
    if (seeded !== undefined) return [`${encodeURIComponent(p.name)}=${encodeURIComponent(seeded)}`]
    return p.required ? [`${encodeURIComponent(p.name)}=${encodeURIComponent(String(plausible(p.schema ?? {})))}`] : []
  })

export const withQuery = (path, pairs) => pairs.length === 0 ? path : `${path}?${pairs.join("&")}`

/** The example body with every property that names a seeded kind (`spaceId`, …) set to `seeds`' id. */
export const seededBody = (operation, seeds) => {
  if (operation.body === undefined || operation.body.contentType !== "application/json") return undefined
  const example = exampleBody(operation.body)
  const fill = (value) =>
    isObject(value)
      ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, seeds[`*:${key}`] ?? fill(inner)]))
      : value
  return fill(example)
}

/** The well-formed request of an operation in the world of `seeds` (its other parts as the example). */
export const plainProbe = (operation, seeds) => {
  const json = seededBody(operation, seeds)
  return {
    operation: operationName(operation),
    method: operation.method,
    path: withQuery(fillPath(operation, seeds), queryPairs(operation, seeds)),
    ...(json === undefined ? {} : { json }),
    ...(operation.body !== undefined && json === undefined ? { raw: "", contentType: operation.body.contentType } : {})
  }
}

const base64url = (text) => Buffer.from(text).toString("base64url")

/** Cursors a client could forge: junk, other shapes of key, another community's rows. */
export const forgedCursors = (other) => [
  ["cursor: not base64", "!!!not-base64***"],
  ["cursor: base64 of junk", base64url("junk")],
  ["cursor: base64 of {}", base64url("{}")],
  ["cursor: key of the other community", base64url(JSON.stringify(["2030-01-01T00:00:00.000Z", [...other.ids][0]]))],
  ["cursor: numbers out of range", base64url(JSON.stringify([1e308, -1e308, 2 ** 60]))],
  ["cursor: year zero", base64url(JSON.stringify(["0000-01-01T00:00:00Z", randomUUID()]))],
  ["cursor: SQL in the key", base64url(JSON.stringify(["'; select pg_sleep(5); --", "' or 1=1 --"]))],
  ["cursor: 10000 elements", base64url(JSON.stringify(Array.from({ length: 10_000 }, () => 1)))],
  ["cursor: nested", base64url(JSON.stringify([[[[[[[[[["x"]]]]]]]]]]))],
  ["cursor: NUL and lone surrogate", base64url("[\"\\u0000\",\"\\ud800\"]")]
]

/** Forged JWT: `alg: none`, claims anyone could write. */
const forgedToken = (claims) =>
  `${base64url(JSON.stringify({ alg: "none", typ: "JWT" }))}.${base64url(JSON.stringify(claims))}.`

/** Headers that name the caller's place wrongly (the caller's token is kept unless the variant replaces it). */
export const headerVariants = (own, other) => [
  ["X-CommunityId: not a uuid", { "x-communityid": "not-a-uuid" }],
  ["X-CommunityId: uuid of nothing", { "x-communityid": randomUUID() }],
  ["X-CommunityId: empty", { "x-communityid": "" }],
  ["X-CommunityId: 300 chars", { "x-communityid": LONG(300) }],
  ["X-CommunityId: two values", { "x-communityid": `${own.community}, ${other.community}` }],
  ["X-CommunityId: the other community", { "x-communityid": other.community }],
  ["X-ProfileId: not a uuid", { "x-profileid": "not-a-uuid" }],
  ["X-ProfileId: uuid of nothing", { "x-profileid": randomUUID() }],
  ["X-ProfileId: the other community's owner", { "x-profileid": other.callers.owner.profileId }],
  ["Authorization: junk bearer", { authorization: "Bearer junk.junk.junk" }],
  ["Authorization: alg none", {
    authorization: `Bearer ${forgedToken({ sub: randomUUID(), exp: 4102444800, isPlatformAdmin: true })}`
  }],
  ["Authorization: Basic", { authorization: "Basic YWRtaW46YWRtaW4=" }]
]

/**
 * Every malformed variant of an operation, sent by `own`'s owner on `own`'s resources: each as
 * `{ variant, build }`, built only when sampled (the large bodies cost the client more than sending).
 */
export const malformedProbes = (operation, own, other) => {
  const plain = plainProbe(operation, own.seeds)
  const probes = []
  const add = (variant, changes) =>
    probes.push({
      variant,
      build: () => ({ ...plain, variant, ...(typeof changes === "function" ? changes() : changes) })
    })
  const pathOnly = fillPath(operation, own.seeds)
  const takesBody = !isRead(operation)
  const reach = operation.method === "DELETE" ? (name) => ({ name, value: randomUUID() }) : () => undefined

  for (const name of pathNames(operation)) {
    for (const [label, value] of pathParameterValues) {
      const path = fillPath(operation, own.seeds, { name, value: value() })
      add(`path ${name}: ${label}`, { path: withQuery(path, queryPairs(operation, own.seeds)) })
    }
  }
  // A removal is sent on a random id: its own parameters, body and headers still reach every check.
  const target = pathNames(operation)[0] === undefined
    ? pathOnly
    : fillPath(operation, own.seeds, reach(pathNames(operation)[0]))
  for (const parameter of operation.parameters.filter((p) => p.in === "query")) {
    const others = queryPairs(operation, own.seeds, parameter.name)
    const values = [
      ...queryValues,
      ...(parameter.name === "cursor" ? forgedCursors(other).map(([l, v]) => [l, [encodeURIComponent(v)]]) : [])
    ]
    for (const [label, encoded] of values) {
      const pairs = encoded.map((value) => `${encodeURIComponent(parameter.name)}=${value}`)
      add(`query ${parameter.name}: ${label}`, { path: withQuery(target, [...others, ...pairs]) })
    }
  }
  const path = withQuery(target, queryPairs(operation, own.seeds))
  for (const [label, headers] of headerVariants(own, other)) add(label, { path, headers })

  const body = operation.body
  const without = { json: undefined, raw: undefined, contentType: undefined }
  if (body !== undefined && body.contentType !== "application/json") {
    add(`empty ${body.contentType} body`, { ...without, path, raw: "", contentType: body.contentType })
    add(`junk ${body.contentType} body`, { ...without, path, raw: "a=%ZZ&&=&b", contentType: body.contentType })
    add("JSON under the wrong content type", { ...without, path, raw: "{\"a\":1}" })
    for (const name of Object.keys(body.schema.properties ?? {})) {
      const raw = () => `${encodeURIComponent(name)}=${LONG(100_000)}`
      add(`form ${name}: 100000-char value`, () => ({ ...without, path, raw: raw(), contentType: body.contentType }))
    }
  } else if (body !== undefined) {
    const example = plain.json ?? {}
    for (const [label, raw] of wholeBodies) add(label, { ...without, path, ...(raw === undefined ? {} : { raw }) })
    add("JSON as text/plain", { ...without, path, raw: JSON.stringify(example), contentType: "text/plain" })
    add("JSON as a form", {
      ...without,
      path,
      raw: JSON.stringify(example),
      contentType: "application/x-www-form-urlencoded"
    })
    add("JSON as multipart", {
      ...without,
      path,
      raw: JSON.stringify(example),
      contentType: "multipart/form-data; boundary=x"
    })
    add("JSON with a BOM", { ...without, path, raw: `\uFEFF${JSON.stringify(example)}` })
    add("1 MB of JSON", () => ({ ...without, path, raw: JSON.stringify({ ...example, pad: LONG(1_000_000) }) }))
    add("duplicate keys", { ...without, path, raw: `{"a":1,"a":{"b":2},${JSON.stringify(example).slice(1)}` })
    for (const [name, schema] of Object.entries(body.schema.properties ?? {})) {
      for (const [label, value] of propertyVariants(schema, { unicode: true })) {
        add(`body ${name}: ${label}`, () => ({ ...without, path, raw: JSON.stringify({ ...example, [name]: value }) }))
      }
    }
    add("unknown extra property", {
      ...without,
      path,
      raw: JSON.stringify({ ...example, [`unknown_${uniqueTag()}`]: [1] })
    })
  } else if (takesBody) {
    add("unexpected not-JSON body", { ...without, path, raw: "{not json" })
  }
  return probes
}
