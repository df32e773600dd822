import { SCOPES } from "./scopes"
import type { OAuthUrlsShape } from "./urls"

/** RFC 9728: the MCP resource and who issues its tokens. */
export const protectedResourceMetadata = (urls: OAuthUrlsShape) => ({
  resource: urls.resource,
  authorization_servers: [urls.issuer],
  scopes_supported: SCOPES,
  bearer_methods_supported: ["header"],
  resource_name: "Roda MCP server"
})

/** RFC 8414: the authorization server. */
export const authorizationServerMetadata = (urls: OAuthUrlsShape) => ({
  issuer: urls.issuer,
  authorization_endpoint: `${urls.issuer}/oauth/authorize`,
  token_endpoint: `${urls.issuer}/oauth/token`,
  registration_endpoint: `${urls.issuer}/oauth/register`,
  revocation_endpoint: `${urls.issuer}/oauth/revoke`,
  response_types_supported: ["code"],
  response_modes_supported: ["query"],
  grant_types_supported: ["authorization_code", "refresh_token"],
  code_challenge_methods_supported: ["S256"],
  token_endpoint_auth_methods_supported: ["none"],
  revocation_endpoint_auth_methods_supported: ["none"],
  scopes_supported: SCOPES,
  authorization_response_iss_parameter_supported: true,
  client_id_metadata_document_supported: true
})
