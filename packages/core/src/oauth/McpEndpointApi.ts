import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { OAuthError } from "./Api"

const JsonRpcRequest = Schema.Struct({
  jsonrpc: Schema.Literal("2.0"),
  id: Schema.optional(Schema.Union(Schema.String, Schema.Number)),
  method: Schema.String,
  params: Schema.optional(Schema.Unknown)
}).annotations({ identifier: "JsonRpcRequest", parseOptions: { onExcessProperty: "error" } })

const JsonRpcResponse = Schema.Struct({
  jsonrpc: Schema.Literal("2.0"),
  id: Schema.Union(Schema.String, Schema.Number, Schema.Null),
  result: Schema.optional(Schema.Unknown),
  error: Schema.optional(
    Schema.Struct({ code: Schema.Number, message: Schema.String, data: Schema.optional(Schema.Unknown) })
  )
}).annotations({ identifier: "JsonRpcResponse" })

/**
 * `POST /mcp`, documented here with the other routes of the spec's table. It is served by `@roda/mcp`
 * (the Node server mounts it in front of Roda); core's own handler only says so.
 */
export class McpEndpointApi extends HttpApiGroup.make("mcp")
  .annotateContext(OpenApi.annotations({ title: "OAuth 2.1 and MCP" }))
  .add(
    HttpApiEndpoint.post("mcp", "/mcp")
      .setPayload(JsonRpcRequest)
      .addSuccess(JsonRpcResponse)
      .addError(OAuthError.annotations({ identifier: "McpUnauthorized" }), { status: 401 })
      .addError(OAuthError.annotations({ identifier: "McpInsufficientScope" }), { status: 403 })
      .addError(OAuthError.annotations({ identifier: "McpNotMounted" }), { status: 404 })
      .annotate(OpenApi.Summary, "MCP server (streamable HTTP)")
      .annotate(
        OpenApi.Description,
        "The Model Context Protocol over streamable HTTP (JSON-RPC 2.0: `initialize`, `tools/list`, `tools/call`, …), served by `@roda/mcp` (mounted at `/mcp` by the Node server; embedders mount its handler). `Authorization: Bearer <access token of /oauth/token>` on every request (no session stands in for it; `Mcp-Session-Id` is optional). No token, or an invalid, expired, revoked or wrong-audience one: 401 with `WWW-Authenticate: Bearer resource_metadata=\"{PUBLIC_BASE_URL}/.well-known/oauth-protected-resource/mcp\", scope=\"read write\"`. A tool that needs `write` called with a `read` token: 403 with `WWW-Authenticate: Bearer error=\"insufficient_scope\", scope=\"write\", …`. Tools act as the connection's account in its community, with its role; every call is written to the MCP audit (`GET /api/oauth/audit`). Where `@roda/mcp` is not mounted, Roda answers 404."
      )
  )
{}
