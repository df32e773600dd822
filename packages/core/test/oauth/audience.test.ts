import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { defaultOptions, makeRoda, RATE_LIMITS_OFF, secret } from "../../node/index"
import { newCommunity } from "../support/community"
import { client, REGISTRATION_LIMIT_OFF, testDatabase } from "../support/harness"
import { connectMcpClient } from "../support/oauth"
import { authenticate } from "./support"

/**
 * RFC 8707: an access token names its audience, the MCP resource `${publicBaseUrl}/mcp`. A token
 * issued for another resource (here: the same database served under another public URL) is refused.
 */
describe("a token of another audience", () => {
  const folder = mkdtempSync(join(tmpdir(), "roda-audience-"))
  const database = process.env.DATABASE_URL ? testDatabase() : { ...testDatabase(), dataDir: folder }
  const rodaAt = (publicBaseUrl: string) =>
    makeRoda({
      database,
      options: defaultOptions({
        jwtSecret: secret("test-secret-that-is-long-enough-for-hs256"),
        publicBaseUrl,
        oauthRegistrationLimit: REGISTRATION_LIMIT_OFF,
        rateLimits: RATE_LIMITS_OFF
      })
    })
  afterAll(() => rmSync(folder, { recursive: true, force: true }))

  it("is refused by the MCP server of another resource", async () => {
    const first = rodaAt("https://old.example")
    const api = client(first)
    const { community, owner } = await newCommunity(api, "Audience")
    const connection = await connectMcpClient(api, owner, community.id)
    expect(await authenticate(first, connection.accessToken)).toMatchObject({ connectionId: connection.connectionId })
    await first.dispose()
    const second = rodaAt("https://new.example")
    try {
      expect(await authenticate(second, connection.accessToken)).toEqual({ failed: true })
      // the refresh token is bound to the old resource too: no token for the new one comes of it
      const refreshed = await client(second).call("POST", "/oauth/token", {
        raw: new URLSearchParams({ grant_type: "refresh_token", refresh_token: connection.refreshToken }).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded" }
      })
      expect(refreshed.body.error).toBe("invalid_target")
    } finally {
      await second.dispose()
    }
  })
})
