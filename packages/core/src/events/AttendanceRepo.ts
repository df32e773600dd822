import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import type { CommunityId } from "../domain/Ids"
import { ProfileId } from "../domain/Ids"
import { decodeRows } from "../domain/Rows"
import { participantStatuses } from "./Policy"

/** Who a check-in names: a profile, or the code of their ticket. */
export type Attendee = { readonly profileId: string } | { readonly code: string }

export const AttendeeRow = Schema.Struct({
  profileId: ProfileId,
  fullName: Schema.String,
  avatarUrl: Schema.NullOr(Schema.String),
  status: Schema.Literal(...participantStatuses),
  checkedInAt: Schema.NullOr(Schema.DateFromSelf)
})
export type AttendeeRow = typeof AttendeeRow.Type

const CheckedInRow = Schema.Struct({
  profileId: ProfileId,
  fullName: Schema.String,
  avatarUrl: Schema.NullOr(Schema.String),
  checkedInAt: Schema.DateFromSelf
})
export type CheckedInRow = typeof CheckedInRow.Type

const decodeAttendees = decodeRows(AttendeeRow)
const decodeCheckedIn = decodeRows(CheckedInRow)
const decodeCounts = decodeRows(Schema.Struct({ going: Schema.Number, checkedIn: Schema.Number }))
const decodeTickets = decodeRows(Schema.Struct({ profileId: ProfileId, ticketCode: Schema.String }))
const decodeProfileIds = decodeRows(Schema.Struct({ profileId: ProfileId }))

/** SQL of tickets, check-in, attendance and the notices sent to participants (events' own tables). */
export class AttendanceRepo extends Effect.Service<AttendanceRepo>()("@roda/core/EventAttendanceRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const who = (attendee: Attendee) =>
      "profileId" in attendee ? sql`p.profile_id = ${attendee.profileId}` : sql`p.ticket_code = ${attendee.code}`

    return {
      /** The participant a check-in names, with their profile's name. */
      find: (communityId: CommunityId, eventId: string, attendee: Attendee) =>
        sql`SELECT p.profile_id, pr.full_name, pr.avatar_url, p.status, p.checked_in_at
          FROM event_participants p
          JOIN member_cards pr ON pr.community_id = p.community_id AND pr.id = p.profile_id
          WHERE p.community_id = ${communityId} AND p.event_id = ${eventId} AND ${who(attendee)}`.pipe(
          Effect.flatMap(decodeAttendees),
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        ),
      /**
       * Records the arrival of someone going who has not arrived yet; whether this call wrote it. Two
       * concurrent calls: the second waits on the row, sees it checked in, and writes nothing.
       */
      checkIn: (communityId: CommunityId, eventId: string, profileId: string, at: Date) =>
        sql`UPDATE event_participants SET checked_in_at = ${at}, updated_at = ${at}
          WHERE community_id = ${communityId} AND event_id = ${eventId} AND profile_id = ${profileId}
            AND status = 'going' AND checked_in_at IS NULL
          RETURNING profile_id`.pipe(
          Effect.flatMap(decodeProfileIds),
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      counts: (communityId: CommunityId, eventId: string) =>
        sql`SELECT count(*) FILTER (WHERE status = 'going')::int AS going,
            count(*) FILTER (WHERE checked_in_at IS NOT NULL)::int AS checked_in
          FROM event_participants WHERE community_id = ${communityId} AND event_id = ${eventId}`.pipe(
          Effect.flatMap(decodeCounts),
          Effect.map((rows) => rows[0] ?? { going: 0, checkedIn: 0 }),
          Effect.orDie
        ),
      /** Checked-in people by arrival (keyset `[checkedInAt ISO, profileId]`). */
      checkedIn: (
        communityId: CommunityId,
        eventId: string,
        page: { readonly after?: readonly [string, string] | undefined; readonly limit: number }
      ) =>
        sql`SELECT p.profile_id, pr.full_name, pr.avatar_url, p.checked_in_at
          FROM event_participants p
          JOIN member_cards pr ON pr.community_id = p.community_id AND pr.id = p.profile_id
          WHERE p.community_id = ${communityId} AND p.event_id = ${eventId} AND p.checked_in_at IS NOT NULL
            ${
          page.after ? sql`AND (p.checked_in_at, p.profile_id) > (${new Date(page.after[0])}, ${page.after[1]})` : sql``
        }
          ORDER BY p.checked_in_at, p.profile_id LIMIT ${page.limit + 1}`.pipe(
          Effect.flatMap(decodeCheckedIn),
          Effect.orDie
        ),
      /** The ticket codes of the participants going (of `profileIds` when given), in line order. */
      tickets: (communityId: CommunityId, eventId: string, profileIds?: ReadonlyArray<string>) =>
        profileIds !== undefined && profileIds.length === 0
          ? Effect.succeed([])
          : sql`SELECT profile_id, ticket_code FROM event_participants
              WHERE community_id = ${communityId} AND event_id = ${eventId} AND status = 'going'
                ${profileIds === undefined ? sql`` : sql`AND ${sql.in("profile_id", profileIds)}`}
              ORDER BY joined_at, join_seq`.pipe(Effect.flatMap(decodeTickets), Effect.orDie),
      /**
       * Records `notice` as sent to those of `profileIds` it was not sent to yet; those (the others were
       * told before: a job that runs again).
       */
      firstNotice: (
        communityId: CommunityId,
        eventId: string,
        profileIds: ReadonlyArray<string>,
        notice: string,
        at: Date
      ) =>
        profileIds.length === 0
          ? Effect.succeed<ReadonlyArray<string>>([])
          : sql`INSERT INTO event_notices (community_id, event_id, profile_id, notice, sent_at)
              SELECT ${communityId}, ${eventId}, id::uuid, ${notice}, ${at}
              FROM jsonb_array_elements_text(${JSON.stringify(profileIds)}::jsonb) AS id
              ON CONFLICT DO NOTHING RETURNING profile_id`.pipe(
            Effect.flatMap(decodeProfileIds),
            Effect.map((rows) => rows.map((row) => row.profileId as string)),
            Effect.orDie
          )
    }
  })
}) {}
