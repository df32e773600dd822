import { Context, type Effect, type Option } from "effect"
import type { CommunityId } from "../domain/Ids"
import type { ModeratedType } from "./Moderation"

/** A post or comment held for approval by the community's `moderation` settings. */
export interface PendingItem {
  readonly type: ModeratedType
  readonly id: string
  readonly authorProfileId: string
  readonly authorName: string | null
  /** The first 280 characters (a content post: its title, then its body). */
  readonly excerpt: string
  /** A comment's item (`status`, `content`, `course`, `event`) and its id; null for posts. */
  readonly itemType: string | null
  readonly itemId: string | null
  readonly spaceId: string | null
  readonly createdAt: Date
  /** Held by an edit of a post or comment already published (its text as edited), not when it was written. */
  readonly edited: boolean
  /** `held_at` with microseconds, for the keyset. */
  readonly cursorTime: string
}

/**
 * Social's held content (contract; `SocialPendingLive`): the queue, newest first (keyset on the
 * time it was held and its id), and its approval (visible from then on; its mentions, followers,
 * replies and `post.created` / `comment.created` event are told then; for an `edited` item, those
 * its edited text newly mentions) or rejection (removed, kept for the log: an edited item too, as
 * its earlier text is not kept). Both run in the caller's transaction; none when the id is not waiting (already
 * decided, another community's, unknown): of two approvals at once, one finds it waiting.
 */
export class SocialPending extends Context.Tag("@roda/core/SocialPending")<SocialPending, {
  readonly list: (
    communityId: CommunityId,
    after: readonly [string, string] | undefined,
    limit: number
  ) => Effect.Effect<ReadonlyArray<PendingItem>>
  readonly approve: (communityId: CommunityId, id: string) => Effect.Effect<Option.Option<PendingItem>>
  readonly reject: (communityId: CommunityId, id: string) => Effect.Effect<Option.Option<PendingItem>>
}>() {}
