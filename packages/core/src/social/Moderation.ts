import { Context, type Effect } from "effect"
import type { Coded, NotFound } from "../domain/AppError"
import type { CommunityId } from "../domain/Ids"
import type { Viewer } from "../structure/Access"

/** What moderation acts on in social: status posts, comments and content posts. */
export const moderatedTypes = ["status", "comment", "content"] as const
export type ModeratedType = typeof moderatedTypes[number]

/** A post or comment as a report names it: who wrote it and the start of its text. */
export interface ModeratedItem {
  readonly id: string
  readonly authorProfileId: string
  /** The first 280 characters (a content post: its title, then its body). */
  readonly excerpt: string
}

/** Not found in the community, removed, or not readable by the viewer (`SocialItems.resolve`'s rules). */
export type ItemUnseen = Coded<NotFound, "status_not_found" | "comment_not_found" | "content_not_found">

/**
 * Social's side of moderation (contract; `SocialModerationLive`): the item a member reports, as
 * they may read it, and the moderators' `hide` (only the author and staff read it; out of the feed,
 * search and counts) and `remove` (the soft delete an author's removal does: read by no one, kept for
 * the log). Both run in the caller's transaction and change nothing when the item is already gone.
 */
export class SocialModeration extends Context.Tag("@roda/core/SocialModeration")<SocialModeration, {
  readonly item: (viewer: Viewer, type: ModeratedType, id: string) => Effect.Effect<ModeratedItem, ItemUnseen>
  readonly hide: (communityId: CommunityId, type: ModeratedType, id: string) => Effect.Effect<void>
  readonly remove: (communityId: CommunityId, type: ModeratedType, id: string) => Effect.Effect<void>
}>() {}
