import { Schema } from "effect"
import { CommunityId, ProfileId, SpaceId } from "../domain/Ids"

/**
 * Contract (events -> whoever listens): when staff check a participant in (the first time), events
 * enqueues a durable job of this kind (`platform/Jobs.ts`, keyed by event and profile, in the
 * check-in's transaction). Certificates handles it (the `event_attendance` rule); a handler must be
 * idempotent, since a job may run again.
 */
export const EVENT_ATTENDED_JOB = "events.attended"

export const EventAttended = Schema.Struct({
  communityId: CommunityId,
  spaceId: SpaceId,
  eventId: Schema.String,
  profileId: ProfileId
})
export type EventAttended = typeof EventAttended.Type
