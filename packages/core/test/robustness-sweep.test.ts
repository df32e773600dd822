import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  exampleBody,
  excerptOf,
  LONG,
  type Operation,
  operationsOf,
  pathParameterValues,
  plausible,
  propertyVariants,
  queryValues,
  type Schema,
  serverFault,
  wholeBodies
} from "../../../scripts/sweep/variants.mjs"
import { hasLoneSurrogateEscape } from "../src/app/requestGate"
import { uniqueTag } from "./support/envelope"
import { client, confirmEmail, type Reply, startRoda, uniqueEmail } from "./support/harness"
import { platformAdmin } from "./support/selling"
import { seedOf, type Seeds, seedSweep } from "./support/sweepSeeds"

/**
 * "Nothing a client sends may produce a 5xx", checked on every operation of the OpenAPI document Roda
 * serves: malformed variants are derived from each operation's own parameters and body schema, so the
 * sweep follows the routes as they change. Every answer must be below 500, and an /api error that comes
 * back as JSON must be the error envelope (`success: false`).
 */

// ---------------------------------------------------------------------------------------------------
// Probes and their classification (checked on their own by the negative control below)

interface Probe {
  /** `METHOD /documented/{path}` of the operation. */
  readonly operation: string
  readonly method: string
  /** The path actually called, query string included. */
  readonly path: string
  readonly variant: string
  readonly anonymous: boolean
  /** Sent with real resources in the path (the second pass). */
  readonly seeded?: boolean
  /** Sent by the platform operator (the third pass, on the operators' routes). */
  readonly operator?: boolean
  readonly raw?: string
  readonly contentType?: string
}

interface Finding {
  readonly probe: Probe
  readonly status: number
  readonly reason: string
  readonly excerpt: string
}

/** A finding when the answer breaks the rule: a 5xx, or an /api error in JSON without the envelope. */
const classify = (probe: Probe, reply: Pick<Reply, "status" | "body">): Finding | undefined => {
  const reason = serverFault(probe.path, reply.status, reply.body)
  return reason === undefined ? undefined : { probe, status: reply.status, reason, excerpt: excerptOf(reply.body) }
}

/** One line naming what was sent and what came back. */
const describeFinding = ({ excerpt, probe, reason, status }: Finding) =>
  `${probe.method} ${probe.path.slice(0, 200)} [${probe.variant}]${probe.anonymous ? " (anonymous)" : ""}${
    probe.seeded ? " (real resources)" : ""
  }${probe.operator ? " (platform operator)" : ""} -> ${status} ${reason}: ${excerpt}`

const expectNoFindings = (findings: ReadonlyArray<Finding>) =>
  expect(findings.length, `requests answered against the rule:\n${findings.map(describeFinding).join("\n")}\n`).toBe(0)

// ---------------------------------------------------------------------------------------------------
// Deriving variants from the document

/**
 * Every probe of one operation. Path parameters are a random UUID (or the first value of an enum); with
 * `seeds`, they name real resources instead and only the query and body variants are sent, so that the
 * variants the schema lets through reach the handlers' own rules.
 */
