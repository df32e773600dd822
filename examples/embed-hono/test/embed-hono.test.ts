import { serve } from "@hono/node-server"
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
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: host.app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(started))
  })
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  stop = async () => {
    await new Promise((resolve) => server.close(resolve))
    await host.roda.dispose()
  }
})

afterAll(() => stop())

describe("examples/embed-hono", () => {
  it("serves the host's own route and Roda under /api", async () => {
    expect(await (await fetch(`${base}/`)).json()).toEqual({ host: "hono", roda: "/api" })
    const registered = await fetch(`${base}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ fullName: "Hana Hono", email: "hana@example.com", password: "Secret123" })
    })
    expect(registered.status).toBe(201)
    const { token } = (await registered.json()).data
    const me = await fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })
    expect(me.status).toBe(200)
    expect((await me.json()).data.email).toBe("hana@example.com")
  })

  it("answers Roda's refusals under @hono/node-server, which replaces the global Response", async () => {
    const nul = await fetch(`${base}/api/spaces/modules?x=%00`)
    expect(nul.status).toBe(400)
    const tooDeep = await fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `{"email":${"[".repeat(3000)}${"]".repeat(3000)}}`
    })
    expect(tooDeep.status).toBe(400)
  })
})
