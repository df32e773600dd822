import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Effect, Option, Schema } from "effect"
import { CommunityId, isUuid, ProfileId, SpaceId } from "../domain/Ids"
import { decodeRows } from "../domain/Rows"
import { eventTypes, participantStatuses, type StreamStatus, streamStatuses } from "./Policy"

const eventFields = {
  title: Schema.String,
  slug: Schema.String,
  description: Schema.NullOr(Schema.String),
  type: Schema.Literal(...eventTypes),
  startTime: Schema.DateFromSelf,
  endTime: Schema.DateFromSelf,
  timezone: Schema.NullOr(Schema.String),
  capacity: Schema.NullOr(Schema.Number),
  categoryId: Schema.NullOr(Schema.String),
  joinUrl: Schema.NullOr(Schema.String),
  street: Schema.NullOr(Schema.String),
  number: Schema.NullOr(Schema.String),
  complement: Schema.NullOr(Schema.String),
  neighbourhood: Schema.NullOr(Schema.String),
  city: Schema.NullOr(Schema.String),
  state: Schema.NullOr(Schema.String),
  postalCode: Schema.NullOr(Schema.String),
  country: Schema.NullOr(Schema.String)
}

/** The editable columns of an event. A type alias (not an interface), so that it is a `Record`. */
export type EventFields = Schema.Struct.Type<typeof eventFields>

/** An event as read, with its participant counts. */
export const EventRow = Schema.Struct({
  ...eventFields,
  id: Schema.String,
  communityId: CommunityId,
  spaceId: SpaceId,
  hostProfileId: ProfileId,
  streamStatus: Schema.Literal(...streamStatuses),
  streamStartedAt: Schema.NullOr(Schema.DateFromSelf),
  streamEndedAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf,
  /** Hidden by a moderator (`hidden_at`): read only by its host and staff. */
  hidden: Schema.Boolean,
  /** Participants going and waitlisted (read with the event). */
  going: Schema.Number,
  waitlisted: Schema.Number
})
export type EventRow = typeof EventRow.Type

export type NewEventRow = EventFields & {
  readonly id: string
  readonly communityId: string
  readonly spaceId: string
  readonly hostProfileId: string
  readonly createdAt: Date
  readonly updatedAt: Date
}

const ParticipantStatus = Schema.Literal(...participantStatuses)
type ParticipantStatus = typeof ParticipantStatus.Type

export const ParticipantRow = Schema.Struct({
  eventId: Schema.String,
  profileId: ProfileId,
  fullName: Schema.String,
  avatarUrl: Schema.NullOr(Schema.String),
  status: ParticipantStatus,
  checkedInAt: Schema.NullOr(Schema.DateFromSelf),
  joinedAt: Schema.DateFromSelf,
  /** The sequence number, as text (a bigint). */
  joinSeq: Schema.String,
  updatedAt: Schema.DateFromSelf
})
export type ParticipantRow = typeof ParticipantRow.Type

const decodeEvents = decodeRows(EventRow)
const decodeParticipants = decodeRows(ParticipantRow)
const decodeIds = decodeRows(Schema.Struct({ id: Schema.String }))
const decodeParticipations = decodeRows(Schema.Struct({
  status: ParticipantStatus,
  joinedAt: Schema.DateFromSelf,
  checkedInAt: Schema.NullOr(Schema.DateFromSelf)
}))
const decodeCount = decodeRows(Schema.Struct({ count: Schema.Number }))
const decodeEventsWithOwn = decodeRows(Schema.Struct({
  ...EventRow.fields,
  ownStatus: Schema.NullOr(ParticipantStatus),
  ownJoinedAt: Schema.NullOr(Schema.DateFromSelf),
  ownCheckedInAt: Schema.NullOr(Schema.DateFromSelf)
}))
const decodeProfileIds = decodeRows(Schema.Struct({ profileId: ProfileId }))

export interface EventFilter {
  /** Only events of these spaces; `undefined` means every space (staff). */
  readonly spaceIds?: ReadonlyArray<string> | undefined
  readonly spaceId?: string | undefined
  /** Only events that have not ended at this instant. */
  readonly endingAfter?: Date | undefined
  /** Who also sees hidden events: `"staff"` all of them, a profile id those it hosts; none by default. */
  readonly seer?: string | null | undefined
  readonly after?: readonly [string, string] | undefined
  readonly limit: number
}

export interface ParticipantFilter {
  readonly statuses: ReadonlyArray<ParticipantStatus>
  readonly after?: readonly [string, string] | undefined
  readonly limit: number
}

const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

