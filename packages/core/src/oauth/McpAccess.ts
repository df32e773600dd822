import { Context, Data, type Effect } from "effect"
import type { ApiKeyScope } from "../apiKeys/scopes"
import type { Coded, Forbidden, InvalidInput, RateLimited, Unauthenticated } from "../domain/AppError"
import type { Member } from "../domain/Caller"

/** `read`: tools that change nothing; `write`: every tool. */
export type McpScope = "read" | "write"

/** Who an MCP request acts as: bound to the account and community of its token, never to tool arguments. */
export interface McpCaller {
  /** The OAuth connection; `null` for a local (stdio) caller authenticated with an `/api` token. */
  readonly connectionId: string | null
  readonly clientName: string
  /** The account's own profile and role in the connection's community. */
  readonly member: Member
  readonly scopes: ReadonlyArray<McpScope>
  /** Set for a caller authenticated with an API key: each tool then needs its route's key scope. */
  readonly apiKey?: { readonly id: string; readonly scopes: ReadonlyArray<ApiKeyScope> } | undefined
}

/** What an API key at `/mcp` or over stdio can be refused for besides 401: another community, its limit. */
export type McpKeyRefused =
  | Coded<Forbidden, "api_key_other_community" | "not_member">
  | Coded<RateLimited, "rate_limited">

/** No token, or an invalid, expired, revoked or wrong-audience one: answer 401 with `challenge`. */
export class McpUnauthorized extends Data.TaggedError("McpUnauthorized")<{ readonly reason: string }> {}

export interface McpToolCall {
  readonly caller: McpCaller
  readonly tool: string
  /** Recorded with secrets redacted by the implementation. */
  readonly arguments: unknown
  readonly outcome: "ok" | "error"
  readonly error?: string | undefined
  readonly durationMs: number
}

export interface McpSessionInfo {
  readonly protocolVersion: string
  readonly serverVersion: string
  readonly tools: ReadonlyArray<string>
}

/**
 * The contract between the OAuth server (this folder, which owns connections, tokens and the audit)
 * and the MCP server (`@roda/mcp`), which checks every request through it.
 */
export class McpAccess extends Context.Tag("@roda/core/McpAccess")<McpAccess, {
  /** The MCP resource URL, `${publicBaseUrl}/mcp`. */
  readonly resource: string
  /** `WWW-Authenticate` value of a 401 at `/mcp` (resource_metadata and scope). */
  readonly challenge: string
  /** `WWW-Authenticate` value of a 403 for a tool that needs `scope`. */
  readonly insufficientScope: (scope: McpScope) => string
  /**
   * Checks an MCP access token (audience = `resource`) and marks the connection used; or an API key
   * (`rk_…`, acting in its own community, counted against its limit).
   */
  readonly authenticate: (accessToken: string) => Effect.Effect<McpCaller, McpUnauthorized | McpKeyRefused>
  /**
   * stdio: an `/api` access token (spec §5) and a community id, both scopes; or an API key, in its
   * own community (a community id given must be it). 401/403/429 as the API does.
   */
  readonly authenticateLocal: (
    apiToken: string,
    communityId: string | undefined
  ) => Effect.Effect<
    McpCaller,
    | Coded<Unauthenticated, "token_required" | "token_invalid">
    | Coded<InvalidInput, "community_header_missing">
    | Coded<Forbidden, "not_member">
    | McpKeyRefused
  >
  /** Writes one entry of the MCP audit. Never fails the tool call. */
  readonly recordCall: (call: McpToolCall) => Effect.Effect<void>
  /** Remembers what the connection's client saw at `initialize` (for diagnostics); `lastError` clears when absent. */
  readonly recordSession: (
    connectionId: string,
    info: McpSessionInfo & { readonly lastError?: string | undefined }
  ) => Effect.Effect<void>
}>() {}
