import { defaultOptions, makeRoda, secret } from "@roda/core/node"
import express from "express"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { toNodeHandler } from "../src/nodeHandler"

const roda = makeRoda({
  database: { _tag: "Embedded", dataDir: "memory" },
  options: defaultOptions({ jwtSecret: secret("a-test-secret-that-is-long-enough-123") })
})

const servers: Array<Server> = []
const listen = async (server: Server) => {
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

let parsedFirst = ""
let rawFirst = ""
let mounted = ""
let plain = ""

beforeAll(async () => {
  await roda.ready()
  const handler = toNodeHandler(roda)

  // The usual Express app: a global JSON parser, then Roda.
  const a = express()
  a.use(express.json())
  a.use(express.urlencoded({ extended: false }))
  a.all("/api/{*rest}", handler)
  parsedFirst = await listen(createServer(a))

  // A parser that keeps the raw bytes (`verify`), as webhook receivers do.
  const b = express()
  b.use(express.json({
    verify: (req, _res, buf) => {
      Object.assign(req, { rawBody: buf })
    }
  }))
  b.use(handler)
  rawFirst = await listen(createServer(b))

  // Mounted under a prefix: Express strips it from req.url, Roda still sees /api/...
  const c = express()
  c.use("/api", handler)
  mounted = await listen(createServer(c))

  plain = await listen(createServer(handler))
})

afterAll(async () => {
  for (const server of servers) server.closeAllConnections()
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
  await roda.dispose()
})

const register = (base: string, email: string, init: { body?: string; contentType?: string } = {}) =>
  fetch(`${base}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": init.contentType ?? "application/json" },
    body: init.body ?? JSON.stringify({ fullName: "Ana Node", email, password: "Secret123" })
  })

describe("toNodeHandler", () => {
  it("answers a POST whose body a global express.json() already read", async () => {
    const reply = await register(parsedFirst, "parsed@roda.test")
    expect(reply.status).toBe(201)
    expect((await reply.json()).data.email).toBe("parsed@roda.test")
  })

  it("keeps Roda's validation of a body the parser already read (400 with errors[].param)", async () => {
    const reply = await register(parsedFirst, "x", { body: JSON.stringify({ fullName: "A", email: "x" }) })
    expect(reply.status).toBe(400)
    const body = await reply.json()
    expect(body.success).toBe(false)
    expect(body.errors.map((error: { param: string }) => error.param)).toContain("password")
  })

  it("passes a form the parser read as a form", async () => {
    const form = (email: string) => new URLSearchParams({ fullName: "Ana", email, password: "Secret123" }).toString()
    const contentType = "application/x-www-form-urlencoded"
    const viaParser = await register(parsedFirst, "", { body: form("form1@roda.test"), contentType })
    const direct = await register(plain, "", { body: form("form2@roda.test"), contentType })
    expect([viaParser.status, direct.status]).toEqual([201, 201])
  })

  it("uses req.rawBody when the parser kept it", async () => {
    const reply = await register(rawFirst, "raw@roda.test")
    expect(reply.status).toBe(201)
  })

  it("streams the body when nothing read it, under a mount prefix too", async () => {
    expect((await register(mounted, "mounted@roda.test")).status).toBe(201)
    expect((await register(plain, "plain@roda.test")).status).toBe(201)
    const login = await fetch(`${mounted}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "mounted@roda.test", password: "Secret123" })
    })
    expect(login.status).toBe(200)
    const token = (await login.json()).data.token as string
    const me = await fetch(`${mounted}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })
    expect(me.status).toBe(200)
    expect((await me.json()).data.email).toBe("mounted@roda.test")
  })

  it("refuses a body over 1 MB with 413", async () => {
    const reply = await register(plain, "", { body: JSON.stringify({ email: "x".repeat(1024 * 1024 + 10) }) })
    expect(reply.status).toBe(413)
  })

  it("serves the OpenAPI document through Express", async () => {
    const reply = await fetch(`${parsedFirst}/api/openapi.json`)
    expect(reply.status).toBe(200)
    expect((await reply.json()).openapi).toMatch(/^3\./)
  })
})
