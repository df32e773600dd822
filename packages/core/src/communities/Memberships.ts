import type { Fragment } from "@effect/sql/Statement"
import { Clock, Context, Effect, type Option } from "effect"
import { forbidden } from "../domain/AppError"
import { type AccountId, type CommunityId, type ProfileId } from "../domain/Ids"
import type { Role } from "../domain/Role"
import { communityMessages as M } from "./messages"

/** An account and its live, accepted membership in one community (null profile: not a member). */
export interface CallerMembership {
  readonly id: AccountId
  readonly email: string
  readonly fullName: string
  readonly emailVerifiedAt: Date | null
  readonly createdAt: Date
  readonly profileId: ProfileId | null
  readonly role: Role | null
  /** Until when the member may read but not post, comment, react or take part (past or null: not suspended). */
  readonly suspendedUntil: Date | null
  /** The community's slow mode: seconds between two posts of a member in a space (null or 0: off). */
  readonly slowModeSeconds: number | null
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
  /** Sets (a date) or clears (null) the suspension of a live, accepted profile; false when there is none. */
  readonly setSuspension: (communityId: CommunityId, profileId: ProfileId, until: Date | null) => Effect.Effect<boolean>
  /** A profile of the community, removed or not, locked for the caller's transaction (none: not of it). */
  readonly banTarget: (communityId: CommunityId, profileId: ProfileId) => Effect.Effect<Option.Option<BanTarget>>
  /**
   * Removes a live, accepted member as a removal by staff does (`member.left`) and bans the account
   * from coming back until `unban`; false when it is no member or is banned already.
   */
  readonly ban: (communityId: CommunityId, profileId: ProfileId, at: Date, reason: string) => Effect.Effect<boolean>
  /** Lifts a ban (the profile stays removed); false when it was not banned. */
  readonly unban: (communityId: CommunityId, profileId: ProfileId) => Effect.Effect<boolean>
  /** Live, accepted profiles of the community among `profileIds`, with their name and login e-mail. */
  readonly recipients: (
    communityId: string,
    profileIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<ProfileRecipient>>
}>() {}

/** A profile as a ban finds it: its role, whether it is a live, accepted member, and its ban. */
export interface BanTarget {
  readonly role: Role
  readonly member: boolean
  readonly bannedAt: Date | null
}

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

/** 403 with the end date where the member's suspension runs past `now` (nothing otherwise). */
export const suspensionRefusal = (suspendedUntil: Date | null | undefined, now: number) =>
  suspendedUntil != null && suspendedUntil.getTime() > now
    ? Effect.fail(forbidden(M.memberSuspended(suspendedUntil.toISOString())))
    : Effect.void

/**
 * A suspended member reads but cannot post, comment, react or take part (moderation's suspension):
 * 403 `memberSuspended` with the end date until then.
 */
export const requireNotSuspended = (member: { readonly suspendedUntil?: Date | null | undefined }) =>
  member.suspendedUntil == null
    ? Effect.void
    : Effect.flatMap(Clock.currentTimeMillis, (now) => suspensionRefusal(member.suspendedUntil, now))
