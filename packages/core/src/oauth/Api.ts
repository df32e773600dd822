import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { OneOf } from "../domain/Role"
import { refusedWith } from "./ErrorsApi"

const text = (max: number) => Schema.optional(Schema.String.pipe(Schema.maxLength(max)))
export const Scope = OneOf("read", "write")

/** `{ error, error_description }` (RFC 6749 §5.2), not Roda's envelope. */
export const OAuthError = Schema.Struct({
  error: Schema.String.annotations({
    description:
      "invalid_request, invalid_client, invalid_grant, unsupported_grant_type, invalid_scope, invalid_target, invalid_redirect_uri, invalid_client_metadata"
  }),
  error_description: Schema.optional(Schema.String)
}).annotations({ identifier: "OAuthError" })

const Html = HttpApiSchema.Text({ contentType: "text/html" })

type Operation = { responses?: Record<string, { description?: string; content?: unknown }> }

/** The generated document names the envelope's validation errors at 400; these answers are RFC-shaped. */
const rfcErrors = (operation: Record<string, unknown>) => {
  const responses = (operation as Operation).responses ?? {}
  for (const status of ["400", "401"]) {
    const response = responses[status]
    if (response !== undefined) {
      response.description = status === "401"
        ? "`invalid_client`: unknown client_id (RFC 6749 §5.2)"
        : "`{ error, error_description }` (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 8707)"
    }
  }
  return operation
}

/** `/oauth/authorize` answers a 400 HTML page (unknown client or redirect URI), never JSON. */
const htmlRefusal = (operation: Record<string, unknown>) => {
  const responses = (operation as Operation).responses ?? {}
  responses["400"] = {
    description: "An HTML page: unknown client_id, or a redirect_uri not registered for it (never a redirect)",
    content: { "text/html": { schema: { type: "string" } } }
  }
  responses["302"] = {
    description:
      "`Location`: the consent page (`/oauth/consent?request_id=…`), or `redirect_uri` with `error`, `error_description`, `state` and `iss`"
  }
  return operation
}

export const ProtectedResourceMetadata = Schema.Struct({
  resource: Schema.String,
  authorization_servers: Schema.Array(Schema.String),
  scopes_supported: Schema.Array(Schema.String),
  bearer_methods_supported: Schema.Array(Schema.String),
  resource_name: Schema.String
}).annotations({ identifier: "ProtectedResourceMetadata" })

export const AuthorizationServerMetadata = Schema.Struct({
  issuer: Schema.String,
  authorization_endpoint: Schema.String,
  token_endpoint: Schema.String,
  registration_endpoint: Schema.String,
  revocation_endpoint: Schema.String,
  response_types_supported: Schema.Array(Schema.String),
  response_modes_supported: Schema.Array(Schema.String),
  grant_types_supported: Schema.Array(Schema.String),
  code_challenge_methods_supported: Schema.Array(Schema.String),
  token_endpoint_auth_methods_supported: Schema.Array(Schema.String),
  revocation_endpoint_auth_methods_supported: Schema.Array(Schema.String),
  scopes_supported: Schema.Array(Schema.String),
  authorization_response_iss_parameter_supported: Schema.Boolean,
  client_id_metadata_document_supported: Schema.Boolean
}).annotations({ identifier: "AuthorizationServerMetadata" })

/** RFC 7591 client metadata; other members are ignored. */
export const ClientMetadata = Schema.Struct({
  redirect_uris: Schema.optional(Schema.Array(Schema.String.pipe(Schema.maxLength(2000))).pipe(Schema.maxItems(20))),
  client_name: text(500),
  client_uri: text(2000),
  logo_uri: text(2000),
  scope: text(200),
  grant_types: Schema.optional(Schema.Array(Schema.String.pipe(Schema.maxLength(100))).pipe(Schema.maxItems(10))),
  response_types: Schema.optional(Schema.Array(Schema.String.pipe(Schema.maxLength(100))).pipe(Schema.maxItems(10))),
  token_endpoint_auth_method: text(100),
  software_id: text(500),
  software_version: text(500)
}).annotations({ identifier: "ClientMetadata" })

const RegisteredClient = Schema.Struct({
  client_id: Schema.String,
  client_id_issued_at: Schema.Number,
  redirect_uris: Schema.Array(Schema.String),
  token_endpoint_auth_method: Schema.Literal("none"),
  grant_types: Schema.Array(Schema.String),
  response_types: Schema.Array(Schema.String),
  client_name: Schema.optional(Schema.String),
  client_uri: Schema.optional(Schema.String),
  logo_uri: Schema.optional(Schema.String),
  scope: Schema.optional(Schema.String),
  software_id: Schema.optional(Schema.String),
  software_version: Schema.optional(Schema.String)
}).annotations({ identifier: "RegisteredClient" })

