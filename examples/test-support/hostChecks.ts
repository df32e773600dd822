import { createRodaFetchClient } from "@roda/client/fetch"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

/** The options every example host starts Roda with in its test. */
export const exampleOptions = {
  dataDir: "memory",
  jwtSecret: "an-example-secret-of-at-least-32-characters",
  publicBaseUrl: "http://localhost"
} as const

export interface StartedHost {
  /** The host's base URL. */
  readonly url: string
  readonly stop: () => Promise<void>
}

/**
 * What every host that parses bodies itself must keep when Roda is mounted in it: its own routes
 * (an `/echo` route answering `{ host, received }`), Roda's POSTs whose bodies it already read, and
 * Roda's answers to bad input and unknown routes.
 */
export const describeBodyParsingHost = (host: string, start: () => Promise<StartedHost>) =>
  describe(`examples/embed-${host}`, () => {
    let base = ""
    let stop = async () => {}
    beforeAll(async () => {
      const started = await start()
      base = started.url
      stop = started.stop
    })
    afterAll(() => stop())

    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body)
      })

    it("keeps the host's routes and its own body parser", async () => {
      expect(await (await post("/echo", { a: 1 })).json()).toEqual({ host, received: { a: 1 } })
    })

    it("answers Roda's POSTs although the host read their bodies first", async () => {
      // Roda's routes through @roda/client's fetch client, typed from the OpenAPI document.
      const email = `${host}@example.com`
      const anonymous = createRodaFetchClient({ baseUrl: base })
      const registered = await anonymous.POST("/api/auth/register", {
        body: { fullName: `Ana ${host}`, email, password: "Secret123" }
      })
      expect(registered.response.status).toBe(201)
      expect(registered.data?.success).toBe(true)
      const login = await anonymous.POST("/api/auth/login", { body: { email, password: "Secret123" } })
      expect(login.response.status).toBe(200)
      const signedIn = createRodaFetchClient({ baseUrl: base, token: login.data!.data.token })
      const community = await signedIn.POST("/api/communities", { body: { name: `${host} club` } })
      expect(community.response.status).toBe(201)
      expect(community.data?.data.name).toBe(`${host} club`)
      const me = await signedIn.GET("/api/auth/me")
      expect(me.data?.data.email).toBe(email)
    })

    it("keeps Roda's answers to bad input and unknown routes", async () => {
      const reply = await post("/api/auth/register", { email: "not-an-email" })
      expect(reply.status).toBe(400)
      expect((await reply.json()).errors.length).toBeGreaterThan(0)
      const missing = await fetch(`${base}/api/no-such-route`, { headers: { "accept-language": "en" } })
      expect(missing.status).toBe(404)
      expect(await missing.json()).toEqual({ success: false, code: "route_not_found", message: "Route not found." })
    })
  })
