import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeHost } from "../src/app"

let base = ""
let stop = async () => {}

beforeAll(async () => {
  const host = await makeHost({
    dataDir: "memory",
    jwtSecret: "an-example-secret-of-at-least-32-characters",
    publicBaseUrl: "http://localhost"
  })
  const server = await new Promise<Server>((resolve) => {
    const started = host.app.listen(0, "127.0.0.1", () => resolve(started))
  })
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  stop = async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
    await host.roda.dispose()
  }
})

afterAll(() => stop())

const post = (path: string, body: unknown, token?: string) =>
  fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body)
  })

describe("examples/embed-koa", () => {
  it("keeps the host's routes and its global body parser", async () => {
    expect(await (await post("/echo", { a: 1 })).json()).toEqual({ host: "koa", received: { a: 1 } })
  })

  it("answers Roda's POSTs although the body parser read their bodies first", async () => {
    const registered = await post("/api/auth/register", {
      fullName: "Kai Koa",
      email: "kai@example.com",
      password: "Secret123"
    })
    expect(registered.status).toBe(201)
    expect((await registered.json()).success).toBe(true)
    const login = await post("/api/auth/login", { email: "kai@example.com", password: "Secret123" })
    expect(login.status).toBe(200)
    const { token } = (await login.json()).data
    const community = await post("/api/communities", { name: "Koa Club" }, token)
    expect(community.status).toBe(201)
    expect((await community.json()).data.name).toBe("Koa Club")
    const me = await fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })
    expect((await me.json()).data.email).toBe("kai@example.com")
  })

  it("keeps Roda's answers to bad input and unknown routes", async () => {
    const reply = await post("/api/auth/register", { email: "not-an-email" })
    expect(reply.status).toBe(400)
    expect((await reply.json()).errors.length).toBeGreaterThan(0)
    const missing = await fetch(`${base}/api/no-such-route`, { headers: { "accept-language": "en" } })
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ success: false, message: "Route not found." })
  })
})
