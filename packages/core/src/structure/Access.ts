import type { Statement } from "@effect/sql"
import { Context, type Effect, Option } from "effect"
import type { Coded, Forbidden, InvalidInput, NotFound } from "../domain/AppError"
import type { Member, Visitor } from "../domain/Caller"
import type { CommunityId } from "../domain/Ids"
import type { Message } from "../domain/Text"

export type Visibility = "public" | "private" | "secret"

/** Who is looking: a community, and the member looking, if anyone (anonymous on Public routes). */
export interface Viewer {
  readonly communityId: CommunityId
  readonly member: Option.Option<Member>
}

export const viewerOfMember = (member: Member): Viewer => ({
  communityId: member.communityId,
  member: Option.some(member)
})
export const viewerOfVisitor = (visitor: Visitor): Viewer => ({
  communityId: visitor.communityId,
  member: visitor.member
})

/** A space as one viewer may see it. */
export interface SpaceAccess {
  readonly spaceId: string
  readonly sectionId: string
  readonly module: string
  readonly visibility: Visibility
  /** The space's title (certificates print it). */
  readonly title: string
  /** Owner, admin or moderator: sees and manages everything. */
  readonly isStaff: boolean
  /** Whether the viewer may read the space's content (courses, lessons, events, posts). */
  readonly canReadContent: boolean
}

/** The modules of spaces that other features build on (`Modules.ts` lists them all). */
export type SpaceModule = "feed" | "courses" | "certificates" | "events" | "call4papers"

/** How `spaceOf` refuses a space, as the route that names it answers (each feature keeps its wording). */
export type SpaceOfRefusals =
  /**
   * The `spaceId` of a body (a new course, event, post, call): missing, unknown or hidden from the
   * viewer, or a space of another module, all 400 on `spaceId`.
   */
  | {
    readonly in: "body"
    readonly required: Message
    readonly unknown: Message
    readonly otherModule: Message
  }
  /** A space the path or the query names: unknown or hidden 404 (as `space`), of another module 404. */
  | { readonly in: "path"; readonly otherModule: Message }

/** What `spaceOf` fails with, as `refusals` say (403 only when it reads the content). */
export type SpaceOfRefused<R extends SpaceOfRefusals> =
  | ContentRefused
  | (R extends { readonly in: "body"; readonly required: Message<infer A>; readonly unknown: Message<infer B> }
    ? Coded<InvalidInput, A | B | R["otherModule"]["code"]>
    : SpaceHidden | Coded<NotFound, R["otherModule"]["code"]>)

/**
 * The one place that decides who sees what (issue: sections, spaces and courses):
 * - staff (owner, admin, moderator) see everything;
 * - a member sees `public` and `private` spaces, and a `secret` one only with an entitlement from one
 *   of its grants; the gated content of a space with grants needs such an entitlement;
 * - an anonymous visitor sees only `public` spaces of `public` sections, and their content only when
 *   the space has no grants.
 * Every read of a space's content asks this service.
 */
/** The space is of another community, or hidden from the viewer. */
export type SpaceHidden = Coded<NotFound, "space_unknown">
/** The viewer sees the space but may not read its content. */
export type ContentRefused = Coded<Forbidden, "space_content_forbidden">

export class Access extends Context.Tag("@roda/core/Access")<Access, {
  /** The space as the viewer may see it; 404 when it is of another community or hidden from them. */
  readonly space: (viewer: Viewer, spaceId: string) => Effect.Effect<SpaceAccess, SpaceHidden>
  /** Like `space`, and 403 when the viewer may see the space but not read its content. */
  readonly readContent: (viewer: Viewer, spaceId: string) => Effect.Effect<SpaceAccess, SpaceHidden | ContentRefused>
  /**
   * The space of `module` that a request names, as `space` sees it (or, with `read`, as `readContent`:
   * 403 before the module is checked), refused as `refusals` say. One lookup, like `space`.
   */
  readonly spaceOf: <const R extends SpaceOfRefusals>(
    module: SpaceModule,
    refusals: R,
    options?: { readonly read?: boolean }
  ) => (viewer: Viewer, spaceId: string | null | undefined) => Effect.Effect<SpaceAccess, SpaceOfRefused<R>>
  /** Ids of the community's spaces whose content the viewer may read (for filtering lists in SQL). */
  readonly readableSpaceIds: (viewer: Viewer) => Effect.Effect<ReadonlyArray<string>>
  /**
   * The same spaces as a subquery selecting their ids (`SELECT s.id FROM spaces s …`), for
   * `space_id IN (…)` inside a feature's own statement: no round trip of its own.
   */
  readonly readableSpaces: (viewer: Viewer) => Effect.Effect<Statement.Fragment>
  /**
   * `readableSpaces` of a caller read in the same statement (`DeferredVisitor`): its profile and
   * role as SQL expressions of that statement, both null for a visitor who is no member.
   */
  readonly readableSpacesOf: (communityId: CommunityId, caller: CallerColumns) => Effect.Effect<Statement.Fragment>
}>() {}

/** A caller's profile and role as SQL expressions of the statement that reads them (null: no member). */
export interface CallerColumns {
  readonly profileId: Statement.Fragment
  readonly role: Statement.Fragment
}

/** Space access grants, as stored on a space. */
export interface AccessGrants {
  readonly subscriptionGroupIds: ReadonlyArray<string>
  readonly productIds: ReadonlyArray<string>
}

/**
 * Answers whether access grants exist in a community. Commerce (plans and products) answers it
 * for real; until those tables exist, every grant is unknown.
 */
export class AccessCatalog extends Context.Tag("@roda/core/AccessCatalog")<AccessCatalog, {
  /** The first grant id that does not exist in the community, if any. */
  readonly firstUnknown: (communityId: string, grants: AccessGrants) => Effect.Effect<Option.Option<string>>
}>() {}
