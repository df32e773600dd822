import { afterAll, describe, expect, it } from "vitest"
import { newCommunity } from "../support/community"
import { client, register, startRoda } from "../support/harness"
import { pkce, REDIRECT_URI } from "../support/oauth"
import { authorize, codeFor, exchange, registerClient, startAuthorization } from "./support"

describe("OAuth: discovery, registration, authorization and consent", () => {
  const roda = startRoda()
  const api = client(roda)
  afterAll(() => roda.dispose())

  it("serves the protected resource metadata at both paths and the authorization server metadata", async () => {
    const resource = await api.get("/.well-known/oauth-protected-resource")
    expect(resource.status).toBe(200)
    expect(resource.body).toEqual({
      resource: "http://roda.test/mcp",
      authorization_servers: ["http://roda.test"],
      scopes_supported: ["read", "write"],
      bearer_methods_supported: ["header"],
      resource_name: "Roda MCP server"
    })
    expect((await api.get("/.well-known/oauth-protected-resource/mcp")).body).toEqual(resource.body)
    const server = await api.get("/.well-known/oauth-authorization-server")
    expect(server.body).toMatchObject({
      issuer: "http://roda.test",
      authorization_endpoint: "http://roda.test/oauth/authorize",
      token_endpoint: "http://roda.test/oauth/token",
      registration_endpoint: "http://roda.test/oauth/register",
      revocation_endpoint: "http://roda.test/oauth/revoke",
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      scopes_supported: ["read", "write"],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true
    })
  })

  it("registers public clients and refuses bad redirect URIs and metadata (RFC 7591 errors)", async () => {
    const ok = await api.post("/oauth/register", {
      redirect_uris: [
        "https://app.example/cb",
        "http://localhost:4000/cb",
        "com.example.app:/oauth",
        "http://[::1]/cb"
      ],
      client_name: "Claude",
      token_endpoint_auth_method: "client_secret_post",
      unknown_member: 1
    })
    expect(ok.status).toBe(201)
    expect(ok.body).toMatchObject({
      redirect_uris: [
        "https://app.example/cb",
        "http://localhost:4000/cb",
        "com.example.app:/oauth",
        "http://[::1]/cb"
      ],
      client_name: "Claude",
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"]
    })
    expect(typeof ok.body.client_id).toBe("string")
    expect(typeof ok.body.client_id_issued_at).toBe("number")
    const refused = async (body: unknown) => {
      const reply = await api.post("/oauth/register", body)
      expect(reply.status).toBe(400)
      expect(reply.body.success).toBeUndefined()
      return reply.body.error
    }
    expect(await refused({ client_name: "x" })).toBe("invalid_redirect_uri")
    expect(await refused({ redirect_uris: ["http://evil.example/cb"] })).toBe("invalid_redirect_uri")
    expect(await refused({ redirect_uris: ["https://app.example/cb#frag"] })).toBe("invalid_redirect_uri")
    expect(await refused({ redirect_uris: ["javascript:alert(1)"] })).toBe("invalid_redirect_uri")
    expect(await refused({ redirect_uris: ["https://app.example/cb"], grant_types: ["client_credentials"] })).toBe(
      "invalid_client_metadata"
    )
    expect(await refused({ redirect_uris: "https://app.example/cb" })).toBe("invalid_client_metadata")
  })

  it("answers a 400 page, never a redirect, for an unknown client or an unregistered redirect URI", async () => {
    const clientId = await registerClient(api)
    const { challenge } = pkce()
    const unknown = await authorize(api, { client_id: crypto.randomUUID(), code_challenge: challenge })
    expect(unknown.status).toBe(400)
    expect(unknown.headers.get("location")).toBeNull()
    expect(unknown.headers.get("content-type")).toContain("text/html")
    // a metadata document on the server's own network is never fetched (SSRF)
    for (const internal of ["https://127.0.0.1/client.json", "https://169.254.169.254/latest", "https://intranet/c"]) {
      const refused = await authorize(api, { client_id: internal, code_challenge: challenge })
      expect(refused.status).toBe(400)
      expect(refused.headers.get("location")).toBeNull()
    }
    const elsewhere = await authorize(api, {
      client_id: clientId,
      code_challenge: challenge,
      redirect_uri: "http://127.0.0.1/other"
    })
    expect(elsewhere.status).toBe(400)
    expect(elsewhere.headers.get("location")).toBeNull()
    expect(elsewhere.body).toContain("redirect_uri")
    // a loopback redirect may use another port (RFC 8252 §7.3)
    const port = await authorize(api, {
      client_id: clientId,
      code_challenge: challenge,
      redirect_uri: "http://127.0.0.1:53124/callback"
    })
    expect(port.status).toBe(302)
    expect(port.headers.get("location")).toMatch(/^http:\/\/roda\.test\/oauth\/consent\?request_id=[0-9a-f-]{36}$/)
  })

  it("redirects other errors with error, state and iss (plain PKCE, no PKCE, unknown scope, another resource)", async () => {
    const clientId = await registerClient(api)
    const { challenge } = pkce()
    const errorOf = async (params: Record<string, string | undefined>) => {
      const reply = await authorize(api, { client_id: clientId, code_challenge: challenge, ...params })
      expect(reply.status).toBe(302)
      const location = new URL(reply.headers.get("location")!)
      expect(location.origin + location.pathname).toBe(REDIRECT_URI)
      expect(location.searchParams.get("state")).toBe("xyz")
      expect(location.searchParams.get("iss")).toBe("http://roda.test")
      return location.searchParams.get("error")
    }
    expect(await errorOf({ code_challenge_method: "plain" })).toBe("invalid_request")
    expect(await errorOf({ code_challenge_method: undefined })).toBe("invalid_request")
    expect(await errorOf({ code_challenge: undefined })).toBe("invalid_request")
    expect(await errorOf({ response_type: "token" })).toBe("unsupported_response_type")
    expect(await errorOf({ scope: "read admin" })).toBe("invalid_scope")
    expect(await errorOf({ resource: "http://roda.test/api" })).toBe("invalid_target")
    const valid = await authorize(api, {
      client_id: clientId,
      code_challenge: challenge,
      resource: "http://roda.test/mcp"
    })
    expect(valid.headers.get("location")).toContain("http://roda.test/oauth/consent?request_id=")
  })

  it("shows the request to the signed-in account, with its communities, and consents once", async () => {
    const { community, owner, addMember } = await newCommunity(api, "OAuth")
    const member = await addMember("member", "Mário Membro")
    const stranger = await register(api, "Sônia Sem Comunidade")
    const clientId = await registerClient(api)
    const { requestId } = await startAuthorization(api, clientId, "read")
    expect((await api.get(`/api/oauth/authorize/info?request_id=${requestId}`)).status).toBe(401)
    const info = await api.get(`/api/oauth/authorize/info?request_id=${requestId}`, { token: member.token })
    expect(info.status).toBe(200)
    expect(info.body.data).toMatchObject({
      requestId,
      client: { id: clientId, name: "Assistente", uri: null },
      redirectUri: REDIRECT_URI,
      scopes: ["read"],
      resource: "http://roda.test/mcp",
      communities: [{ id: community.id, name: expect.stringContaining("OAuth"), role: "member" }]
    })
    expect(
      (await api.get(`/api/oauth/authorize/info?request_id=${crypto.randomUUID()}`, { token: member.token })).status
    )
      .toBe(404)
    const notMember = await api.post("/api/oauth/authorize/consent", { requestId, communityId: community.id }, {
      token: stranger.token
    })
    expect(notMember.status).toBe(403)
    expect(notMember.body.message).toBe("Você não é membro desta comunidade.")
    const consent = await api.post("/api/oauth/authorize/consent", { requestId, communityId: community.id }, {
      token: member.token
    })
    expect(consent.status).toBe(200)
    const redirect = new URL(consent.body.data.redirectTo)
    expect(redirect.origin + redirect.pathname).toBe(REDIRECT_URI)
    expect(redirect.searchParams.get("code")).toMatch(/^[A-Za-z0-9_-]{40,}$/)
    expect(redirect.searchParams.get("state")).toBe("xyz")
    expect(redirect.searchParams.get("iss")).toBe("http://roda.test")
    const again = await api.post("/api/oauth/authorize/consent", { requestId, communityId: community.id }, {
      token: owner.token
    })
    expect(again.status).toBe(409)
    expect((await api.post("/api/oauth/authorize/deny", { requestId }, { token: member.token })).status).toBe(409)
  })

  it("denies with access_denied, once", async () => {
    const { owner } = await newCommunity(api, "Deny")
    const clientId = await registerClient(api)
    const { requestId } = await startAuthorization(api, clientId)
    const denied = await api.post("/api/oauth/authorize/deny", { requestId }, { token: owner.token })
    expect(denied.status).toBe(200)
    const redirect = new URL(denied.body.data.redirectTo)
    expect(redirect.searchParams.get("error")).toBe("access_denied")
    expect(redirect.searchParams.get("state")).toBe("xyz")
    expect(redirect.searchParams.get("iss")).toBe("http://roda.test")
    expect((await api.post("/api/oauth/authorize/deny", { requestId }, { token: owner.token })).status).toBe(409)
  })

  it("serves the consent page as HTML that cannot be framed", async () => {
    const page = await api.get("/oauth/consent?request_id=abc")
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toContain("text/html")
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
    expect(page.body).toContain("/api/oauth/authorize/consent")
  })

  it("a code is single use: replay is invalid_grant and revokes what the first use issued", async () => {
    const { community, owner } = await newCommunity(api, "Replay")
    const clientId = await registerClient(api)
    const { code, verifier } = await codeFor(api, clientId, owner, community.id)
    const first = await exchange(api, clientId, code, verifier)
    expect(first.status).toBe(200)
    const second = await exchange(api, clientId, code, verifier)
    expect(second.status).toBe(400)
    expect(second.body.error).toBe("invalid_grant")
    const mcp = await api.get("/api/oauth/connections", { token: owner.token, community: community.id })
    expect(mcp.body.data).toEqual([])
  })
})
