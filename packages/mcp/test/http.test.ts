import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js"
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js"
import { defaultOptions, RATE_LIMITS_OFF, type Roda, secret } from "@roda/core"
import { serve } from "@roda/http-node"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freePort } from "../../../testing/ports"
import { newCommunity } from "../../core/test/support/community"
import { type Client as Api, client, REGISTRATION_LIMIT_OFF, testDatabase } from "../../core/test/support/harness"
import { connectMcpClient } from "../../core/test/support/oauth"
import { errorOf } from "./support"

let scope: Scope.CloseableScope
let base: string
let roda: Roda
let api: Api
let communityId: string
let owner: { token: string }
let member: { token: string; profileId: string }

beforeAll(async () => {
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  scope = Effect.runSync(Scope.make())
  const served = await Effect.runPromise(
    serve({
      port,
      host: "127.0.0.1",
      database: testDatabase(),
      log: { format: "json", level: "error" },
      options: defaultOptions({
        jwtSecret: secret("test-secret-that-is-long-enough-for-hs256"),
        publicBaseUrl: base,
        oauthRegistrationLimit: REGISTRATION_LIMIT_OFF,
        rateLimits: RATE_LIMITS_OFF
      })
    }, { logSink: () => {} }).pipe(Scope.extend(scope))
  )
  roda = served.roda
  api = client(roda)
  const community = await newCommunity(api, "MCP HTTP")
  communityId = community.community.id
  owner = community.owner
  member = await community.addMember("member", "Mia Member")
})

afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

/**
 * An assistant's side of OAuth: the SDK discovers, registers and builds the authorization URL; the
 * "browser" follows it and the person consents through `/api/oauth/authorize/consent`.
 */
