import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { McpAccess } from "../../src/index"
import { OAuthRepo } from "../../src/oauth/Repo"
import { newCommunity } from "../support/community"
import { client, startRoda } from "../support/harness"
import { connectMcpClient, form, REDIRECT_URI } from "../support/oauth"
import { query } from "../support/sql"
import { authenticate, codeFor, exchange, registerClient, startAuthorization, token } from "./support"

describe("OAuth: tokens, rotation, revocation and the audience wall", () => {
  const roda = startRoda()
  const api = client(roda)
  afterAll(() => roda.dispose())

  it("issues opaque tokens for the MCP resource; /mcp authenticates them as the account's own profile", async () => {
    const { community, addMember } = await newCommunity(api, "Tokens")
    const moderator = await addMember("moderator", "Moema Moderadora")
    const clientId = await registerClient(api)
    const { code, verifier } = await codeFor(api, clientId, moderator, community.id)
    const answer = await token(api, {
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      resource: "http://roda.test/mcp"
    })
    expect(answer.status).toBe(200)
    expect(answer.headers.get("cache-control")).toBe("no-store")
    expect(answer.body).toEqual({
      access_token: expect.stringMatching(/^roda_mcp_at_/),
      token_type: "Bearer",
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^roda_mcp_rt_/),
      scope: "read write"
    })
    const caller = await authenticate(roda, answer.body.access_token)
    expect(caller).toMatchObject({
      clientName: "Assistente",
      scopes: ["read", "write"],
      member: { communityId: community.id, profileId: moderator.profileId, role: "moderator" }
    })
    // the refresh token is no access token
    expect(await authenticate(roda, answer.body.refresh_token)).toEqual({ failed: true })
  })

  it("the MCP token is refused at /api (401) and the /api token at /mcp", async () => {
    const { community, owner } = await newCommunity(api, "Wall")
    const mcp = await connectMcpClient(api, owner, community.id)
    const atApi = await api.get("/api/auth/me", { token: mcp.accessToken })
    expect(atApi.status).toBe(401)
    expect(atApi.body.message).toBe("Invalid or expired token")
    const scoped = await api.get("/api/oauth/connections", { token: mcp.accessToken, community: community.id })
    expect(scoped.status).toBe(401)
    expect(await authenticate(roda, owner.token)).toEqual({ failed: true })
  })

  it("refuses a wrong verifier, another redirect_uri, another client, another resource and unknown grants", async () => {
    const { community, owner } = await newCommunity(api, "Abuse")
    const clientId = await registerClient(api)
    const other = await registerClient(api)
    const base = async () => {
      const { code, verifier } = await codeFor(api, clientId, owner, community.id)
      return {
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT_URI,
        client_id: clientId
      }
    }
    const errorOf = async (fields: Record<string, string | undefined>) => {
      const reply = await token(api, fields)
      return { status: reply.status, error: reply.body.error, noStore: reply.headers.get("cache-control") }
    }
    expect(await errorOf({ ...await base(), code_verifier: "x".repeat(43) })).toEqual({
      status: 400,
      error: "invalid_grant",
      noStore: "no-store"
    })
    expect((await errorOf({ ...await base(), redirect_uri: "http://127.0.0.1:9999/callback" })).error).toBe(
      "invalid_grant"
    )
    expect((await errorOf({ ...await base(), client_id: other })).error).toBe("invalid_grant")
    expect(await errorOf({ ...await base(), client_id: crypto.randomUUID() })).toMatchObject({
      status: 401,
      error: "invalid_client"
    })
    expect((await errorOf({ ...await base(), resource: "https://elsewhere.example/mcp" })).error).toBe("invalid_target")
    expect((await errorOf({ ...await base(), code_verifier: undefined })).error).toBe("invalid_request")
    expect((await errorOf({ grant_type: "password", username: "a" })).error).toBe("unsupported_grant_type")
    expect((await errorOf({})).error).toBe("invalid_request")
    // JSON instead of a form: still an RFC-shaped error, not the envelope
    const json = await api.post("/oauth/token", { grant_type: 1 })
    expect(json.status).toBe(400)
    expect(json.body.error).toBe("invalid_request")
  })

  it("codes live 60 seconds and authorization requests 10 minutes", async () => {
    const { community, owner } = await newCommunity(api, "Expiry")
    const clientId = await registerClient(api)
    const { code, requestId, verifier } = await codeFor(api, clientId, owner, community.id)
    await query(
      roda,
      (sql) => sql`UPDATE oauth_codes SET expires_at = now() - interval '1 second' WHERE request_id = ${requestId}`
    )
    const late = await exchange(api, clientId, code, verifier)
    expect(late.status).toBe(400)
    expect(late.body.error).toBe("invalid_grant")
    const waiting = await startAuthorization(api, clientId)
    await query(roda, (sql) =>
      sql`UPDATE oauth_authorization_requests SET expires_at = now() - interval '1 second'
        WHERE id = ${waiting.requestId}`)
    const info = await api.get(`/api/oauth/authorize/info?request_id=${waiting.requestId}`, { token: owner.token })
    expect(info.status).toBe(404)
    const consent = await api.post("/api/oauth/authorize/consent", {
      requestId: waiting.requestId,
      communityId: community.id
    }, { token: owner.token })
    expect(consent.status).toBe(404)
  })

  it("only SHA-256 hashes of codes and tokens are stored", async () => {
    const { community, owner } = await newCommunity(api, "Hashes")
    const connection = await connectMcpClient(api, owner, community.id)
    const rows = await query<{ tokenHash: string }>(
      roda,
      (sql) => sql`SELECT token_hash FROM oauth_tokens WHERE connection_id = ${connection.connectionId}`
    )
    expect(rows).toHaveLength(2)
    for (const row of rows) {
      expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/)
      expect([connection.accessToken, connection.refreshToken]).not.toContain(row.tokenHash)
    }
  })

  it("sweeps requests never consented and tokens a day after they expired", async () => {
    const { community, owner } = await newCommunity(api, "Sweep")
    const clientId = await registerClient(api)
    const abandoned = await startAuthorization(api, clientId)
    const connection = await connectMcpClient(api, owner, community.id)
    await query(roda, (sql) =>
      sql`UPDATE oauth_authorization_requests SET expires_at = now() - interval '2 days'
        WHERE id = ${abandoned.requestId} OR client_id = ${connection.clientId}`)
    await query(roda, (sql) =>
      sql`UPDATE oauth_tokens SET expires_at = now() - interval '2 days'
        WHERE connection_id = ${connection.connectionId} AND kind = 'access'`)
    await roda.runtime.runPromise(Effect.flatMap(OAuthRepo, (repo) => repo.sweep(new Date())))
    const requests = await query<{ status: string }>(
      roda,
      (sql) =>
        sql`SELECT status FROM oauth_authorization_requests
          WHERE id = ${abandoned.requestId} OR client_id = ${connection.clientId}`
    )
    expect(requests).toEqual([{ status: "consented" }])
    const tokens = await query<{ kind: string }>(
      roda,
      (sql) => sql`SELECT kind FROM oauth_tokens WHERE connection_id = ${connection.connectionId}`
    )
    expect(tokens).toEqual([{ kind: "refresh" }])
  })

  it("a member who leaves the community loses the connection's access", async () => {
    const { community, owner, addMember } = await newCommunity(api, "Leaves")
    const member = await addMember("member", "Lia Saindo")
    const connection = await connectMcpClient(api, member, community.id)
    expect(await authenticate(roda, connection.accessToken)).toMatchObject({ member: { role: "member" } })
    const removed = await api.del(`/api/profiles/${member.profileId}`, { token: owner.token, community: community.id })
    expect(removed.status).toBe(200)
    expect(await authenticate(roda, connection.accessToken)).toEqual({ failed: true })
  })

  it("rotates refresh tokens; presenting a used one revokes the whole connection", async () => {
    const { community, owner } = await newCommunity(api, "Rotate")
    const first = await connectMcpClient(api, owner, community.id)
    const refreshed = await token(api, {
      grant_type: "refresh_token",
      refresh_token: first.refreshToken,
      client_id: first.clientId,
      scope: "read"
    })
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.scope).toBe("read")
    expect(refreshed.body.refresh_token).not.toBe(first.refreshToken)
    expect(await authenticate(roda, refreshed.body.access_token)).toMatchObject({ scopes: ["read"] })
    // narrowing the access token does not narrow the grant
    const again = await token(api, { grant_type: "refresh_token", refresh_token: refreshed.body.refresh_token })
    expect(again.body.scope).toBe("read write")
    const reuse = await token(api, { grant_type: "refresh_token", refresh_token: first.refreshToken })
    expect(reuse.status).toBe(400)
    expect(reuse.body.error).toBe("invalid_grant")
    expect(await authenticate(roda, again.body.access_token)).toEqual({ failed: true })
    const after = await token(api, { grant_type: "refresh_token", refresh_token: again.body.refresh_token })
    expect(after.body.error).toBe("invalid_grant")
  })

  it("of two parallel exchanges of one code, and of two parallel refreshes, exactly one wins", async () => {
    const { community, owner } = await newCommunity(api, "Race")
    const clientId = await registerClient(api)
    const { code, verifier } = await codeFor(api, clientId, owner, community.id)
    const exchanges = await Promise.all([
      exchange(api, clientId, code, verifier),
      exchange(api, clientId, code, verifier)
    ])
    expect(exchanges.map((reply) => reply.status).sort()).toEqual([200, 400])
    const connected = await connectMcpClient(api, owner, community.id)
    const refreshes = await Promise.all(
      [1, 2, 3].map(() => token(api, { grant_type: "refresh_token", refresh_token: connected.refreshToken }))
    )
    expect(refreshes.filter((reply) => reply.status === 200)).toHaveLength(1)
    expect(refreshes.filter((reply) => reply.body.error === "invalid_grant")).toHaveLength(2)
  })

  it("revocation (RFC 7009) of either token ends the connection at once; unknown tokens answer 200", async () => {
    const { community, owner } = await newCommunity(api, "Revoke")
    const byAccess = await connectMcpClient(api, owner, community.id)
    expect(await authenticate(roda, byAccess.accessToken)).toMatchObject({ connectionId: byAccess.connectionId })
    const revoked = await api.call("POST", "/oauth/revoke", form({ token: byAccess.accessToken }))
    expect(revoked.status).toBe(200)
    expect(await authenticate(roda, byAccess.accessToken)).toEqual({ failed: true })
    const byRefresh = await connectMcpClient(api, owner, community.id)
    await api.call("POST", "/oauth/revoke", form({ token: byRefresh.refreshToken, token_type_hint: "refresh_token" }))
    expect(await authenticate(roda, byRefresh.accessToken)).toEqual({ failed: true })
    expect((await api.call("POST", "/oauth/revoke", form({ token: "nothing" }))).status).toBe(200)
    const malformed = await api.call("POST", "/oauth/revoke", form({}))
    expect(malformed.status).toBe(400)
    expect(malformed.body.error).toBe("invalid_request")
  })

  it("connections: members see theirs, owners all; disconnect revokes; another community's id is 404", async () => {
    const { community, owner, addMember } = await newCommunity(api, "Connections")
    const other = await newCommunity(api, "Outra")
    const member = await addMember("member", "Mel Membro")
    const mine = await connectMcpClient(api, member, community.id, { clientName: "Cursor" })
    const owners = await connectMcpClient(api, owner, community.id, { clientName: "Claude" })
    const foreign = await connectMcpClient(api, other.owner, other.community.id)
    const listOf = async (user: { token: string }) =>
      (await api.get("/api/oauth/connections", { token: user.token, community: community.id })).body
    const memberList = await listOf(member)
    expect(memberList.data).toEqual([{
      id: mine.connectionId,
      client: { id: mine.clientId, name: "Cursor" },
      clientName: "Cursor",
      accountId: member.id,
      scopes: ["read", "write"],
      createdAt: expect.any(String),
      lastUsedAt: null
    }])
    expect(memberList.pagination).toEqual({ limit: 20, nextCursor: null })
    expect((await listOf(owner)).data.map((c: { id: string }) => c.id)).toEqual([
      owners.connectionId,
      mine.connectionId
    ])
    const page = await api.get("/api/oauth/connections?limit=1", { token: owner.token, community: community.id })
    expect(page.body.data).toHaveLength(1)
    const next = await api.get(`/api/oauth/connections?limit=1&cursor=${page.body.pagination.nextCursor}`, {
      token: owner.token,
      community: community.id
    })
    expect(next.body.data[0].id).toBe(mine.connectionId)
    // a member cannot touch the owner's connection; nobody here sees another community's
    const forbidden = await api.del(`/api/oauth/connections/${owners.connectionId}`, {
      token: member.token,
      community: community.id
    })
    expect(forbidden.status).toBe(403)
    expect(forbidden.body.message).toBe("Função necessária: owner ou admin. Sua função: member")
    const notHere = await api.get(`/api/oauth/connections/${foreign.connectionId}/diagnostics`, {
      token: owner.token,
      community: community.id
    })
    expect(notHere.status).toBe(404)
    expect(
      (await api.del(`/api/oauth/connections/${foreign.connectionId}`, { token: owner.token, community: community.id }))
        .status
    ).toBe(404)
    // diagnostics: what the MCP server recorded at initialize
    await roda.runtime.runPromise(Effect.flatMap(McpAccess, (mcp) =>
      mcp.recordSession(mine.connectionId, {
        protocolVersion: "2025-06-18",
        serverVersion: "0.1.0",
        tools: ["community_overview", "list_spaces"]
      })))
    await authenticate(roda, mine.accessToken)
    const diagnostics = await api.get(`/api/oauth/connections/${mine.connectionId}/diagnostics`, {
      token: member.token,
      community: community.id
    })
    expect(diagnostics.body.data).toEqual({
      id: mine.connectionId,
      protocolVersion: "2025-06-18",
      serverVersion: "0.1.0",
      tools: ["community_overview", "list_spaces"],
      lastUsedAt: expect.any(String),
      lastError: null
    })
    const removed = await api.del(`/api/oauth/connections/${mine.connectionId}`, {
      token: owner.token,
      community: community.id
    })
    expect(removed.status).toBe(200)
    expect(await authenticate(roda, mine.accessToken)).toEqual({ failed: true })
    expect((await listOf(member)).data).toEqual([])
    expect(await authenticate(roda, foreign.accessToken)).toMatchObject({ connectionId: foreign.connectionId })
  })

  it("the audit is for owners and admins, newest first, keyset-paginated", async () => {
    const { community, owner, addMember } = await newCommunity(api, "Audit")
    const admin = await addMember("admin", "Ada Admin")
    const member = await addMember("member", "Mia Membro")
    const connection = await connectMcpClient(api, member, community.id)
    const caller = await authenticate(roda, connection.accessToken)
    if ("failed" in caller) throw new Error("not authenticated")
    for (const tool of ["first_tool", "second_tool"]) {
      await roda.runtime.runPromise(Effect.flatMap(McpAccess, (mcp) =>
        mcp.recordCall({
          caller,
          tool,
          arguments: { query: "a", token: "t" },
          outcome: "ok",
          durationMs: 3
        })))
    }
    const refused = await api.get("/api/oauth/audit", { token: member.token, community: community.id })
    expect(refused.status).toBe(403)
    expect(refused.body.message).toBe("Função necessária: owner ou admin. Sua função: member")
    const first = await api.get("/api/oauth/audit?limit=1", { token: admin.token, community: community.id })
    expect(first.status).toBe(200)
    expect(first.body.data).toEqual([{
      id: expect.any(String),
      connectionId: connection.connectionId,
      accountId: member.id,
      profileId: member.profileId,
      clientName: "Test assistant",
      tool: "second_tool",
      arguments: { query: "a", token: "[redacted]" },
      outcome: "ok",
      error: null,
      durationMs: 3,
      createdAt: expect.any(String)
    }])
    const second = await api.get(`/api/oauth/audit?limit=1&cursor=${first.body.pagination.nextCursor}`, {
      token: owner.token,
      community: community.id
    })
    expect(second.body.data.map((entry: { tool: string }) => entry.tool)).toEqual(["first_tool"])
    expect(second.body.pagination.nextCursor).toBeNull()
  })
})