/** SQL for events and their participants. */
export class EventsRepo extends Effect.Service<EventsRepo>()("@roda/core/EventsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const count = (status: ParticipantStatus) =>
      sql`(SELECT count(*)::int FROM event_participants p
        WHERE p.community_id = e.community_id AND p.event_id = e.id AND p.status = ${status})`
    const select = sql`SELECT e.id, e.community_id, e.space_id, e.host_profile_id, e.title, e.slug, e.description,
      e.type, e.start_time, e.end_time, e.timezone, e.capacity, e.category_id, e.join_url, e.street, e.number,
      e.complement, e.neighbourhood, e.city, e.state, e.postal_code, e.country, e.stream_status,
      e.stream_started_at, e.stream_ended_at, e.created_at, e.updated_at, e.hidden_at IS NOT NULL AS hidden,
      ${count("going")} AS going, ${count("waitlisted")} AS waitlisted
      FROM events e`
    const live = (communityId: CommunityId) => sql`e.community_id = ${communityId} AND e.deleted_at IS NULL`
    /** The participant a write (`RETURNING *`) touched, with their profile's name. */
    const withParticipant = (write: Fragment) =>
      sql`WITH p AS (${write})
        SELECT p.event_id, p.profile_id, pr.full_name, pr.avatar_url, p.status, p.checked_in_at,
          p.joined_at, p.join_seq::text AS join_seq, p.updated_at
        FROM p JOIN member_cards pr ON pr.community_id = p.community_id AND pr.id = p.profile_id`.pipe(
        Effect.flatMap(decodeParticipants),
        Effect.flatMap((rows) =>
          rows[0] === undefined ? Effect.dieMessage("no participant written") : Effect.succeed(rows[0])
        ),
        Effect.orDie
      )

    return {
      find: (communityId: CommunityId, id: string) =>
        sql`${select} WHERE ${live(communityId)} AND e.id = ${id}`.pipe(
          Effect.flatMap(decodeEvents),
          Effect.map(first),
          Effect.orDie
        ),
      /**
       * By id or by slug (an id-shaped slug is found too; the id wins, like courses: a host may not
       * take over another event's links by giving their event its id as slug).
       */
      findByIdentifier: (communityId: CommunityId, identifier: string) => {
        const value = identifier.trim().toLowerCase()
        const match = isUuid(value) ? sql`(e.id = ${value} OR e.slug = ${value})` : sql`e.slug = ${value}`
        return sql`${select} WHERE ${live(communityId)} AND ${match}
          ORDER BY (e.slug = ${value}) LIMIT 1`.pipe(Effect.flatMap(decodeEvents), Effect.map(first), Effect.orDie)
      },
      /** Locks the event row (participation and stream moves are serialised per event); false when gone. */
      lock: (communityId: CommunityId, id: string) =>
        sql`SELECT id FROM events
          WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL FOR UPDATE`.pipe(
          Effect.flatMap(decodeIds),
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      /** Fails with the SqlError of a unique violation when the slug is taken in the community. */
      insert: (row: NewEventRow) => sql`INSERT INTO events ${sql.insert(row)}`.pipe(Effect.asVoid),
      /** Fails with the SqlError of a unique violation when the new slug is taken. */
      update: (communityId: CommunityId, id: string, changes: Partial<EventFields>, now: Date) =>
        sql`UPDATE events SET ${sql.update({ ...changes, updatedAt: now })}
          WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL`.pipe(Effect.asVoid),
      setStream: (
        communityId: CommunityId,
        id: string,
        changes: { streamStatus: StreamStatus; streamStartedAt?: Date; streamEndedAt?: Date },
        now: Date
      ) =>
        sql`UPDATE events SET ${sql.update({ ...changes, updatedAt: now })}
          WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      softDelete: (communityId: CommunityId, id: string, now: Date) =>
        sql`UPDATE events SET deleted_at = ${now}, updated_at = ${now}
          WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      /** Events by start time, then id (keyset `[startTime ISO, id]`). */
      list: (communityId: CommunityId, filter: EventFilter) => {
        if (filter.spaceIds !== undefined && filter.spaceIds.length === 0) return Effect.succeed([])
        const conditions = [
          live(communityId),
          ...(filter.spaceId ? [sql`e.space_id = ${filter.spaceId}`] : []),
          ...(filter.spaceIds ? [sql.in("e.space_id", filter.spaceIds)] : []),
          ...(filter.endingAfter ? [sql`e.end_time > ${filter.endingAfter}`] : []),
          ...(filter.seer === "staff"
            ? []
            : [
              filter.seer ? sql`(e.hidden_at IS NULL OR e.host_profile_id = ${filter.seer})` : sql`e.hidden_at IS NULL`
            ]),
          ...(filter.after
            ? [sql`(e.start_time, e.id) > (${new Date(filter.after[0])}, ${filter.after[1]})`]
            : [])
        ]
        return sql`${select} WHERE ${sql.and(conditions)}
          ORDER BY e.start_time, e.id LIMIT ${filter.limit + 1}`.pipe(Effect.orDie, Effect.flatMap(decodeEvents))
      },
      /**
       * `find` with the profile's participation (`participation`), in one statement: read under the
       * event's lock (`lock`), its counts are those the toggle decides on.
       */
      findWithParticipation: (communityId: CommunityId, id: string, profileId: ProfileId) =>
        sql`SELECT x.*, o.status AS own_status, o.joined_at AS own_joined_at, o.checked_in_at AS own_checked_in_at
          FROM (${select} WHERE ${live(communityId)} AND e.id = ${id}) x
          LEFT JOIN event_participants o ON o.community_id = x.community_id AND o.event_id = x.id
            AND o.profile_id = ${profileId}`.pipe(
          Effect.flatMap(decodeEventsWithOwn),
          Effect.map((rows) =>
            Option.map(first(rows), ({ ownCheckedInAt, ownJoinedAt, ownStatus, ...event }) => ({
              event,
              participation: ownStatus === null || ownJoinedAt === null
                ? Option.none()
                : Option.some({ status: ownStatus, joinedAt: ownJoinedAt, checkedInAt: ownCheckedInAt })
            }))
          ),
          Effect.orDie
        ),
      participation: (communityId: CommunityId, eventId: string, profileId: ProfileId) =>
        sql`
          SELECT status, joined_at, checked_in_at FROM event_participants
          WHERE community_id = ${communityId} AND event_id = ${eventId} AND profile_id = ${profileId}`.pipe(
          Effect.flatMap(decodeParticipations),
          Effect.map(first),
          Effect.orDie
        ),
      goingCount: (communityId: CommunityId, eventId: string) =>
        sql`SELECT count(*)::int AS count FROM event_participants
          WHERE community_id = ${communityId} AND event_id = ${eventId} AND status = 'going'`.pipe(
          Effect.flatMap(decodeCount),
          Effect.map((rows) => rows[0]?.count ?? 0),
          Effect.orDie
        ),
      /**
       * Joins (or joins again: a new place at the end of the line, the ticket code kept); the participant
       * as the participants list shows them, in the same statement.
       */
      join: (
        row: {
          communityId: CommunityId
          eventId: string
          profileId: ProfileId
          status: ParticipantStatus
          ticketCode: string
        },
        now: Date
      ) =>
        withParticipant(
          sql`INSERT INTO event_participants
            (community_id, event_id, profile_id, status, joined_at, updated_at, ticket_code)
          VALUES (${row.communityId}, ${row.eventId}, ${row.profileId}, ${row.status}, ${now}, ${now},
            ${row.ticketCode})
          ON CONFLICT (community_id, event_id, profile_id) DO UPDATE SET status = excluded.status,
            joined_at = excluded.joined_at, join_seq = nextval('event_participants_join_seq'),
            updated_at = excluded.updated_at
          RETURNING *`
        ),
      /** Cancels; the participant as `join` answers them. */
      leave: (communityId: CommunityId, eventId: string, profileId: ProfileId, now: Date) =>
        withParticipant(sql`UPDATE event_participants SET status = 'cancelled', updated_at = ${now}
          WHERE community_id = ${communityId} AND event_id = ${eventId} AND profile_id = ${profileId}
          RETURNING *`),
      /** Promotes the `seats` oldest waitlisted people (every one when `seats` is null); their ids. */
      promote: (communityId: CommunityId, eventId: string, seats: number | null, now: Date) =>
        seats !== null && seats <= 0
          ? Effect.succeed<ReadonlyArray<ProfileId>>([])
          : sql`UPDATE event_participants SET status = 'going', updated_at = ${now}
              WHERE community_id = ${communityId} AND event_id = ${eventId} AND profile_id IN (
                SELECT profile_id FROM event_participants
                WHERE community_id = ${communityId} AND event_id = ${eventId} AND status = 'waitlisted'
                ORDER BY joined_at, join_seq LIMIT ${seats})
              RETURNING profile_id`.pipe(
            Effect.flatMap(decodeProfileIds),
            Effect.map((rows) => rows.map((row) => row.profileId)),
            Effect.orDie
          ),
      /** Participants in line order (keyset `[joinedAt ISO, joinSeq]`), with their profile's name. */
      participants: (communityId: CommunityId, eventId: string, filter: ParticipantFilter) => {
        if (filter.statuses.length === 0) return Effect.succeed([])
        const conditions = [
          sql`p.community_id = ${communityId}`,
          sql`p.event_id = ${eventId}`,
          sql.in("p.status", filter.statuses),
          ...(filter.after
            ? [sql`(p.joined_at, p.join_seq) > (${new Date(filter.after[0])}, ${filter.after[1]}::bigint)`]
            : [])
        ]
        return sql`SELECT p.event_id, p.profile_id, pr.full_name, pr.avatar_url, p.status, p.checked_in_at,
            p.joined_at, p.join_seq::text AS join_seq, p.updated_at
          FROM event_participants p
          JOIN member_cards pr ON pr.community_id = p.community_id AND pr.id = p.profile_id
          WHERE ${sql.and(conditions)} ORDER BY p.joined_at, p.join_seq LIMIT ${filter.limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeParticipants)
        )
      }
    }
  })
}) {}
