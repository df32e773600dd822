import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BuiltServer, startBuiltServer } from "../../../../testing/builtServer"

/** The built `roda-server` reads `TRUST_PROXY` from its environment (issue 51 item 2). */
let server: BuiltServer

beforeAll(async () => {
  server = await startBuiltServer({ TRUST_PROXY: "loopback", LOG_LEVEL: "info", LOG_FORMAT: "json" })
})

afterAll(() => server?.stop())

/** The client address of the request with `requestId`, as the server logged it. */
const loggedClient = async (requestId: string) => {
  for (let tries = 0; tries < 50; tries++) {
    const line = server.output().split("\n").find((text) => text.includes(`"requestId":"${requestId}"`))
    if (line !== undefined) return JSON.parse(line).clientAddress
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return undefined
}

describe("the built server behind a proxy", () => {
  it("takes the client from the X-Forwarded-For its trusted (loopback) peer sends", async () => {
    const requestId = randomUUID()
    const reply = await fetch(`${server.base}/api/auth/login`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-request-id": requestId,
        "x-forwarded-for": "6.6.6.6, 203.0.113.77"
      },
      body: JSON.stringify({ email: "nobody@roda.test", password: "Wrong1234" })
    })
    expect(reply.status).toBe(401)
    expect(await loggedClient(requestId)).toBe("203.0.113.77")
  })

  it("refuses to start with a TRUST_PROXY it cannot read, naming it", async () => {
    await expect(startBuiltServer({ TRUST_PROXY: "true" })).rejects.toThrow(
      /Roda could not start:\s+TRUST_PROXY: true would let any client choose its address/
    )
  })
})