export const AuthorizeQuery = Schema.Struct({
  response_type: text(100),
  client_id: text(2000),
  redirect_uri: text(2000),
  code_challenge: text(200),
  code_challenge_method: text(20),
  state: text(1000),
  scope: text(200),
  resource: text(2000)
})

export const TokenForm = Schema.Struct({
  grant_type: text(100),
  code: text(200),
  code_verifier: text(200),
  redirect_uri: text(2000),
  client_id: text(2000),
  resource: text(2000),
  refresh_token: text(200),
  scope: text(200)
}).pipe(HttpApiSchema.withEncoding({ kind: "UrlParams" })).annotations({ identifier: "TokenRequest" })

export const RevokeForm = Schema.Struct({
  token: text(200),
  token_type_hint: text(100),
  client_id: text(2000)
}).pipe(HttpApiSchema.withEncoding({ kind: "UrlParams" })).annotations({ identifier: "RevocationRequest" })

const TokenResponse = Schema.Struct({
  access_token: Schema.String,
  token_type: Schema.Literal("Bearer"),
  expires_in: Schema.Number,
  refresh_token: Schema.String,
  scope: Schema.String
}).annotations({ identifier: "TokenResponse" })

const METADATA_DOC =
  "Protected resource metadata (RFC 9728) of the MCP server: `resource` (`{PUBLIC_BASE_URL}/mcp`), `authorization_servers` (Roda itself), `scopes_supported` (`read`: tools that change nothing; `write`: every tool), `bearer_methods_supported: [\"header\"]`. The URL a 401 of `/mcp` names in `WWW-Authenticate: Bearer resource_metadata=…`."

