import { defaultOptions, secret } from "@roda/core"
import { Effect, Exit, Scope } from "effect"
import { Agent, request as httpRequest } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { serve } from "../src/server"

const scope = Effect.runSync(Scope.make())
let base = ""
const logged: Array<string> = []
const logLines = () => logged.join("").split("\n").filter(Boolean).map((line) => JSON.parse(line))

beforeAll(async () => {
  const { port } = await Effect.runPromise(
    serve({
      port: 0,
      host: "127.0.0.1",
      database: { _tag: "Embedded", dataDir: "memory" },
      options: defaultOptions({ jwtSecret: secret("a-test-secret-that-is-long-enough-123") }),
      log: { format: "json", level: "info" }
    }, { logSink: (chunk) => logged.push(chunk) }).pipe(Scope.extend(scope))
  )
  base = `http://127.0.0.1:${port}`
})

afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

describe("Node server", () => {
  it("answers health and readiness", async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200)
    const ready = await fetch(`${base}/readyz`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: "ready" })
  })

  it("serves the API over real sockets, streaming request bodies", async () => {
    const reply = await fetch(`${base}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ fullName: "Nina Node", email: "nina@roda.test", password: "Secret123" })
    })
    expect(reply.status).toBe(201)
    const body = await reply.json()
    expect(body.success).toBe(true)
    expect(body.data.email).toBe("nina@roda.test")
  })

  it("refuses a body over 1 MB with 413", async () => {
    const reply = await fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "x".repeat(1024 * 1024 + 10), password: "x" })
    })
    expect(reply.status).toBe(413)
    expect((await reply.json()).success).toBe(false)
  })

  it("logs one JSON line per request, with the request id it answers in X-Request-Id", async () => {
    const given = await fetch(`${base}/healthz?probe=1`, { headers: { "x-request-id": "probe-42" } })
    expect(given.headers.get("x-request-id")).toBe("probe-42")
    const made = await fetch(`${base}/api/nothing-here`, { headers: { "x-request-id": "not a plain token" } })
    const madeId = made.headers.get("x-request-id")
    expect(madeId).toMatch(/^[0-9a-f-]{36}$/)
    await new Promise((resolve) => setTimeout(resolve, 20))
    const lines = logLines()
    expect(lines.find((line) => line.requestId === "probe-42")).toEqual({
      time: expect.any(String),
      level: "info",
      msg: "request",
      requestId: "probe-42",
      method: "GET",
      path: "/healthz",
      clientAddress: "127.0.0.1",
      status: 200,
      durationMs: expect.any(Number)
    })
    expect(lines.find((line) => line.requestId === madeId)).toMatchObject({ path: "/api/nothing-here", status: 404 })
    expect(lines.find((line) => line.requestId === madeId)).not.toHaveProperty("route")
    const course = await fetch(`${base}/api/courses/some-course`, { headers: { "x-request-id": "with-route" } })
    expect(course.status).toBeGreaterThanOrEqual(400)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(logLines().find((line) => line.requestId === "with-route")).toMatchObject({
      path: "/api/courses/some-course",
      route: "/api/courses/:id"
    })
    expect(lines.find((line) => String(line.msg).startsWith("Roda listening on"))).toMatchObject({ level: "info" })
  })

  it("answers unknown routes with the 404 envelope", async () => {
    const reply = await fetch(`${base}/api/nothing-here`)
    expect(reply.status).toBe(404)
    expect((await reply.json()).success).toBe(false)
  })
})

/** One request through `agent`; the body is written in `chunks` (chunked when no Content-Length is given). */
const viaAgent = (
  agent: Agent,
  path: string,
  options: { method?: string; headers?: Record<string, string>; chunks?: ReadonlyArray<Buffer> } = {}
) =>
  new Promise<{ status: number; body: string; headers: Record<string, unknown>; socket: unknown }>(
    (resolve, reject) => {
      const url = new URL(path, base)
      const req = httpRequest({
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: options.method ?? "GET",
        headers: options.headers
      }, (res) => {
        const parts: Array<Buffer> = []
        res.on("data", (chunk: Buffer) => parts.push(chunk))
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(parts).toString("utf8"),
            headers: res.headers,
            socket: req.socket
          }))
        res.on("error", reject)
      })
      req.on("error", reject)
      const write = async () => {
        for (const chunk of options.chunks ?? []) {
          if (!req.write(chunk)) await new Promise((r) => req.once("drain", r))
          if (req.destroyed) return
        }
        req.end()
      }
      write().catch(reject)
    }
  )

const MB = 1024 * 1024
const registerBody = (email: string) => JSON.stringify({ fullName: "Kira Keepalive", email, password: "Secret123" })

describe("keep-alive connections after an early refusal", () => {
  it.each([
    ["a Content-Length over 1 MB", (size: number) => ({ "content-length": String(size) })],
    ["a chunked body over 1 MB", () => ({})]
  ])("answer 413 for %s and serve the next request on the same agent", async (_, lengthHeader) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      const warm = await viaAgent(agent, "/healthz")
      expect(warm.status).toBe(200)
      const size = 3 * MB
      const chunks = Array.from({ length: 48 }, () => Buffer.alloc(size / 48, 0x78))
      const refused = await viaAgent(agent, "/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json", ...lengthHeader(size) },
        chunks
      })
      expect(refused.status).toBe(413)
      expect(JSON.parse(refused.body).success).toBe(false)
      for (const n of [1, 2]) {
        const email = `kira-${n}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@roda.test`
        const next = await viaAgent(agent, "/api/auth/register", {
          method: "POST",
          headers: { "content-type": "application/json" },
          chunks: [Buffer.from(registerBody(email))]
        })
        expect(next.status).toBe(201)
        expect(JSON.parse(next.body).data.email).toBe(email)
      }
    } finally {
      agent.destroy()
    }
  })
})
