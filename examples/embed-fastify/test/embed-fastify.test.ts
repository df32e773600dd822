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
  base = await host.app.listen({ port: 0, host: "127.0.0.1" })
  stop = async () => {
    await host.app.close()
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

describe("examples/embed-fastify", () => {
  it("keeps the host's routes and Fastify's own JSON parser", async () => {
    expect(await (await post("/echo", { a: 1 })).json()).toEqual({ host: "fastify", received: { a: 1 } })
  })

  it("answers Roda's POSTs although Fastify parsed their bodies first", async () => {
    const registered = await post("/api/auth/register", {
      fullName: "Fay Fastify",
      email: "fay@example.com",
      password: "Secret123"
    })
    expect(registered.status).toBe(201)
    expect((await registered.json()).success).toBe(true)
    const login = await post("/api/auth/login", { email: "fay@example.com", password: "Secret123" })
    expect(login.status).toBe(200)
    const { token } = (await login.json()).data
    const community = await post("/api/communities", { name: "Fastify Club" }, token)
    expect(community.status).toBe(201)
    expect((await community.json()).data.name).toBe("Fastify Club")
    const me = await fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })
    expect((await me.json()).data.email).toBe("fay@example.com")
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
