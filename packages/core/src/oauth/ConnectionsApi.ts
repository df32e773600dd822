import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Forbidden, InvalidInput, NotFound } from "../domain/AppError"
import { Ok, Page } from "../domain/Envelope"
import { declared } from "../domain/Failure"
import { Uuid } from "../domain/Ids"
import { PageQuery } from "../domain/Pagination"
import { OneOf } from "../domain/Role"
import { ParametersRefused, WriteRefused } from "../http/requestFailures"
import { MemberScope } from "../http/Security"
import { Scope } from "./Api"

const Connection = Schema.Struct({
  id: Schema.String,
  client: Schema.Struct({ id: Schema.String, name: Schema.String }),
  clientName: Schema.String,
  accountId: Schema.String,
  scopes: Schema.Array(Scope),
  createdAt: Schema.String,
  lastUsedAt: Schema.NullOr(Schema.String)
})

const Diagnostics = Schema.Struct({
  id: Schema.String,
  protocolVersion: Schema.NullOr(Schema.String),
  serverVersion: Schema.NullOr(Schema.String),
  tools: Schema.Array(Schema.String),
  lastUsedAt: Schema.NullOr(Schema.String),
  lastError: Schema.NullOr(Schema.String)
})

const AuditEntry = Schema.Struct({
  id: Schema.String,
  connectionId: Schema.NullOr(Schema.String),
  accountId: Schema.String,
  profileId: Schema.String,
  clientName: Schema.String,
  tool: Schema.String,
  arguments: Schema.Unknown,
  outcome: OneOf("ok", "error"),
  error: Schema.NullOr(Schema.String),
  durationMs: Schema.Number,
  createdAt: Schema.String
})

const ID = Schema.Struct({ id: Uuid })
const SEES =
  "Members see their own connections; owners and admins see all of the community's (another member's answers 403 `Função necessária: owner ou admin. Sua função: …` to others; another community's, or a revoked one, 404)."

/** Connected assistants of the community and the MCP audit (Bearer + X-CommunityId). */
export class OAuthConnectionsApi extends HttpApiGroup.make("oauthConnections")
  .annotateContext(OpenApi.annotations({ title: "OAuth 2.1 and MCP" }))
  .add(
    HttpApiEndpoint.get("list", "/oauth/connections")
      .setUrlParams(PageQuery)
      .addSuccess(Page(Connection))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(ParametersRefused)
      .annotate(OpenApi.Summary, "Connected assistants")
      .annotate(
        OpenApi.Description,
        `The live connections in the community, newest first (keyset: \`limit\`, \`cursor\`): client, scopes, \`createdAt\`, \`lastUsedAt\` (updated at most once a minute). ${SEES}`
      )
  )
  .add(
    HttpApiEndpoint.del("disconnect", "/oauth/connections/:id")
      .setPath(ID)
      .addSuccess(Ok(Schema.Null))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "connection_not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Summary, "Disconnect an assistant")
      .annotate(
        OpenApi.Description,
        `Revokes the connection's tokens at once: its next \`/mcp\` call answers 401, its refresh token \`invalid_grant\`. ${SEES}`
      )
  )
  .add(
    HttpApiEndpoint.get("diagnostics", "/oauth/connections/:id/diagnostics")
      .setPath(ID)
      .addSuccess(Ok(Diagnostics))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "connection_not_found"))
      .addError(ParametersRefused)
      .annotate(OpenApi.Summary, "Connection diagnostics")
      .annotate(
        OpenApi.Description,
        `What the assistant's last MCP session saw: \`protocolVersion\`, \`serverVersion\`, \`tools\` (names), \`lastUsedAt\`, \`lastError\` (null until it connects). ${SEES}`
      )
  )
  .add(
    HttpApiEndpoint.get("audit", "/oauth/audit")
      .setUrlParams(PageQuery)
      .addSuccess(Page(AuditEntry))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(declared(Forbidden, "role_required"))
      .addError(ParametersRefused)
      .annotate(OpenApi.Summary, "MCP audit of the community")
      .annotate(
        OpenApi.Description,
        "Owner or admin (403 `Função necessária: owner ou admin. Sua função: …` otherwise). Every MCP tool call in the community, newest first (keyset: `limit`, `cursor`): connection (null for stdio), account, profile, client, tool, arguments (values of keys such as password, token, secret, authorization or cardToken replaced by `[redacted]`), outcome, error, duration in ms, time."
      )
  )
  .middleware(MemberScope)
  .prefix("/api")
{}