const probesOf = (operation: Operation, seeds?: Seeds): ReadonlyArray<Probe> => {
  const base = {
    operation: `${operation.method} ${operation.path}`,
    method: operation.method,
    anonymous: false,
    ...(seeds === undefined ? {} : { seeded: true })
  }
  const pathParameters = operation.parameters.filter((p) => p.in === "path")
  const queryParameters = operation.parameters.filter((p) => p.in === "query")
  const fill = (override: { name: string; value: string } | undefined) =>
    operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      if (override?.name === name) return override.value
      const schema = pathParameters.find((p) => p.name === name)?.schema ?? {}
      return encodeURIComponent(String(seedOf(seeds, operation.path, name) ?? schema.enum?.[0] ?? randomUUID()))
    })
  const requiredQuery = queryParameters.filter((p) => p.required).map((p) =>
    `${encodeURIComponent(p.name)}=${encodeURIComponent(String(plausible(p.schema ?? {})))}`
  )
  const withQuery = (path: string, extra: ReadonlyArray<string> = []) => {
    const parts = [...requiredQuery, ...extra]
    return parts.length === 0 ? path : `${path}?${parts.join("&")}`
  }
  const path = withQuery(fill(undefined))
  const probes: Array<Probe> = []
  const takesBody = operation.method !== "GET" && operation.method !== "HEAD"

  for (const parameter of seeds === undefined ? pathParameters : []) {
    for (const [label, value] of pathParameterValues) {
      probes.push({
        ...base,
        path: withQuery(fill({ name: parameter.name, value: value() })),
        variant: `path ${parameter.name}: ${label}`
      })
    }
  }
  for (const parameter of queryParameters) {
    const others = requiredQuery.filter((pair) => !pair.startsWith(`${encodeURIComponent(parameter.name)}=`))
    for (const [label, values] of queryValues) {
      const pairs = values.map((value) => `${encodeURIComponent(parameter.name)}=${value}`)
      probes.push({
        ...base,
        path: `${fill(undefined)}?${[...others, ...pairs].join("&")}`,
        variant: `query ${parameter.name}: ${label}`
      })
    }
  }

  const body = operation.body
  if (body !== undefined && body.contentType !== "application/json") {
    // Form and upload bodies: empty, junk of that type, and JSON under the wrong content type.
    probes.push(
      { ...base, path, variant: `empty ${body.contentType} body`, raw: "", contentType: body.contentType },
      { ...base, path, variant: `junk ${body.contentType} body`, raw: "a=%ZZ&&=&b", contentType: body.contentType },
      { ...base, path, variant: "JSON body with the wrong content type", raw: "{\"a\":1}" }
    )
    for (const name of Object.keys(body.schema.properties ?? {})) {
      probes.push({
        ...base,
        path,
        variant: `form ${name}: 100000-char value`,
        raw: `${encodeURIComponent(name)}=${LONG(100_000)}`,
        contentType: body.contentType
      })
    }
  } else if (body !== undefined) {
    for (const [label, raw] of wholeBodies) {
      probes.push(raw === undefined ? { ...base, path, variant: label } : { ...base, path, variant: label, raw })
    }
    const properties = (body.schema.properties ?? {}) as Record<string, Schema>
    const example = exampleBody(body)
    for (const [name, schema] of Object.entries(properties)) {
      for (const [label, value] of propertyVariants(schema)) {
        probes.push({
          ...base,
          path,
          variant: `body ${name}: ${label}`,
          raw: JSON.stringify({ ...example, [name]: value })
        })
      }
    }
    probes.push({
      ...base,
      path,
      variant: "unknown extra property",
      raw: JSON.stringify({ ...example, [`unknown_${uniqueTag()}`]: { a: [1] } })
    })
  } else if (takesBody) {
    probes.push({ ...base, path, variant: "unexpected not-JSON body", raw: "{not json" })
  }
  if (probes.length === 0 || (seeds !== undefined && body === undefined)) {
    probes.push({ ...base, path, variant: "plain call" })
  }
  if (seeds !== undefined) return probes
  // Once anonymously: a wrong path parameter and, where a body is possible, junk in it.
  const anonymousPath = pathParameters.length === 0
    ? path
    : withQuery(fill({ name: pathParameters[0]!.name, value: "not-a-uuid" }))
  probes.push(
    takesBody
      ? { ...base, anonymous: true, path: anonymousPath, variant: "junk body, odd path", raw: "[{\"a\":" }
      : { ...base, anonymous: true, path: anonymousPath, variant: "odd path" }
  )
  return probes
}

// ---------------------------------------------------------------------------------------------------

