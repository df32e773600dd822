import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startBuiltServer } from "../../../testing/builtServer"
import { freePort } from "../../../testing/ports"
import { startStandalone } from "../src/start"

let server: Awaited<ReturnType<typeof startStandalone>>

beforeAll(async () => {
  server = await startStandalone({ PORT: String(await freePort()), DATA_DIR: "memory", LOG_FORMAT: "json" })
})

afterAll(() => server.stop())

describe("examples/standalone", () => {
  it("answers health, readiness, the API and its contract", async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    expect(await (await fetch(`${server.url}/readyz`)).json()).toEqual({ status: "ready" })
    const registered = await fetch(`${server.url}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ fullName: "Sol Standalone", email: "sol@example.com", password: "Secret123" })
    })
    expect(registered.status).toBe(201)
    expect(registered.headers.get("x-request-id")).toBeTruthy()
    expect((await (await fetch(`${server.url}/api/openapi.json`)).json()).openapi).toMatch(/^3\./)
  })

  it("`pnpm start` in this folder runs the built roda-server of the workspace", async () => {
    const started = await startBuiltServer({}, {
      bin: "pnpm",
      args: ["start"],
      cwd: fileURLToPath(new URL("..", import.meta.url))
    })
    try {
      expect((await fetch(`${started.base}/api/openapi.json`)).status).toBe(200)
    } finally {
      await started.stop()
    }
  }, 120_000)
})
