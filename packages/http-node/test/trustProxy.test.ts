import { defaultOptions, secret, type TrustProxySetting } from "@roda/core"
import { Effect, Exit, Scope } from "effect"
import { randomBytes, randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { testDatabase } from "../../core/test/support/harness"
import { serve } from "../src/server"

/**
 * Issue 51 item 2: the client behind a proxy, through the Node server's sockets (every request here
 * comes from 127.0.0.1), on the run's database. Sign-in allows 30 failures per client address.
 */
interface Server {
  readonly base: string
  readonly lines: () => Array<Record<string, unknown>>
}

const scope = Effect.runSync(Scope.make())

const start = async (trustProxy?: TrustProxySetting): Promise<Server> => {
  const logged: Array<string> = []
  const { port } = await Effect.runPromise(
    serve({
      port: 0,
      host: "127.0.0.1",
      database: testDatabase(),
      options: defaultOptions({ jwtSecret: secret("a-test-secret-that-is-long-enough-123"), trustProxy }),
      log: { format: "json", level: "info" }
    }, { logSink: (chunk) => logged.push(chunk) }).pipe(Scope.extend(scope))
  )
  return {
    base: `http://127.0.0.1:${port}`,
    lines: () => logged.join("").split("\n").filter(Boolean).map((line) => JSON.parse(line))
  }
}

let untrusting: Server
let behindOneProxy: Server

beforeAll(async () => {
  untrusting = await start()
  behindOneProxy = await start("loopback")
})

afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

/** A documentation address (198.51.100.0/24, 2001:db8::/32) no other test uses. */
const someClient = () =>
  Math.random() < 0.5
    ? `198.51.100.${randomBytes(1)[0]!}`
    : `2001:db8::${[randomBytes(2), randomBytes(2)].map((group) => group.readUInt16BE(0).toString(16)).join(":")}`

const post = async (server: Server, path: string, body: unknown, headers: Record<string, string> = {}) => {
  const requestId = randomUUID()
  const reply = await fetch(`${server.base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-request-id": requestId, ...headers },
    body: JSON.stringify(body)
  })
  await reply.arrayBuffer()
  return { status: reply.status, requestId }
}

const register = async (server: Server) => {
  const email = `proxy-${randomUUID().slice(0, 8)}@roda.test`
  expect((await post(server, "/api/auth/register", { fullName: "Pia Proxy", email, password: "Secret123" })).status)
    .toBe(201)
  return email
}

/** 30 failed sign-ins (unknown e-mails, so no account's own limit is reached), each with `headers(i)`. */
const failThirtyTimes = async (server: Server, headers: (i: number) => Record<string, string>) => {
  for (let i = 0; i < 30; i++) {
    const reply = await post(server, "/api/auth/login", {
      email: `nobody-${randomUUID().slice(0, 8)}@roda.test`,
      password: "Wrong1234"
    }, headers(i))
    expect(reply.status).toBe(401)
  }
}

const loggedClient = (server: Server, requestId: string) =>
  server.lines().find((line) => line.requestId === requestId)?.clientAddress

describe("TRUST_PROXY unset: the socket's address is the client", () => {
  it("30 failures with a different spoofed X-Forwarded-For or Forwarded each are throttled as one address", async () => {
    const email = await register(untrusting)
    await failThirtyTimes(
      untrusting,
      (i) => i % 2 === 0 ? { "x-forwarded-for": someClient() } : { forwarded: `for="[${someClient()}]"` }
    )
    const refused = await post(untrusting, "/api/auth/login", { email, password: "Secret123" }, {
      "x-forwarded-for": someClient()
    })
    expect(refused.status).toBe(429)
    await new Promise((resolve) => setImmediate(resolve))
    expect(loggedClient(untrusting, refused.requestId)).toBe("127.0.0.1")
  })
})

describe("TRUST_PROXY=loopback: one trusted hop in front", () => {
  it("30 failures of one client leave every other client's sign-in working", async () => {
    const email = await register(behindOneProxy)
    const attacker = someClient()
    await failThirtyTimes(behindOneProxy, () => ({ "x-forwarded-for": `${someClient()}, ${attacker}` }))
    const refused = await post(behindOneProxy, "/api/auth/login", { email, password: "Secret123" }, {
      "x-forwarded-for": attacker
    })
    expect(refused.status).toBe(429)
    const other = someClient()
    const allowed = await post(behindOneProxy, "/api/auth/login", { email, password: "Secret123" }, {
      "x-forwarded-for": other
    })
    expect(allowed.status).toBe(200)
    const forwarded = await post(behindOneProxy, "/api/auth/login", { email, password: "Secret123" }, {
      forwarded: `for=${attacker.includes(":") ? `"[${attacker}]:4711"` : attacker};proto=https`
    })
    expect(forwarded.status).toBe(429)
    await new Promise((resolve) => setImmediate(resolve))
    expect(loggedClient(behindOneProxy, refused.requestId)).toBe(attacker)
    expect(loggedClient(behindOneProxy, allowed.requestId)).toBe(other)
  })

  it("a request that names no client is its proxy's", async () => {
    const reply = await post(behindOneProxy, "/api/auth/login", { email: "x@roda.test", password: "Wrong1234" }, {
      "x-forwarded-for": "unknown"
    })
    // 429 once the first test has used up 127.0.0.1's failures (on PostgreSQL both servers share them).
    expect([401, 429]).toContain(reply.status)
    await new Promise((resolve) => setImmediate(resolve))
    expect(loggedClient(behindOneProxy, reply.requestId)).toBe("127.0.0.1")
  })
})
