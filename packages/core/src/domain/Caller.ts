import type { Fragment } from "@effect/sql/Statement"
import { Context, type Effect, type Option } from "effect"
import type { AccountId, CommunityId, ProfileId } from "./Ids"
import type { Role } from "./Role"
import type { MemberScopeFailure, PublicScopeFailure } from "./ScopeFailures"

/** The account a valid access token belongs to. */
export interface Account {
  readonly id: AccountId
  readonly email: string
  readonly fullName: string
  readonly isPlatformAdmin: boolean
  /** The holder used a link sent to this e-mail. */
  readonly emailVerified: boolean
  readonly createdAt: Date
  /** The sign-in session of the request's token (`sid`); absent where no token was read (the CLI). */
  readonly sessionId?: string | undefined
}

/**
 * What a verified access token names: its account and its sign-in session; or what a live API key
 * names: the account it acts as, and the key (no session: the key was checked as it was read).
 */
export interface TokenSubject {
  readonly accountId: AccountId
  readonly sessionId?: string | undefined
  readonly apiKeyId?: string | undefined
}

export class CurrentAccount extends Context.Tag("@roda/core/CurrentAccount")<CurrentAccount, Account>() {}

/** A member of the community named by `X-CommunityId`. */
export interface Member {
  readonly account: Account
  readonly communityId: CommunityId
  readonly profileId: ProfileId
  /** The caller's own role; acting as another profile never lends its role (spec §5). */
  readonly role: Role
  /** The profile named by `X-ProfileId`, or the caller's own. */
  readonly actingProfileId: ProfileId
  /**
   * Until when the caller's own membership is suspended (moderation): reads only, no posting,
   * commenting, reacting or taking part. Absent, null or past: not suspended.
   */
  readonly suspendedUntil?: Date | null | undefined
  /**
   * The community's slow mode, read with the membership: seconds between two posts of a member
   * (not staff) in one space. Absent, null or 0: off.
   */
  readonly slowModeSeconds?: number | null | undefined
}

export class CurrentMember extends Context.Tag("@roda/core/CurrentMember")<CurrentMember, Member>() {}

/** The caller of a Public route: a community, and whoever they are in it, if anyone. */
export interface Visitor {
  readonly communityId: CommunityId
  readonly account: Option.Option<Account>
  readonly member: Option.Option<Member>
}

export class CurrentVisitor extends Context.Tag("@roda/core/CurrentVisitor")<CurrentVisitor, Visitor>() {}

/**
 * The caller of a member route that reads the membership in its own statement (`DeferredMemberScope`):
 * the token and the community header are checked, the membership is not read yet, saving that
 * statement's round trip. The route puts `caller` in its statement and, where it found no member,
 * answers `refuse`; a failure the route finds before its statement (its input) comes after `settle`.
 */
export interface DeferredMember {
  readonly communityId: CommunityId
  /** The token's account (not read yet: it may be no member, or gone). */
  readonly accountId: AccountId
  /** Read already where the request names an `X-ProfileId` (its rules need the caller's role). */
  readonly member: Option.Option<Member>
  /**
   * A query of one row, `(profile_id, role)`, when the token's account exists: `profile_id` and
   * `role` are null when it is no member of the community.
   */
  readonly caller: Fragment
  /** MemberScope's refusal where the statement found no member: 401 without the account, else 403. */
  readonly refuse: (accountFound: boolean) => Effect.Effect<never, MemberScopeFailure>
  /** The membership read and checked as MemberScope does (one statement). */
  readonly settle: Effect.Effect<Member, MemberScopeFailure>
}

export class CurrentDeferredMember
  extends Context.Tag("@roda/core/CurrentDeferredMember")<CurrentDeferredMember, DeferredMember>()
{}

/**
 * The caller of a Public route that reads the caller in its own statement (`DeferredPublicScope`):
 * the community header and the token are checked; where the token names an account and no
 * `X-ProfileId` is named, the account and its membership are left to the route's statement
 * (`Deferred`), saving that statement's round trip. Otherwise the visitor is read already (`Read`:
 * anonymous, or with an `X-ProfileId`, whose rules need the caller's role).
 */
export type DeferredVisitor =
  | { readonly _tag: "Read"; readonly visitor: Visitor }
  | {
    readonly _tag: "Deferred"
    readonly communityId: CommunityId
    /**
     * A query of one row, `(profile_id, role)`, when the token's account exists: `profile_id` and
     * `role` are null when it is no member of the community (`Memberships.callerRow`).
     */
    readonly caller: Fragment
    /** PublicScope's refusal where the statement found no account: 401. */
    readonly refuse: Effect.Effect<never, PublicScopeFailure>
    /** The visitor read as PublicScope reads it (one statement). */
    readonly settle: Effect.Effect<Visitor, PublicScopeFailure>
  }

export class CurrentDeferredVisitor
  extends Context.Tag("@roda/core/CurrentDeferredVisitor")<CurrentDeferredVisitor, DeferredVisitor>()
{}
