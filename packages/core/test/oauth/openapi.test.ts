import { afterAll, describe, expect, it } from "vitest"
import { client, startRoda } from "../support/harness"

/** Every route of the spec's "MCP and OAuth 2.1" table is in the served document, with its shapes. */
describe("the OAuth routes in /api/openapi.json", () => {
  const roda = startRoda()
  const api = client(roda)
  afterAll(() => roda.dispose())

  const routes: ReadonlyArray<[string, string]> = [
    ["get", "/.well-known/oauth-protected-resource"],
    ["get", "/.well-known/oauth-protected-resource/mcp"],
    ["get", "/.well-known/oauth-authorization-server"],
    ["post", "/oauth/register"],
    ["get", "/oauth/authorize"],
    ["get", "/oauth/consent"],
    ["post", "/oauth/token"],
    ["post", "/oauth/revoke"],
    ["get", "/api/oauth/authorize/info"],
    ["post", "/api/oauth/authorize/consent"],
    ["post", "/api/oauth/authorize/deny"],
    ["get", "/api/oauth/connections"],
    ["delete", "/api/oauth/connections/{id}"],
    ["get", "/api/oauth/connections/{id}/diagnostics"],
    ["get", "/api/oauth/audit"],
    ["post", "/mcp"]
  ]

  it("documents each route with a summary, a description and its request and response schemas", async () => {
    const document = (await api.get("/api/openapi.json")).body
    for (const [method, path] of routes) {
      const operation = document.paths[path]?.[method]
      expect(operation, `${method} ${path}`).toBeDefined()
      expect(operation.summary, `${method} ${path}`).toBeTruthy()
      expect(operation.description?.length, `${method} ${path}`).toBeGreaterThan(40)
    }
    const token = document.paths["/oauth/token"].post
    expect(Object.keys(token.requestBody.content)).toEqual(["application/x-www-form-urlencoded"])
    expect(token.requestBody.content["application/x-www-form-urlencoded"].schema.$ref).toBe(
      "#/components/schemas/TokenRequest"
    )
    expect(Object.keys(document.components.schemas.TokenRequest.properties)).toContain("code_verifier")
    expect(JSON.stringify(token.responses["200"])).toContain("TokenResponse")
    expect(token.responses["400"].description).toContain("error_description")
    expect(Object.keys(token.responses["400"].content["application/json"].schema.properties)).toEqual([
      "error",
      "error_description"
    ])
    expect(Object.keys(document.paths["/oauth/authorize"].get.responses["400"].content)).toEqual(["text/html"])
    expect(Object.keys(document.paths["/oauth/revoke"].post.requestBody.content)).toEqual([
      "application/x-www-form-urlencoded"
    ])
    expect(JSON.stringify(document.paths["/oauth/register"].post.requestBody)).toContain("ClientMetadata")
    expect(document.paths["/oauth/authorize"].get.responses["302"]).toBeDefined()
    expect(JSON.stringify(document.paths["/api/oauth/audit"].get.responses["200"])).toBeTruthy()
    expect(document.paths["/mcp"].post.responses["401"]).toBeDefined()
    // core alone does not serve MCP (the Node server mounts @roda/mcp in front of it)
    const mcp = await api.post("/mcp", { jsonrpc: "2.0", id: 1, method: "initialize" })
    expect(mcp.status).toBe(404)
    const consentParameters = JSON.stringify(document.paths["/api/oauth/connections"].get.parameters)
    expect(consentParameters).toContain("X-CommunityId")
  })

  it("lists, per status, the RFC 6749 codes each OAuth endpoint answers with, and never Roda's envelope there", async () => {
    const document = (await api.get("/api/openapi.json")).body
    const codes = (path: string, status: string) =>
      document.paths[path].post.responses[status].content["application/json"].schema.properties.error.enum
    expect(codes("/oauth/token", "400")).toEqual([
      "invalid_request",
      "invalid_grant",
      "unsupported_grant_type",
      "invalid_scope",
      "invalid_target"
    ])
    expect(codes("/oauth/token", "401")).toEqual(["invalid_client"])
    expect(codes("/oauth/register", "400")).toEqual(["invalid_redirect_uri", "invalid_client_metadata"])
    expect(codes("/oauth/register", "429")).toEqual(["temporarily_unavailable"])
    expect(codes("/oauth/revoke", "400")).toEqual(["invalid_request"])
    for (const path of ["/oauth/token", "/oauth/register", "/oauth/revoke"]) {
      for (const [status, response] of Object.entries(document.paths[path].post.responses)) {
        if (Number(status) < 400) continue
        const schema = (response as { content: Record<string, { schema: { properties: object } }> })
          .content["application/json"]!.schema
        expect(Object.keys(schema.properties), `${path} ${status}`).toEqual(["error", "error_description"])
      }
    }
  })
})