/** The discovery documents and the OAuth endpoints an assistant's client calls (RFC-shaped answers). */
export class OAuthServerApi extends HttpApiGroup.make("oauth")
  .annotateContext(OpenApi.annotations({
    title: "OAuth 2.1 and MCP",
    description:
      "The authorization server of the MCP server (`POST /mcp`): discovery, dynamic registration, authorization with PKCE, tokens and revocation. These answers follow the RFCs (`{ error, error_description }` on failure), not Roda's envelope. Access tokens are opaque, valid for 1 hour, bound to the MCP resource (RFC 8707) and not accepted by `/api/*`; `/api` tokens are not accepted at `/mcp`."
  }))
  .add(
    HttpApiEndpoint.get("protectedResource", "/.well-known/oauth-protected-resource")
      .addSuccess(ProtectedResourceMetadata)
      .annotate(OpenApi.Summary, "Protected resource metadata (RFC 9728)")
      .annotate(OpenApi.Description, METADATA_DOC)
  )
  .add(
    HttpApiEndpoint.get("protectedResourceMcp", "/.well-known/oauth-protected-resource/mcp")
      .addSuccess(ProtectedResourceMetadata)
      .annotate(OpenApi.Summary, "Protected resource metadata of /mcp (RFC 9728)")
      .annotate(OpenApi.Description, `${METADATA_DOC} Same document as \`/.well-known/oauth-protected-resource\`.`)
  )
  .add(
    HttpApiEndpoint.get("authorizationServer", "/.well-known/oauth-authorization-server")
      .addSuccess(AuthorizationServerMetadata)
      .annotate(OpenApi.Summary, "Authorization server metadata (RFC 8414)")
      .annotate(
        OpenApi.Description,
        "Issuer `{PUBLIC_BASE_URL}`; authorization code with PKCE `S256` only; public clients (`token_endpoint_auth_methods_supported: [\"none\"]`); `iss` in every authorization response (RFC 9207); Client ID Metadata Documents accepted (an `https` client_id)."
      )
  )
  .add(
    HttpApiEndpoint.post("register", "/oauth/register")
      .setPayload(ClientMetadata)
      .addSuccess(RegisteredClient, { status: 201 })
      .addError(refusedWith(400, "invalid_redirect_uri", "invalid_client_metadata"))
      .addError(refusedWith(429, "temporarily_unavailable"))
      .annotate(OpenApi.Transform, rfcErrors)
      .annotate(OpenApi.Summary, "Register a client (RFC 7591)")
      .annotate(
        OpenApi.Description,
        "Dynamic registration of a public client. `redirect_uris` is required; each is `https`, `http` on a loopback host (`127.0.0.1`, `[::1]`, `localhost`) or a private-use scheme (`com.example.app:/callback`); fragments are refused (400 `invalid_redirect_uri`). `grant_types` may name `authorization_code` and `refresh_token`, `response_types` only `code` (else 400 `invalid_client_metadata`). The answer always says `token_endpoint_auth_method: \"none\"` (no client secrets). Instead of registering, a client may use the `https` URL of its Client ID Metadata Document as `client_id`: Roda fetches it (5 s timeout, at most 5 kB, cached for 24 hours; never from a loopback, private or link-local address or a local name, so a client_id cannot reach Roda's own network; on Node every address the name resolves to is checked and only a public one is connected to, so a public name that resolves inside the network is refused too; redirects are not followed); its `client_id` must equal the URL and its `redirect_uris` count as registered. Registration needs no account, so it is limited per clock hour: by default 20 clients from one client address and 1,000 in all (`OAUTH_REGISTRATIONS_PER_ADDRESS_PER_HOUR`, `OAUTH_REGISTRATIONS_PER_HOUR`; 0 is no limit); beyond that the answer is 429 `temporarily_unavailable` with `Retry-After` (seconds until the hour ends). The address is the client's: the socket's, or behind the proxies `TRUST_PROXY` trusts the client their `Forwarded` or `X-Forwarded-For` names (headers from any other peer are ignored)."
      )
  )
  .add(
    HttpApiEndpoint.get("authorize", "/oauth/authorize")
      .setUrlParams(AuthorizeQuery)
      .addSuccess(HttpApiSchema.Empty(302))
      .addError(Html, { status: 400 })
      .annotate(OpenApi.Transform, htmlRefusal)
      .annotate(OpenApi.Summary, "Start an authorization (opens the consent screen)")
      .annotate(
        OpenApi.Description,
        "Parameters: `response_type=code`, `client_id`, `redirect_uri`, `code_challenge` with `code_challenge_method=S256`, `state`, `scope` (`read`, `write`; both when absent), `resource` (when given, `{PUBLIC_BASE_URL}/mcp`). An unknown client, or a `redirect_uri` not registered exactly (string equality; on a loopback host the port may differ), answers a 400 HTML page and never redirects. Other errors redirect to `redirect_uri` with `error` (`unsupported_response_type`, `invalid_request` for missing PKCE or a method other than S256, `invalid_scope`, `invalid_target`), `error_description`, `state` and `iss`. Otherwise the request is kept for 10 minutes and the answer is 302 to `/oauth/consent?request_id=…`."
      )
  )
  .add(
    HttpApiEndpoint.get("consentPage", "/oauth/consent")
      .setUrlParams(Schema.Struct({ request_id: text(100) }))
      .addSuccess(Html)
      .annotate(OpenApi.Summary, "The consent page")
      .annotate(
        OpenApi.Description,
        "The HTML page Roda serves for `/oauth/authorize`: sign in with e-mail and password (`POST /api/auth/login`), see who asks (client name and URI, redirect host, scopes), choose one of the account's communities, then Allow (`POST /api/oauth/authorize/consent`) or Deny (`POST /api/oauth/authorize/deny`); the browser then goes to the `redirectTo` those answer. No framing (`frame-ancestors 'none'`), scripts only with the page's nonce."
      )
  )
  .add(
    HttpApiEndpoint.post("token", "/oauth/token")
      .setPayload(TokenForm)
      .addSuccess(TokenResponse)
      .addError(
        refusedWith(
          400,
          "invalid_request",
          "invalid_grant",
          "unsupported_grant_type",
          "invalid_scope",
          "invalid_target"
        )
      )
      .addError(refusedWith(401, "invalid_client"))
      .annotate(OpenApi.Transform, rfcErrors)
      .annotate(OpenApi.Summary, "Issue and renew tokens")
      .annotate(
        OpenApi.Description,
        "`application/x-www-form-urlencoded`; answers carry `Cache-Control: no-store`. `grant_type=authorization_code`: `code` (single use, valid 60 s; a second use revokes the connection the first one created), `code_verifier` (PKCE S256), `redirect_uri` (the authorized one, exactly), `client_id`, `resource` (optional; when given, `{PUBLIC_BASE_URL}/mcp`, else 400 `invalid_target`). `grant_type=refresh_token`: `refresh_token` (rotates on every use: presenting a used one revokes the whole connection), `client_id`, optional `scope` narrowing the grant, optional `resource`. Answer: `{ access_token, token_type: \"Bearer\", expires_in: 3600, refresh_token, scope }`; refresh tokens live 30 days. Errors: 400 `invalid_request`, `invalid_grant`, `unsupported_grant_type`, `invalid_scope`, `invalid_target`; 401 `invalid_client` (unknown client_id). Concurrent uses of one code or refresh token have a single winner."
      )
  )
  .add(
    HttpApiEndpoint.post("revoke", "/oauth/revoke")
      .setPayload(RevokeForm)
      .addSuccess(HttpApiSchema.Empty(200))
      .addError(refusedWith(400, "invalid_request"))
      .annotate(OpenApi.Transform, rfcErrors)
      .annotate(OpenApi.Summary, "Revoke a token (RFC 7009)")
      .annotate(
        OpenApi.Description,
        "`application/x-www-form-urlencoded`: `token` (an access or refresh token), optional `token_type_hint` and `client_id`. Always 200 for a well-formed request (unknown tokens included); revoking either token of a connection ends the connection at once. 400 `invalid_request` without `token`."
      )
  )
{}
