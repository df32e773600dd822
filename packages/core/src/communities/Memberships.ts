import type { Fragment } from "@effect/sql/Statement"
import { Context, type Effect, type Option } from "effect"
import { type AccountId, type CommunityId, type ProfileId } from "../domain/Ids"
import type { Role } from "../domain/Role"

/** An account and its live, accepted membership in one community (null profile: not a member). */
export interface CallerMembership {
  readonly id: AccountId
  readonly email: string
  readonly fullName: string
  readonly emailVerifiedAt: Date | null
  readonly createdAt: Date
  readonly profileId: ProfileId | null
  readonly role: Role | null
}

/**
 * Who belongs to a community and with which role: what the request middleware asks of communities
 * (contract; `MembershipsLive` answers it from the communities' own tables).
 */
export class Memberships extends Context.Tag("@roda/core/Memberships")<Memberships, {
  /** The account with its membership in the community, in one statement; none when the account is gone. */
  /**
   * The account and its membership, read in one statement; with `sessionId` (a token's `sid`) only
   * while that sign-in session of the account is open (none otherwise).
   */
  readonly callerIn: (
    communityId: CommunityId,
    accountId: AccountId,
    sessionId?: string
  ) => Effect.Effect<Option.Option<CallerMembership>>
  /**
   * `callerIn`'s membership as a query to put in another statement: one row `(profile_id, role)`
   * when the account exists, both null when it is no member (a route that reads the caller in its
   * own statement: `DeferredMember`).
   */
  readonly callerRow: (communityId: CommunityId, accountId: AccountId, sessionId?: string) => Fragment
  /** The role of a live, accepted profile of the community. */
  readonly profileRole: (communityId: CommunityId, profileId: ProfileId) => Effect.Effect<Option.Option<Role>>
  /** Live, accepted profiles of the community among `profileIds`, with their name and login e-mail. */
  readonly recipients: (
    communityId: string,
    profileIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<ProfileRecipient>>
}>() {}

/** A profile as a recipient of something sent to it (a certificate): name and login e-mail. */
export interface ProfileRecipient {
  readonly profileId: string
  readonly accountId: string
  readonly fullName: string
  readonly email: string
}

/** Where a community wants its notices sent (checkout e-mails each sale there). */
export class CommunityNotices extends Context.Tag("@roda/core/CommunityNotices")<CommunityNotices, {
  /** The address for sale notices, if the community set one. */
  readonly salesEmail: (communityId: string) => Effect.Effect<Option.Option<string>>
  /** The login e-mails of the community's owners (notices about its money: disputes). */
  readonly ownerEmails: (communityId: string) => Effect.Effect<ReadonlyArray<string>>
}>() {}
