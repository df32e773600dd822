import { Context, Effect, Layer } from "effect"
import { Options } from "../platform/Options"
import type { McpScope } from "./McpAccess"
import { SCOPES } from "./scopes"

/** The names the OAuth server and the MCP resource go by, from `publicBaseUrl`. */
export interface OAuthUrlsShape {
  /** The issuer: `publicBaseUrl` without a trailing slash. */
  readonly issuer: string
  /** The MCP resource: `${issuer}/mcp`. */
  readonly resource: string
  readonly resourceMetadata: string
  readonly challenge: string
  readonly insufficientScope: (scope: McpScope) => string
  /** Client ID Metadata Documents may be fetched over plain HTTP from loopback hosts (tests only). */
  readonly allowHttpMetadataDocuments: boolean
}

export const makeUrls = (publicBaseUrl: string, allowHttpMetadataDocuments = false): OAuthUrlsShape => {
  const issuer = publicBaseUrl.replace(/\/+$/, "")
  const resourceMetadata = `${issuer}/.well-known/oauth-protected-resource/mcp`
  return {
    issuer,
    resource: `${issuer}/mcp`,
    resourceMetadata,
    challenge: `Bearer resource_metadata="${resourceMetadata}", scope="${SCOPES.join(" ")}"`,
    insufficientScope: (scope) =>
      `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${resourceMetadata}"`,
    allowHttpMetadataDocuments
  }
}

export class OAuthUrls extends Context.Tag("@roda/core/OAuthUrls")<OAuthUrls, OAuthUrlsShape>() {
  static readonly layer = Layer.effect(
    OAuthUrls,
    Effect.map(Options, (options) => makeUrls(options.publicBaseUrl, options.oauthAllowHttpMetadataDocuments === true))
  )
}
