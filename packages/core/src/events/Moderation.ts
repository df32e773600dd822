import { Context, type Effect } from "effect"
import type { CommunityId } from "../domain/Ids"

/**
 * Events' side of moderation (contract; `EventModerationLive`), for a case's resolution:
 * - `hide`: the event is read only by its host (marked `hidden: true`) and staff; it leaves event
 *   lists (but theirs), the feed, search, reactions and comments of others, its reminders and the
 *   reports' counts. Participants keep their place (the event may be shown again by staff later).
 * - `remove`: the soft delete its host's removal does (read by no one, kept for the log), with what
 *   that removal tells: participants going hear it is canceled, and `event.canceled` is sent.
 * Both run in the caller's transaction and change nothing when the event is already hidden (`hide`)
 * or removed (both): a second resolution tells nobody again.
 */
export class EventModeration extends Context.Tag("@roda/core/EventModeration")<EventModeration, {
  readonly hide: (communityId: CommunityId, id: string) => Effect.Effect<void>
  readonly remove: (communityId: CommunityId, id: string) => Effect.Effect<void>
}>() {}
