import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { notFound } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { CommunityId, isUuid, ProfileId, SpaceId } from "../../domain/Ids"
import { isStaff } from "../../domain/Role"
import { CallMessages } from "./messages"

import { callStatuses } from "./statuses"
export { type CallStatus, callStatuses } from "./statuses"

/** A call for papers as stored (`call4papers_calls`), never a soft-deleted one. */
export const CallRow = Schema.Struct({
  id: Schema.String,
  communityId: CommunityId,
  spaceId: SpaceId,
  title: Schema.String,
  slug: Schema.String,
  description: Schema.NullOr(Schema.String),
  status: Schema.Literal(...callStatuses),
  opensAt: Schema.NullOr(Schema.DateFromSelf),
  closesAt: Schema.NullOr(Schema.DateFromSelf),
  communityVoting: Schema.Boolean,
  anonymousReviews: Schema.Boolean,
  createdByProfileId: ProfileId,
  publishedAt: Schema.NullOr(Schema.DateFromSelf),
  closedAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type CallRow = typeof CallRow.Type

/** A track of a call (`call4papers_tracks`), never a removed one. */
export const TrackRow = Schema.Struct({
  id: Schema.String,
  communityId: CommunityId,
  callId: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  color: Schema.NullOr(Schema.String),
  position: Schema.Number,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type TrackRow = typeof TrackRow.Type

const decodeCalls = Schema.decodeUnknown(Schema.Array(CallRow))
const decodeTracks = Schema.decodeUnknown(Schema.Array(TrackRow))
const decodeRoles = Schema.decodeUnknown(
  Schema.Array(Schema.Struct({ kind: Schema.Literal("owner", "reviewer"), trackId: Schema.NullOr(Schema.String) }))
)

/** What one caller is on one call. */
export interface CallRolesOf {
  /** Community staff (owner, admin, moderator): organiser of every call. */
  readonly staff: boolean
  /** An accepted owner of this call. */
  readonly owner: boolean
  /** Staff or accepted owner: organiser rights on this call. */
  readonly organiser: boolean
  /** Tracks (not removed) of this call the caller reviews (accepted invitations only). */
  readonly reviewerTrackIds: ReadonlyArray<string>
}

export const noRoles: CallRolesOf = { staff: false, owner: false, organiser: false, reviewerTrackIds: [] }

/** Whether anyone (anonymous and plain members included) may see the call: it is not a draft. */
export const isPublicCall = (call: Pick<CallRow, "status">) => call.status !== "draft"

/**
 * Whether the call takes new submissions at `now`: published (not draft, not closed), and inside
 * its optional window (`opensAt` reached, `closesAt` not yet).
 */
export const acceptsSubmissions = (call: CallRow, now: Date) =>
  call.status === "published" &&
  (call.opensAt === null || call.opensAt.getTime() <= now.getTime()) &&
  (call.closesAt === null || now.getTime() < call.closesAt.getTime())

export const callColumns = `c.id, c.community_id, c.space_id, c.title, c.slug, c.description, c.status,
  c.opens_at, c.closes_at, c.community_voting, c.anonymous_reviews, c.created_by_profile_id,
  c.published_at, c.closed_at, c.created_at, c.updated_at`

/**
 * The read helpers both halves of calls for papers share (calls and submissions): the call of an
 * id, and what a caller is on it. Roles are those of the caller's own profile (`profileId`), never of
 * an `X-ProfileId` profile acted as (spec §5: the acted profile's role is not lent).
 */
export class CallRoles extends Effect.Service<CallRoles>()("@roda/core/call4papers/CallRoles", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** The call, or 404 when absent, of another community, or soft-deleted. */
    const callFor = (communityId: string, callId: string) =>
      !isUuid(callId.trim()) ?
        Effect.fail(notFound(CallMessages.callNotFound)) :
        sql`SELECT ${sql.unsafe(callColumns)} FROM call4papers_calls c
        WHERE c.community_id = ${communityId} AND c.id = ${callId.trim().toLowerCase()}
          AND c.deleted_at IS NULL`.pipe(
          Effect.flatMap(decodeCalls),
          Effect.orDie,
          Effect.flatMap((rows) =>
            rows[0] === undefined ? Effect.fail(notFound(CallMessages.callNotFound)) : Effect.succeed(rows[0])
          )
        )

    /** Like `callFor`, with the call row locked (`FOR UPDATE`) for the rest of the transaction. */
    const lockCall = (communityId: string, callId: string) =>
      !isUuid(callId.trim()) ?
        Effect.fail(notFound(CallMessages.callNotFound)) :
        sql`SELECT ${sql.unsafe(callColumns)} FROM call4papers_calls c
        WHERE c.community_id = ${communityId} AND c.id = ${callId.trim().toLowerCase()}
          AND c.deleted_at IS NULL FOR UPDATE`.pipe(
          Effect.flatMap(decodeCalls),
          Effect.orDie,
          Effect.flatMap((rows) =>
            rows[0] === undefined ? Effect.fail(notFound(CallMessages.callNotFound)) : Effect.succeed(rows[0])
          )
        )

    /** What the member is on the call; `Option.none()` (anonymous) has no role. */
    const rolesOf = (call: CallRow, caller: Member | Option.Option<Member>) => {
      const member = Option.isOption(caller) ? Option.getOrUndefined(caller) : caller
      if (member === undefined) return Effect.succeed(noRoles)
      return sql`
        SELECT 'owner' AS kind, NULL::uuid AS track_id FROM call4papers_owners o
          WHERE o.community_id = ${call.communityId} AND o.call_id = ${call.id}
            AND o.profile_id = ${member.profileId} AND o.status = 'accepted'
        UNION ALL
        SELECT 'reviewer' AS kind, r.track_id FROM call4papers_track_reviewers r
          JOIN call4papers_tracks t ON t.community_id = r.community_id AND t.id = r.track_id
            AND t.deleted_at IS NULL
          WHERE r.community_id = ${call.communityId} AND r.call_id = ${call.id}
            AND r.profile_id = ${member.profileId} AND r.status = 'accepted'`.pipe(
        Effect.flatMap(decodeRoles),
        Effect.orDie,
        Effect.map((rows): CallRolesOf => {
          const staff = isStaff(member.role)
          const owner = rows.some((row) => row.kind === "owner")
          return {
            staff,
            owner,
            organiser: staff || owner,
            reviewerTrackIds: rows.flatMap((row) => (row.kind === "reviewer" && row.trackId ? [row.trackId] : []))
          }
        })
      )
    }

    /** A track of the call (not removed), if any. */
    const trackOf = (call: CallRow, trackId: string) =>
      !isUuid(trackId.trim()) ?
        Effect.succeed(Option.none<TrackRow>()) :
        sql`SELECT id, community_id, call_id, name, description, color, position, created_at, updated_at
        FROM call4papers_tracks
        WHERE community_id = ${call.communityId} AND call_id = ${call.id} AND id = ${trackId.trim().toLowerCase()}
          AND deleted_at IS NULL`.pipe(
          Effect.flatMap(decodeTracks),
          Effect.orDie,
          Effect.map((rows) => Option.fromNullable(rows[0]))
        )

    return { callFor, lockCall, rolesOf, trackOf }
  })
}) {}
