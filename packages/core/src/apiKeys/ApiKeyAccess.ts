import { Context, type Effect, type Option } from "effect"
import type { AccountId, CommunityId } from "../domain/Ids"
import type { ApiKeyScope } from "./scopes"

/** What a live API key grants: its community, the account it acts as (its creator), its scopes. */
export interface ApiKeyGrant {
  readonly keyId: string
  readonly accountId: AccountId
  readonly communityId: CommunityId
  readonly scopes: ReadonlyArray<ApiKeyScope>
}

/** Every API key starts so (`rk_` and at least 40 characters of base64url). */
export const API_KEY_PATTERN = /^rk_[A-Za-z0-9_-]{40,}$/

/**
 * How the request middleware and the MCP server check an API key (contract; `ApiKeyAccessLive`
 * answers it from the keys' own table). Read from the database on every request, so that a
 * revocation holds on the next request on every process.
 */
export class ApiKeyAccess extends Context.Tag("@roda/core/ApiKeyAccess")<ApiKeyAccess, {
  /**
   * The key's grant while it is neither revoked nor expired (none otherwise, or for a key of no
   * such form); marks it used (`lastUsedAt`) at most once a minute per key and process.
   */
  readonly authenticate: (key: string) => Effect.Effect<Option.Option<ApiKeyGrant>>
}>() {}
