import { Context, type Effect } from "effect"

/**
 * What the account has granted assistants (OAuth connections), as other features may end it: a
 * sign-out of every session, or an e-mail change taken back, ends the grants too (issue 52).
 */
export class AccountGrants extends Context.Tag("@roda/core/AccountGrants")<AccountGrants, {
  /**
   * Revokes every live connection of the account, in every community: their access tokens answer
   * 401 on `/mcp` and their refresh tokens fail from then on; authorization codes issued but not
   * exchanged yet are voided (the exchange answers `invalid_grant`). How many connections were revoked.
   */
  readonly revokeAll: (accountId: string, reason: string) => Effect.Effect<number>
}>() {}