describe("the sweep's classification", () => {
  it("reports a 5xx with its method, path and variant (negative control)", () => {
    const probe: Probe = {
      operation: "PUT /api/sections/{id}",
      method: "PUT",
      path: "/api/sections/not-a-uuid",
      variant: "body title: null",
      anonymous: false,
      raw: "{\"title\":null}"
    }
    const finding = classify(probe, { status: 500, body: { success: false, message: "Internal Server Error" } })
    expect(finding).toBeDefined()
    expect(describeFinding(finding!)).toBe(
      "PUT /api/sections/not-a-uuid [body title: null] -> 500 server error: " +
        "{\"success\":false,\"message\":\"Internal Server Error\"}"
    )
    expect(() => expectNoFindings([finding!])).toThrow(/PUT \/api\/sections\/not-a-uuid \[body title: null\] -> 500/)
  })

  it("reports an /api error without the envelope, and accepts 4xx envelopes and successes", () => {
    const probe: Probe = {
      operation: "GET /api/feed",
      method: "GET",
      path: "/api/feed?limit=-1",
      variant: "query limit: -1",
      anonymous: true
    }
    expect(classify(probe, { status: 400, body: { error: "bad" } })?.reason).toBe("error without the envelope")
    expect(classify(probe, { status: 400, body: { success: false, message: "x" } })).toBeUndefined()
    expect(classify(probe, { status: 200, body: { success: true, data: [] } })).toBeUndefined()
    expect(classify({ ...probe, path: "/oauth/token" }, { status: 400, body: { error: "invalid_request" } }))
      .toBeUndefined()
    expect(classify(probe, { status: 503, body: "unavailable" })?.reason).toBe("server error")
  })
})

