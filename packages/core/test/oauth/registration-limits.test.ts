import { afterAll, describe, expect, it } from "vitest"
import { client, startRoda } from "../support/harness"
import { REDIRECT_URI } from "../support/oauth"

describe("OAuth: dynamic registration is limited per client address", () => {
  const roda = startRoda()
  const api = client(roda)
  afterAll(() => roda.dispose())

  const registerFrom = (clientAddress: string, body: object = { redirect_uris: [REDIRECT_URI] }) =>
    api.post("/oauth/register", body, { clientAddress })

  it("answers 429 temporarily_unavailable with Retry-After after 20 registrations from one address in an hour", async () => {
    const address = "203.0.113.7"
    // Refused metadata is not counted.
    expect((await registerFrom(address, { redirect_uris: [] })).status).toBe(400)
    for (let index = 0; index < 20; index++) expect((await registerFrom(address)).status).toBe(201)
    const refused = await registerFrom(address)
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual({
      error: "temporarily_unavailable",
      error_description: "too many client registrations; try again later"
    })
    const retryAfter = Number(refused.headers.get("retry-after"))
    expect(retryAfter).toBeGreaterThan(3000)
    expect(retryAfter).toBeLessThanOrEqual(3600)
    expect((await registerFrom("203.0.113.8")).status).toBe(201)
  })

  it("lets exactly 20 of 30 parallel registrations from one address through", async () => {
    const replies = await Promise.all(Array.from({ length: 30 }, () => registerFrom("198.51.100.9")))
    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(20)
    expect(replies.filter((reply) => reply.status === 429)).toHaveLength(10)
  })
})