const assistant = (person: { token: string }) => {
  let information: OAuthClientInformationMixed | undefined
  let saved: OAuthTokens | undefined
  let verifier = ""
  let code: string | undefined
  const provider: OAuthClientProvider = {
    redirectUrl: "http://127.0.0.1:53682/callback",
    clientMetadata: {
      client_name: "SDK test assistant",
      redirect_uris: ["http://127.0.0.1:53682/callback"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none"
    },
    clientInformation: () => information,
    saveClientInformation: (info) => {
      information = info
    },
    tokens: () => saved,
    saveTokens: (tokens) => {
      saved = tokens
    },
    saveCodeVerifier: (value) => {
      verifier = value
    },
    codeVerifier: () => verifier,
    redirectToAuthorization: async (url) => {
      const authorize = await fetch(url, { redirect: "manual" })
      expect(authorize.status).toBe(302)
      const requestId = new URL(authorize.headers.get("location")!).searchParams.get("request_id")
      const consent = await api.post("/api/oauth/authorize/consent", { requestId, communityId }, {
        token: person.token
      })
      expect(consent.status).toBe(200)
      const redirect = new URL(consent.body.data.redirectTo)
      expect(redirect.searchParams.get("iss")).toBe(base)
      code = redirect.searchParams.get("code")!
    }
  }
  return { provider, code: () => code, tokens: () => saved }
}

/** Connects the SDK client over streamable HTTP, doing the whole OAuth flow on the first 401. */
const connectWithOAuth = async (person: { token: string }) => {
  const oauth = assistant(person)
  const url = new URL(`${base}/mcp`)
  const first = new StreamableHTTPClientTransport(url, { authProvider: oauth.provider })
  await expect(new Client({ name: "t", version: "1" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError)
  await first.finishAuth(oauth.code()!)
  const mcp = new Client({ name: "sdk-test", version: "1.0.0" })
  await mcp.connect(new StreamableHTTPClientTransport(url, { authProvider: oauth.provider }))
  return { mcp, tokens: oauth.tokens()! }
}

const rpc = (token: string | undefined, body: unknown) =>
  fetch(`${base}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(token ? { authorization: `Bearer ${token}` } : {})
    },
    body: JSON.stringify(body)
  })

describe("MCP over streamable HTTP at /mcp of the Node server", () => {
  it("answers 401 with the resource-metadata challenge without a valid token, on every request", async () => {
    for (const token of [undefined, "roda_mcp_at_not-a-token", member.token]) {
      const answer = await rpc(token, { jsonrpc: "2.0", id: 1, method: "tools/list" })
      expect(answer.status).toBe(401)
      expect(answer.headers.get("www-authenticate")).toBe(
        `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", scope="read write"`
      )
    }
  })

  it("the SDK client does the whole OAuth flow, then lists and calls tools as the consenting member", async () => {
    const { mcp, tokens } = await connectWithOAuth(member)
    expect(tokens.scope).toBe("read write")
    const { tools } = await mcp.listTools()
    expect(tools.map((tool) => tool.name)).toContain("create_status_post")
    for (const tool of tools) expect(tool.outputSchema?.type, tool.name).toBe("object")
    const overview = await mcp.callTool({ name: "community_overview", arguments: {} })
    expect((overview.structuredContent as any).data.you).toMatchObject({ profileId: member.profileId })
    const posted = await mcp.callTool({ name: "create_status_post", arguments: { body: "Olá via MCP remoto" } })
    expect(posted.isError).toBeFalsy()
    expect((posted.structuredContent as any).data.author.id).toBe(member.profileId)
    const staff = await mcp.callTool({ name: "list_coupons", arguments: {} })
    const http = await api.get("/api/coupons", { token: member.token, community: communityId })
    expect(staff.isError).toBe(true)
    expect(errorOf(staff)).toMatchObject({
      success: false,
      status: 403,
      code: http.body.code,
      message: http.body.message
    })
    expect(http.body.code).toBe("role_required")
    await mcp.close()

    // The calls are in the community's MCP audit, and the connection's diagnostics saw `initialize`.
    const connections = await api.get("/api/oauth/connections", { token: member.token, community: communityId })
    const connection = connections.body.data.find((c: any) => c.client.name === "SDK test assistant")
    const diagnostics = await api.get(`/api/oauth/connections/${connection.id}/diagnostics`, {
      token: member.token,
      community: communityId
    })
    expect(diagnostics.body.data).toMatchObject({ serverVersion: "0.1.0", protocolVersion: expect.any(String) })
    expect(diagnostics.body.data.tools).toContain("list_coupons")
    const audit = await api.get("/api/oauth/audit", { token: owner.token, community: communityId })
    const tools_ = audit.body.data.map((entry: any) => [entry.tool, entry.outcome])
    expect(tools_).toContainEqual(["create_status_post", "ok"])
    expect(tools_).toContainEqual(["list_coupons", "error"])

    // Disconnecting revokes at once: the next request is a 401.
    expect(
      (await api.del(`/api/oauth/connections/${connection.id}`, { token: member.token, community: communityId }))
        .status
    ).toBe(200)
    const after = await rpc(tokens.access_token, { jsonrpc: "2.0", id: 2, method: "tools/list" })
    expect(after.status).toBe(401)
  })

  it("refuses a write tool to a read-scope token with 403 insufficient_scope; read tools work", async () => {
    const connection = await connectMcpClient(api, member, communityId, { scope: "read" })
    expect(connection.scope).toBe("read")
    const call = (name: string, args: unknown) =>
      rpc(connection.accessToken, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name, arguments: args } })
    const refused = await call("create_status_post", { body: "não" })
    expect(refused.status).toBe(403)
    expect(refused.headers.get("www-authenticate")).toMatch(/error="insufficient_scope"/)
    expect(refused.headers.get("www-authenticate")).toMatch(/scope="[^"]*write/)
    expect(await refused.json()).toMatchObject({ error: "insufficient_scope" })
    // Stateless: a session id is neither needed nor checked; the token is, on every request.
    const read = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${connection.accessToken}`,
        "mcp-session-id": "any-session"
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 4,
        method: "tools/call",
        params: { name: "list_spaces", arguments: {} }
      })
    })
    expect(read.status).toBe(200)
    const body = await read.json()
    expect(body.result.isError).toBeFalsy()
    expect(body.result.structuredContent.success).toBe(true)
  })
})

describe("an API key at /mcp", () => {
  const keyOf = async (scopes: ReadonlyArray<string>) => {
    const made = await api.post("/api/api-keys", { name: `mcp ${scopes.join(" ")}`, scopes }, {
      token: owner.token,
      community: communityId
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    return made.body.data as { id: string; key: string }
  }
  const connect = async (key: string) => {
    const mcp = new Client({ name: "key-test", version: "1.0.0" })
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } }
      })
    )
    return mcp
  }

  it("acts as the key's creator in its community, within its scopes; revoked, its next request is 401", async () => {
    const key = await keyOf(["community:read", "content:read"])
    const mcp = await connect(key.key)
    await mcp.listTools()
    const overview = await mcp.callTool({ name: "community_overview", arguments: {} })
    expect(overview.isError, JSON.stringify(overview)).toBeFalsy()
    expect((overview.structuredContent as any).data.you.role).toBe("owner")
    const post = await mcp.callTool({ name: "create_status_post", arguments: { body: "Sem escopo" } })
    expect(errorOf(post)).toMatchObject({ status: 403, code: "api_key_scope_missing" })
    const coupons = await mcp.callTool({ name: "list_coupons", arguments: {} })
    expect(errorOf(coupons).message).toContain("commerce:read")

    const audit = await api.get("/api/oauth/audit", { token: owner.token, community: communityId })
    expect(audit.body.data.some((entry: { clientName: string }) => entry.clientName.startsWith("API key rk_"))).toBe(
      true
    )

    await api.del(`/api/api-keys/${key.id}`, { token: owner.token, community: communityId })
    const after = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${key.key}`
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
    })
    expect(after.status).toBe(401)
    await mcp.close().catch(() => undefined)
  })
})
