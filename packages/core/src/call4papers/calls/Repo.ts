import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { ProfileId, SpaceId } from "../../domain/Ids"
import { callColumns, CallRow, type CallStatus, TrackRow } from "./CallRoles"
import { type InvitationStatus, invitationStatuses, type SpaceMode, spaceModes } from "./Policy"

/** The editable columns of a call. A type alias, so that it is a `Record`. */
export type CallFields = {
  readonly title: string
  readonly slug: string
  readonly description: string | null
  readonly opensAt: Date | null
  readonly closesAt: Date | null
  readonly communityVoting: boolean
  readonly anonymousReviews: boolean
}

export type NewCallRow = CallFields & {
  readonly id: string
  readonly communityId: string
  readonly spaceId: string
  readonly createdByProfileId: string
  readonly createdAt: Date
  readonly updatedAt: Date
}

export type TrackFields = {
  readonly name: string
  readonly description: string | null
  readonly color: string | null
  readonly position: number
}

export const EventDateRow = Schema.Struct({
  id: Schema.String,
  callId: Schema.String,
  /** `YYYY-MM-DD`. */
  date: Schema.String,
  label: Schema.NullOr(Schema.String),
  /** `HH:MM`, or null. */
  startTime: Schema.NullOr(Schema.String),
  endTime: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type EventDateRow = typeof EventDateRow.Type

export type EventDateFields = {
  readonly date: string
  readonly label: string | null
  readonly startTime: string | null
  readonly endTime: string | null
}

export const OwnerRow = Schema.Struct({
  id: Schema.String,
  callId: Schema.String,
  profileId: ProfileId,
  fullName: Schema.String,
  avatarUrl: Schema.NullOr(Schema.String),
  status: Schema.Literal(...invitationStatuses),
  invitedByProfileId: Schema.NullOr(ProfileId),
  invitedAt: Schema.DateFromSelf,
  respondedAt: Schema.NullOr(Schema.DateFromSelf)
})
export type OwnerRow = typeof OwnerRow.Type

export const ReviewerRow = Schema.Struct({ ...OwnerRow.fields, trackId: Schema.String })
export type ReviewerRow = typeof ReviewerRow.Type

export const InvitationRow = Schema.Struct({
  kind: Schema.Literal("owner", "reviewer"),
  id: Schema.String,
  callId: Schema.String,
  callTitle: Schema.String,
  callSlug: Schema.String,
  spaceId: SpaceId,
  trackId: Schema.NullOr(Schema.String),
  trackName: Schema.NullOr(Schema.String),
  invitedByProfileId: Schema.NullOr(ProfileId),
  invitedAt: Schema.DateFromSelf
})
export type InvitationRow = typeof InvitationRow.Type

const rowsOf = <A, I>(row: Schema.Schema<A, I>) => Schema.decodeUnknown(Schema.Array(row))
const decodeSpaceModes = rowsOf(Schema.Struct({ mode: Schema.Literal(...spaceModes), updatedAt: Schema.DateFromSelf }))
const decodeCalls = rowsOf(CallRow)
const decodeTracks = rowsOf(TrackRow)
const decodeNext = rowsOf(Schema.Struct({ next: Schema.Number }))
const decodeDates = rowsOf(EventDateRow)
const decodeOwners = rowsOf(OwnerRow)
const decodeReviewers = rowsOf(ReviewerRow)
const decodeInvitations = rowsOf(InvitationRow)
const decodeIds = rowsOf(Schema.Struct({ id: Schema.String }))

export interface CallListFilter {
  /** Every call (organisers); else only calls that are not drafts, or that `ownerProfileId` owns. */
  readonly all: boolean
  readonly ownerProfileId?: string | undefined
  readonly status?: CallStatus | undefined
  readonly after?: readonly [string, string] | undefined
  readonly limit: number
}

const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

/** SQL for calls, their tracks, event dates, owners, track reviewers and the space configuration. */
export class CallsRepo extends Effect.Service<CallsRepo>()("@roda/core/call4papers/CallsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const selectCall = sql`SELECT ${sql.unsafe(callColumns)} FROM call4papers_calls c`
    const liveCall = (alias: string) =>
      sql.unsafe(`JOIN call4papers_calls c ON c.community_id = ${alias}.community_id AND c.id = ${alias}.call_id
        AND c.deleted_at IS NULL`)
    const selectTrack = sql`SELECT t.id, t.community_id, t.call_id, t.name, t.description, t.color, t.position,
      t.created_at, t.updated_at FROM call4papers_tracks t ${liveCall("t")}`
    const selectDate = sql`SELECT d.id, d.call_id, to_char(d.date, 'YYYY-MM-DD') AS date, d.label,
      to_char(d.start_time, 'HH24:MI') AS start_time, to_char(d.end_time, 'HH24:MI') AS end_time,
      d.created_at, d.updated_at FROM call4papers_event_dates d ${liveCall("d")}`
    const selectOwner = sql`SELECT o.id, o.call_id, o.profile_id, p.full_name, p.avatar_url, o.status,
      o.invited_by_profile_id, o.invited_at, o.responded_at FROM call4papers_owners o ${liveCall("o")}
      JOIN member_cards p ON p.community_id = o.community_id AND p.id = o.profile_id`
    const selectReviewer = sql`SELECT r.id, r.call_id, r.track_id, r.profile_id, p.full_name, p.avatar_url,
      r.status, r.invited_by_profile_id, r.invited_at, r.responded_at FROM call4papers_track_reviewers r
      ${liveCall("r")}
      JOIN call4papers_tracks t ON t.community_id = r.community_id AND t.id = r.track_id AND t.deleted_at IS NULL
      JOIN member_cards p ON p.community_id = r.community_id AND p.id = r.profile_id`

    return {
      // space configuration
      spaceMode: (communityId: string, spaceId: string) =>
        sql`SELECT mode, updated_at FROM call4papers_spaces
          WHERE community_id = ${communityId} AND space_id = ${spaceId}`.pipe(
          Effect.flatMap(decodeSpaceModes),
          Effect.map(first),
          Effect.orDie
        ),
      setSpaceMode: (communityId: string, spaceId: string, mode: SpaceMode, now: Date) =>
        sql`INSERT INTO call4papers_spaces (community_id, space_id, mode, updated_at)
          VALUES (${communityId}, ${spaceId}, ${mode}, ${now})
          ON CONFLICT (community_id, space_id) DO UPDATE SET mode = excluded.mode, updated_at = excluded.updated_at`
          .pipe(Effect.asVoid, Effect.orDie),

      // calls
      findBySlug: (communityId: string, spaceId: string, slug: string) =>
        sql`${selectCall} WHERE c.community_id = ${communityId} AND c.space_id = ${spaceId}
          AND c.slug = ${slug} AND c.deleted_at IS NULL`.pipe(
          Effect.flatMap(decodeCalls),
          Effect.map(first),
          Effect.orDie
        ),
      /** Fails with the SqlError of a unique violation when the slug is taken in the space. */
      insertCall: (row: NewCallRow) => sql`INSERT INTO call4papers_calls ${sql.insert(row)}`.pipe(Effect.asVoid),
      /** Fails with the SqlError of a unique violation when the new slug is taken. */
      updateCall: (communityId: string, id: string, changes: Partial<CallFields>, now: Date) =>
        sql`UPDATE call4papers_calls SET ${sql.update({ ...changes, updatedAt: now })}
          WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL`.pipe(Effect.asVoid),
      setCallStatus: (communityId: string, id: string, status: CallStatus, now: Date) =>
        sql`UPDATE call4papers_calls SET status = ${status}, updated_at = ${now},
            published_at = CASE WHEN ${status}::text = 'published' THEN ${now} ELSE published_at END,
            closed_at = CASE WHEN ${status}::text = 'closed' THEN ${now} WHEN ${status}::text = 'published' THEN NULL
              ELSE closed_at END
          WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL`.pipe(Effect.asVoid, Effect.orDie),
      softDeleteCall: (communityId: string, id: string, now: Date) =>
        sql`UPDATE call4papers_calls SET deleted_at = ${now}, updated_at = ${now}
          WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL`.pipe(Effect.asVoid, Effect.orDie),
      /** Calls of a space, newest first (keyset `[createdAt ISO, id]`). */
      listCalls: (communityId: string, spaceId: string, filter: CallListFilter) => {
        const conditions = [
          sql`c.community_id = ${communityId}`,
          sql`c.space_id = ${spaceId}`,
          sql`c.deleted_at IS NULL`,
          ...(filter.all
            ? []
            : filter.ownerProfileId
            ? [sql`(c.status <> 'draft' OR EXISTS (SELECT 1 FROM call4papers_owners o
                WHERE o.community_id = c.community_id AND o.call_id = c.id
                  AND o.profile_id = ${filter.ownerProfileId} AND o.status = 'accepted'))`]
            : [sql`c.status <> 'draft'`]),
          ...(filter.status ? [sql`c.status = ${filter.status}`] : []),
          ...(filter.after ? [sql`(c.created_at, c.id) < (${new Date(filter.after[0])}, ${filter.after[1]})`] : [])
        ]
        return sql`${selectCall} WHERE ${sql.and(conditions)}
          ORDER BY c.created_at DESC, c.id DESC LIMIT ${filter.limit + 1}`.pipe(
          Effect.flatMap(decodeCalls),
          Effect.orDie
        )
      },

      // tracks
      findTrack: (communityId: string, trackId: string) =>
        sql`${selectTrack} WHERE t.community_id = ${communityId} AND t.id = ${trackId}
          AND t.deleted_at IS NULL`.pipe(Effect.flatMap(decodeTracks), Effect.map(first), Effect.orDie),
      listTracks: (communityId: string, callId: string, after: readonly [number, string] | undefined, limit: number) =>
        sql`${selectTrack} WHERE t.community_id = ${communityId} AND t.call_id = ${callId}
          AND t.deleted_at IS NULL ${after ? sql`AND (t.position, t.id) > (${after[0]}, ${after[1]})` : sql``}
          ORDER BY t.position, t.id LIMIT ${limit + 1}`.pipe(Effect.flatMap(decodeTracks), Effect.orDie),
      nextTrackPosition: (communityId: string, callId: string) =>
        sql`SELECT coalesce(max(position), 0)::int + 1 AS next FROM call4papers_tracks
          WHERE community_id = ${communityId} AND call_id = ${callId} AND deleted_at IS NULL`.pipe(
          Effect.flatMap(decodeNext),
          Effect.map((rows) => rows[0]?.next ?? 1),
          Effect.orDie
        ),
      /** Fails with the SqlError of a unique violation when the name is taken in the call. */
      insertTrack: (
        row: TrackFields & { id: string; communityId: string; callId: string; createdAt: Date; updatedAt: Date }
      ) => sql`INSERT INTO call4papers_tracks ${sql.insert(row)}`.pipe(Effect.asVoid),
      /** Fails with the SqlError of a unique violation when the new name is taken. */
      updateTrack: (communityId: string, id: string, changes: Partial<TrackFields>, now: Date) =>
        sql`UPDATE call4papers_tracks SET ${sql.update({ ...changes, updatedAt: now })}
          WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL`.pipe(Effect.asVoid),
      softDeleteTrack: (communityId: string, id: string, now: Date) =>
        sql`UPDATE call4papers_tracks SET deleted_at = ${now}, updated_at = ${now}
          WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL`.pipe(Effect.asVoid, Effect.orDie),

      // event dates
      findDate: (communityId: string, dateId: string) =>
        sql`${selectDate}
          WHERE d.community_id = ${communityId} AND d.id = ${dateId}`.pipe(
          Effect.flatMap(decodeDates),
          Effect.map(first),
          Effect.orDie
        ),
      listDates: (communityId: string, callId: string, after: readonly [string, string] | undefined, limit: number) =>
        sql`${selectDate} WHERE d.community_id = ${communityId} AND d.call_id = ${callId}
          ${after ? sql`AND (d.date, d.id) > (${after[0]}::date, ${after[1]})` : sql``}
          ORDER BY d.date, d.id LIMIT ${limit + 1}`.pipe(Effect.flatMap(decodeDates), Effect.orDie),
      /** Fails with the SqlError of a unique violation when the day is already listed. */
      insertDate: (
        row: EventDateFields & { id: string; communityId: string; callId: string; createdAt: Date; updatedAt: Date }
      ) =>
        sql`INSERT INTO call4papers_event_dates
            (id, community_id, call_id, date, label, start_time, end_time, created_at, updated_at)
          VALUES (${row.id}, ${row.communityId}, ${row.callId}, ${row.date}::date, ${row.label},
            ${row.startTime}::time, ${row.endTime}::time, ${row.createdAt}, ${row.updatedAt})`.pipe(Effect.asVoid),
      /** Fails with the SqlError of a unique violation when the new day is already listed. */
      updateDate: (communityId: string, id: string, fields: EventDateFields, now: Date) =>
        sql`UPDATE call4papers_event_dates SET date = ${fields.date}::date, label = ${fields.label},
            start_time = ${fields.startTime}::time, end_time = ${fields.endTime}::time, updated_at = ${now}
          WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid),
      deleteDate: (communityId: string, id: string) =>
        sql`DELETE FROM call4papers_event_dates WHERE community_id = ${communityId} AND id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),

      // owners
      findOwner: (communityId: string, ownerId: string) =>
        sql`${selectOwner} WHERE o.community_id = ${communityId} AND o.id = ${ownerId}`.pipe(
          Effect.flatMap(decodeOwners),
          Effect.map(first),
          Effect.orDie
        ),
      ownerOf: (communityId: string, callId: string, profileId: string) =>
        sql`${selectOwner} WHERE o.community_id = ${communityId} AND o.call_id = ${callId}
          AND o.profile_id = ${profileId}`.pipe(Effect.flatMap(decodeOwners), Effect.map(first), Effect.orDie),
      listOwners: (communityId: string, callId: string, after: readonly [string, string] | undefined, limit: number) =>
        sql`${selectOwner} WHERE o.community_id = ${communityId} AND o.call_id = ${callId}
          ${after ? sql`AND (o.invited_at, o.id) > (${new Date(after[0])}, ${after[1]})` : sql``}
          ORDER BY o.invited_at, o.id LIMIT ${limit + 1}`.pipe(Effect.flatMap(decodeOwners), Effect.orDie),
      /** A new invitation, or a declined one made pending again (same id); the row's id. */
      inviteOwner: (
        row: {
          id: string
          communityId: string
          callId: string
          profileId: string
          status: InvitationStatus
          invitedByProfileId: string
        },
        now: Date
      ) =>
        sql`INSERT INTO call4papers_owners
            (id, community_id, call_id, profile_id, status, invited_by_profile_id, invited_at, responded_at)
          VALUES (${row.id}, ${row.communityId}, ${row.callId}, ${row.profileId}, ${row.status},
            ${row.invitedByProfileId}, ${now}, ${row.status === "pending" ? null : now})
          ON CONFLICT (community_id, call_id, profile_id) DO UPDATE SET status = excluded.status,
            invited_by_profile_id = excluded.invited_by_profile_id, invited_at = excluded.invited_at,
            responded_at = excluded.responded_at
            WHERE call4papers_owners.status = 'declined'
          RETURNING id`.pipe(
          Effect.flatMap(decodeIds),
          Effect.map((rows) => Option.fromNullable(rows[0]?.id)),
          Effect.orDie
        ),
      /** Conditional: only a pending invitation is answered; false when it was not pending any more. */
      answerOwner: (communityId: string, id: string, status: InvitationStatus, now: Date) =>
        sql`UPDATE call4papers_owners SET status = ${status}, responded_at = ${now}
          WHERE community_id = ${communityId} AND id = ${id} AND status = 'pending' RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      deleteOwner: (communityId: string, id: string) =>
        sql`DELETE FROM call4papers_owners WHERE community_id = ${communityId} AND id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),

      // track reviewers
      findReviewer: (communityId: string, reviewerId: string) =>
        sql`${selectReviewer} WHERE r.community_id = ${communityId} AND r.id = ${reviewerId}`.pipe(
          Effect.flatMap(decodeReviewers),
          Effect.map(first),
          Effect.orDie
        ),
      listReviewers: (
        communityId: string,
        trackId: string,
        after: readonly [string, string] | undefined,
        limit: number
      ) =>
        sql`${selectReviewer} WHERE r.community_id = ${communityId} AND r.track_id = ${trackId}
          ${after ? sql`AND (r.invited_at, r.id) > (${new Date(after[0])}, ${after[1]})` : sql``}
          ORDER BY r.invited_at, r.id LIMIT ${limit + 1}`.pipe(Effect.flatMap(decodeReviewers), Effect.orDie),
      inviteReviewer: (
        row: { id: string; communityId: string; callId: string; trackId: string; profileId: string },
        invitedBy: string,
        now: Date
      ) =>
        sql`INSERT INTO call4papers_track_reviewers
            (id, community_id, call_id, track_id, profile_id, status, invited_by_profile_id, invited_at)
          VALUES (${row.id}, ${row.communityId}, ${row.callId}, ${row.trackId}, ${row.profileId}, 'pending',
            ${invitedBy}, ${now})
          ON CONFLICT (community_id, track_id, profile_id) DO UPDATE SET status = 'pending',
            invited_by_profile_id = excluded.invited_by_profile_id, invited_at = excluded.invited_at,
            responded_at = NULL
            WHERE call4papers_track_reviewers.status = 'declined'
          RETURNING id`.pipe(
          Effect.flatMap(decodeIds),
          Effect.map((rows) => Option.fromNullable(rows[0]?.id)),
          Effect.orDie
        ),
      answerReviewer: (communityId: string, id: string, status: InvitationStatus, now: Date) =>
        sql`UPDATE call4papers_track_reviewers SET status = ${status}, responded_at = ${now}
          WHERE community_id = ${communityId} AND id = ${id} AND status = 'pending' RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      deleteReviewer: (communityId: string, id: string) =>
        sql`DELETE FROM call4papers_track_reviewers WHERE community_id = ${communityId} AND id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),

      /** Pending invitations (both kinds) of a profile, oldest first (keyset `[invitedAt ISO, id]`). */
      pendingInvitations: (
        communityId: string,
        profileId: string,
        after: readonly [string, string] | undefined,
        limit: number
      ) =>
        sql`SELECT * FROM (
            SELECT 'owner' AS kind, o.id, o.call_id, c.title AS call_title, c.slug AS call_slug, c.space_id,
              NULL::uuid AS track_id, NULL::text AS track_name, o.invited_by_profile_id, o.invited_at
            FROM call4papers_owners o ${liveCall("o")}
            WHERE o.community_id = ${communityId} AND o.profile_id = ${profileId} AND o.status = 'pending'
            UNION ALL
            SELECT 'reviewer' AS kind, r.id, r.call_id, c.title, c.slug, c.space_id, r.track_id, t.name,
              r.invited_by_profile_id, r.invited_at
            FROM call4papers_track_reviewers r ${liveCall("r")}
            JOIN call4papers_tracks t ON t.community_id = r.community_id AND t.id = r.track_id
              AND t.deleted_at IS NULL
            WHERE r.community_id = ${communityId} AND r.profile_id = ${profileId} AND r.status = 'pending'
          ) i
          ${after ? sql`WHERE (i.invited_at, i.id) > (${new Date(after[0])}, ${after[1]})` : sql``}
          ORDER BY i.invited_at, i.id LIMIT ${limit + 1}`.pipe(Effect.flatMap(decodeInvitations), Effect.orDie)
    }
  })
}) {}
