import { Context, type Option } from "effect"
import type { Role } from "./Role"

/** The account a valid access token belongs to. */
export interface Account {
  readonly id: string
  readonly email: string
  readonly fullName: string
  readonly isPlatformAdmin: boolean
  /** The holder used a link sent to this e-mail. */
  readonly emailVerified: boolean
  readonly createdAt: Date
}

export class CurrentAccount extends Context.Tag("@roda/core/CurrentAccount")<CurrentAccount, Account>() {}

/** A member of the community named by `X-CommunityId`. */
export interface Member {
  readonly account: Account
  readonly communityId: string
  readonly profileId: string
  /** The caller's own role; acting as another profile never lends its role (spec §5). */
  readonly role: Role
  /** The profile named by `X-ProfileId`, or the caller's own. */
  readonly actingProfileId: string
}

export class CurrentMember extends Context.Tag("@roda/core/CurrentMember")<CurrentMember, Member>() {}

/** The caller of a Public route: a community, and whoever they are in it, if anyone. */
export interface Visitor {
  readonly communityId: string
  readonly account: Option.Option<Account>
  readonly member: Option.Option<Member>
}

export class CurrentVisitor extends Context.Tag("@roda/core/CurrentVisitor")<CurrentVisitor, Visitor>() {}