describe("robustness sweep: malformed requests to every documented operation", () => {
  const roda = startRoda()
  const api = client(roda)
  afterAll(() => roda.dispose())

  let doc: Schema
  let owner: { token: string; community: string }
  let seeds: Seeds
  let operatorSeeds: Seeds
  let operator: string
  let account: { fullName: string; email: string; password: string }
  beforeAll(async () => {
    const reply = await api.get("/api/openapi.json")
    expect(reply.status).toBe(200)
    doc = reply.body
    // A password unlike the document's examples, so a well-formed change-password probe cannot lock us out.
    account = { fullName: "Sweep Owner", email: uniqueEmail("sweep"), password: "Sweep-Owner-9x" }
    const registered = await api.post("/api/auth/register", account)
    expect(registered.status).toBe(201)
    await confirmEmail(api, account.email)
    const created = await api.post("/api/communities", { name: `Sweep ${uniqueTag()}` }, {
      token: registered.body.data.token
    })
    expect(created.status).toBe(201)
    owner = { token: registered.body.data.token, community: created.body.data.id }
    const seeded = await seedSweep(api, { ...owner, ...account, profileId: created.body.data.profileId })
    seeds = seeded.seeds
    operatorSeeds = seeded.operatorSeeds
    operator = await platformAdmin(api)
  })

  it("answers every malformed request below 500, with the error envelope on /api", async () => {
    const operations = operationsOf(doc)
    expect(operations.length).toBeGreaterThan(250)
    // Second pass, on real resources: every operation but DELETE whose path parameters all name one.
    // Moves that end a resource's life go last, so the other operations meet it alive.
    const ending = (operation: Operation) =>
      /\/(cancel|close|revoke|withdraw|decline|archive|unpublish)$/.test(operation.path) ? 1 : 0
    const onResources = operations.filter((operation) => {
      const names = operation.parameters.filter((p) => p.in === "path").map((p) => p.name)
      return operation.method !== "DELETE" && names.length > 0 &&
        names.every((name) => seedOf(seeds, operation.path, name) !== undefined)
    }).sort((a, b) => ending(a) - ending(b))
    expect(onResources.length).toBeGreaterThan(30)
    // Subscriptions, checkout, purchases, payouts, calls for papers and certificates have a real one each.
    const seededFamilies =
      /^\/api\/(subscriptions|manage\/subscriptions|checkout|manage\/purchases|payouts|call4papers|certificates)\//
    const unseeded = operations.filter((operation) =>
      operation.method !== "DELETE" && seededFamilies.test(operation.path) && operation.path.includes("{") &&
      !onResources.includes(operation)
    )
    expect(unseeded.map((operation) => `${operation.method} ${operation.path}`)).toEqual([])
    // Third pass: the operators' routes as the platform operator, on the sweep's community.
    const forOperators = operations.filter((operation) => operation.path.startsWith("/api/admin/"))
    expect(forOperators.length).toBeGreaterThan(5)
    const asOperator = (probe: Probe): Probe => ({ ...probe, operator: true })
    const firstPass = [
      ...operations.flatMap((operation) => probesOf(operation)),
      ...forOperators.flatMap((operation) => probesOf(operation).filter((probe) => !probe.anonymous).map(asOperator))
    ]
    const onResourcesPass = [
      ...onResources.flatMap((operation) => probesOf(operation, seeds)),
      ...forOperators.flatMap((operation) => probesOf(operation, operatorSeeds).map(asOperator))
    ]
    // Nothing skipped: every operation gets at least one probe as the owner and one anonymously.
    for (const operation of operations) {
      const name = `${operation.method} ${operation.path}`
      const probes = firstPass.filter((p) => p.operation === name)
      expect(probes.filter((p) => !p.anonymous).length, name).toBeGreaterThan(0)
      expect(probes.filter((p) => p.anonymous).length, name).toBe(1)
    }

    const findings: Array<Finding> = []
    const byClass = new Map<string, number>()
    /** The first pass's answers, by caller, operation and variant. */
    const firstAnswers = new Map<string, number>()
    const twin = (probe: Probe) => `${probe.operator ? "operator" : "owner"} ${probe.operation} [${probe.variant}]`
    let sent = 0
    const started = performance.now()
    const send = async (probe: Probe) => {
      const reply = await api.call(probe.method, probe.path, {
        ...(probe.raw === undefined ? {} : { raw: probe.raw }),
        ...(probe.contentType === undefined ? {} : { headers: { "content-type": probe.contentType } }),
        ...(probe.anonymous ? {} : probe.operator ? { token: operator } : owner)
      }).catch((error: unknown) => ({ status: 599, body: `the call threw: ${String(error)}`, headers: new Headers() }))
      sent++
      const statusClass = `${String(reply.status)[0]}xx`
      byClass.set(statusClass, (byClass.get(statusClass) ?? 0) + 1)
      if (!probe.anonymous && !probe.seeded) firstAnswers.set(twin(probe), reply.status)
      const finding = classify(probe, reply)
      if (finding !== undefined) findings.push(finding)
    }
    const sendAll = async (probes: ReadonlyArray<Probe>) => {
      for (let i = 0; i < probes.length; i += 8) await Promise.all(probes.slice(i, i + 8).map(send))
    }
    // Probes that may end the owner's or the operator's sessions (sign-outs) go after everything else,
    // so the rest of the sweep keeps its tokens.
    const endsSessions = (probe: Probe) =>
      /^\w+ \/api\/(auth\/(logout|logout-all|sessions)|admin\/accounts\/)/.test(probe.operation)
    await sendAll(firstPass.filter((probe) => !endsSessions(probe)))
    // On real resources, the variants the first pass saw refused as malformed (400) are not sent again:
    // the path parameters were well formed there too, so decoding and every check made before a
    // resource is read answer alike. The plain call and the example with an extra property always go.
    const onReal = onResourcesPass.filter((probe) =>
      probe.variant === "plain call" || probe.variant === "unknown extra property" ||
      firstAnswers.get(twin(probe)) !== 400
    )
    for (const operation of onResources) {
      const name = `${operation.method} ${operation.path}`
      expect(onReal.filter((p) => p.operation === name && !p.operator).length, name).toBeGreaterThan(0)
    }
    await sendAll(onReal)
    await sendAll(firstPass.filter(endsSessions))
    // signed in again for the tests that follow (a sign-out probe may have ended the owner's session)
    const again = await api.post("/api/auth/login", { email: account.email, password: account.password })
    owner = { ...owner, token: again.body.data.token }
    operator = await platformAdmin(api)

    const classes = [...byClass].sort().map(([statusClass, count]) => `${statusClass} ${count}`).join(", ")
    console.log(
      `robustness sweep: ${operations.length} operations (${onResources.length} again on real resources, ` +
        `${forOperators.length} as the platform operator), ${sent} requests ` +
        `(${onResourcesPass.length - onReal.length} on real resources left out, refused as malformed before) in ` +
        `${Math.round(performance.now() - started)} ms (${classes}), ${findings.length} findings`
    )
    expectNoFindings(findings)
  }, 600_000)

  /** The 5xx the sweep found first, each pinned with its answer (all answered 500 before). */
  describe("regressions found by the sweep", () => {
    const scoped = () => owner
    const invalid = (reply: Reply, param: string, location: "body" | "query") => {
      expect({ status: reply.status, success: reply.body?.success }).toEqual({ status: 400, success: false })
      expect(reply.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ param, location })]))
    }

    it("refuses date and instant bounds outside the years 0001 to 9999 with 400 naming the bound", async () => {
      const year0 = await api.get("/api/ledger/entries?from=0000-01-01", scoped())
      invalid(year0, "from", "query")
      expect(year0.body.errors[0].msg).toBe("must fall within the years 0001 to 9999")
      const unreal = await api.get("/api/ledger/entries?from=2030-02-31", scoped())
      invalid(unreal, "from", "query")
      expect(unreal.body.errors[0].msg).toMatch(/^must be an ISO 8601 date/)
      invalid(await api.get("/api/ledger/entries?to=0000-01-01T00:00:00Z", scoped()), "to", "query")
      invalid(await api.get("/api/manage/purchases?from=9999-12-31T23:00:00-05:00", scoped()), "from", "query")
      invalid(await api.get("/api/manage/purchases/export.csv?to=0000-01-01", scoped()), "to", "query")
      invalid(await api.get("/api/emails/stats?from=0000-01-01", scoped()), "from", "query")
      invalid(await api.get("/api/reports/sales?from=0000-01-01", scoped()), "from", "query")
      // The default end (29 days on) or start (29 days back) would leave the years: the bound given is named.
      invalid(await api.get("/api/reports/sales?from=9999-12-31", scoped()), "from", "query")
      invalid(await api.get("/api/reports/members?to=0001-01-10", scoped()), "to", "query")
      invalid(await api.get("/api/admin/audit?since=0000-01-01", { token: operator }), "since", "query")
    })

    it("takes 9999-12-31 as a `to` date: up to the end of the years it can store", async () => {
      for (
        const path of [
          "/api/ledger/entries?to=9999-12-31",
          "/api/manage/purchases?to=9999-12-31",
          "/api/emails/stats?to=9999-12-31",
          "/api/reports/sales?from=9999-12-02&to=9999-12-31"
        ]
      ) {
        const reply = await api.get(path, scoped())
        expect({ path, status: reply.status }).toEqual({ path, status: 200 })
      }
    })

    it("refuses event, coupon and subscription instants PostgreSQL cannot store", async () => {
      const event = `/api/events/${seeds["events:id"]}`
      invalid(await api.put(event, { startTime: "0000-01-01T00:00:00Z" }, scoped()), "startTime", "body")
      invalid(await api.put(event, { endTime: "9999-12-31T23:00:00-05:00" }, scoped()), "endTime", "body")
      invalid(
        await api.post("/api/coupons", {
          code: `Y${uniqueTag()}`,
          percentOff: 10,
          expiresAt: "9999-12-31T23:00:00-05:00"
        }, scoped()),
        "expiresAt",
        "body"
      )
      const subscription = {
        profileId: crypto.randomUUID(),
        productId: crypto.randomUUID(),
        kind: "courtesy",
        periodEnd: "2030-01-01T00:00:00Z"
      }
      invalid(
        await api.post("/api/manage/subscriptions", { ...subscription, startsAt: "0000-01-01T00:00:00Z" }, scoped()),
        "startsAt",
        "body"
      )
      invalid(
        await api.post("/api/manage/subscriptions", {
          ...subscription,
          periodEnd: "9999-12-31T23:00:00-05:00"
        }, scoped()),
        "periodEnd",
        "body"
      )
      invalid(
        await api.post(`/api/subscriptions/${crypto.randomUUID()}/pause`, {
          resumeAt: "9999-12-31T23:00:00-05:00"
        }, scoped()),
        "resumeAt",
        "body"
      )
    })

    it("refuses a multipart body with 415 on every route (the platform's parser answered 500)", async () => {
      const refused = [["POST", "/api/sections"], ["PUT", `/api/sections/${seeds["sections:id"]}`]] as const
      for (const [method, path] of refused) {
        const reply = await api.call(method, path, {
          raw: "{\"title\":\"x\"}",
          headers: { "content-type": "multipart/form-data; boundary=x" },
          ...scoped()
        })
        expect({ status: reply.status, success: reply.body?.success }).toEqual({ status: 415, success: false })
        expect(reply.body.errors).toEqual([expect.objectContaining({ param: "Content-Type", location: "headers" })])
      }
      const anonymous = await api.call("POST", "/api/auth/login", {
        raw: "--x\r\nContent-Disposition: form-data; name=\"email\"\r\n\r\na\r\n--x--\r\n",
        headers: { "content-type": "multipart/form-data; boundary=x" }
      })
      expect(anonymous.status).toBe(415)
    })

    it("refuses unpaired surrogate escapes in JSON bodies, and keeps paired ones", async () => {
      const settings = `/api/communities/${owner.community}/settings`
      const refused = await api.call("PATCH", settings, { raw: "{\"description\":\"a\\ud800b\"}", ...scoped() })
      invalid(refused, "body", "body")
      expect(refused.body.message).toBe("Request body is not valid Unicode")
      invalid(await api.call("PATCH", settings, { raw: "{\"timezone\":\"\\udc00\"}", ...scoped() }), "body", "body")
      invalid(
        await api.call("POST", "/oauth/register", {
          raw: "{\"redirect_uris\":[\"https://app.example.com/cb\"],\"client_name\":\"\\ud83d\"}"
        }),
        "body",
        "body"
      )
      const kept = await api.call("PATCH", settings, { raw: "{\"description\":\"ok \\ud83d\\ude00\"}", ...scoped() })
      expect(kept.status).toBe(200)
      expect(kept.body.data.settings.description).toBe("ok \u{1F600}")
    })
  })
})

describe("hasLoneSurrogateEscape", () => {
  it.each([
    ["a lone high surrogate", "{\"a\":\"\\ud800\"}", true],
    ["a lone low surrogate", "{\"a\":\"\\uDC00x\"}", true],
    ["a high surrogate before another escape", "{\"a\":\"\\ud800\\u0041\"}", true],
    ["a high surrogate at the end", "\\uD83D", true],
    ["a pair", "{\"a\":\"\\ud83d\\ude00\"}", false],
    ["an escaped backslash before u", "{\"a\":\"\\\\ud800\"}", false],
    ["ordinary escapes", "{\"a\":\"\\n\\u00e9\\\"\"}", false]
  ])("%s", (_, text, expected) => {
    expect(hasLoneSurrogateEscape(text)).toBe(expected)
  })
})
