import { defaultOptions, secret } from "@roda/core"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { serve } from "../src/server"

const scope = Effect.runSync(Scope.make())
let base = ""

beforeAll(async () => {
  const { port } = await Effect.runPromise(
    serve({
      port: 0,
      host: "127.0.0.1",
      database: { _tag: "Embedded", dataDir: "memory" },
      options: defaultOptions({ jwtSecret: secret("a-test-secret-that-is-long-enough-123") })
    }).pipe(Scope.extend(scope))
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

  it("answers unknown routes with the 404 envelope", async () => {
    const reply = await fetch(`${base}/api/nothing-here`)
    expect(reply.status).toBe(404)
    expect((await reply.json()).success).toBe(false)
  })
})
