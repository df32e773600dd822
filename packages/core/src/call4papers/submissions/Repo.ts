import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { judgingStatements } from "./judgingStatements"
import { offerStatements } from "./offerStatements"
import { peopleStatements } from "./peopleStatements"
import { type CoSpeakerStatus, type SubmissionStatus, submissionStatuses } from "./Policy"
import {
  decodeSubmissions,
  first,
  type ListFilter,
  MovedRow,
  rowsOf,
  SpeakerRow,
  VersionRow,
  type Visibility
} from "./rows"
import { submissionSql } from "./submissionSql"

const decodeStatus = rowsOf(Schema.Struct({ status: Schema.Literal(...submissionStatuses) }))
const decodeVersion = rowsOf(Schema.Struct({ version: Schema.Number }))
const decodeVersions = rowsOf(VersionRow)
const decodeSpeakers = rowsOf(SpeakerRow)
const decodeIds = rowsOf(Schema.Struct({ id: Schema.String }))
const decodeMoved = rowsOf(MovedRow)

/** A move's change of the submission row (`setStatus`). */
interface StatusChanges {
  status: SubmissionStatus
  submittedAt?: Date
  decidedAt?: Date
  confirmedAt?: Date
  withdrawnAt?: Date
  agreedOfferId?: string | null
  decisionNote?: string | null
}

export type {
  ListFilter,
  MovedRow,
  OfferRow,
  OfferTerms,
  ReviewRow,
  SpeakerRow,
  SubmissionRow,
  TallyRow,
  VersionRow,
  Visibility
} from "./rows"

/** SQL for submissions, their speakers, versions, reviews, votes, offers and speaker invitations. */
export class SubmissionsRepo extends Effect.Service<SubmissionsRepo>()("@roda/core/call4papers/SubmissionsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const shared = submissionSql(sql)
    const { columns, joins, select, visible } = shared
    // in JSON a timestamptz would be written in the session's time zone
    const epochMs = (column: string) => sql`floor(extract(epoch FROM ${sql(column)}) * 1000)::int8`

    return {
      find: (communityId: string, id: string) =>
        sql`${select} WHERE s.community_id = ${communityId} AND s.id = ${id}`.pipe(
          Effect.flatMap(decodeSubmissions),
          Effect.map(first),
          Effect.orDie
        ),
      /** Locks the submission row for the rest of the transaction; false when it is gone. */
      /** Whether the profile reviewed or voted on the submission (a co-speaker may not have). */
      reviewedOrVoted: (communityId: string, submissionId: string, profileId: string) =>
        sql`SELECT 1 AS one FROM call4papers_reviews
          WHERE community_id = ${communityId} AND submission_id = ${submissionId} AND reviewer_profile_id = ${profileId}
          UNION ALL
          SELECT 1 FROM call4papers_votes
          WHERE community_id = ${communityId} AND submission_id = ${submissionId} AND profile_id = ${profileId}
          LIMIT 1`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
      /** Locks the submission's row; its status as locked, or undefined when there is none. */
      lock: (communityId: string, id: string) =>
        sql`SELECT status FROM call4papers_submissions
          WHERE community_id = ${communityId} AND id = ${id} FOR UPDATE`.pipe(
          Effect.flatMap(decodeStatus),
          Effect.map((rows) => rows[0]?.status),
          Effect.orDie
        ),
      insert: (row: {
        id: string
        communityId: string
        callId: string
        trackId: string | null
        proposerProfileId: string
        title: string
        abstract: string
        createdAt: Date
        updatedAt: Date
      }) => sql`INSERT INTO call4papers_submissions ${sql.insert(row)}`.pipe(Effect.asVoid, Effect.orDie),
      /** The proposer's edit: new text, one more version. */
      edit: (
        communityId: string,
        id: string,
        changes: { title: string; abstract: string; trackId: string | null },
        now: Date
      ) =>
        sql`UPDATE call4papers_submissions SET title = ${changes.title},
          abstract = ${changes.abstract}, track_id = ${changes.trackId}, version = version + 1, updated_at = ${now}
          WHERE community_id = ${communityId} AND id = ${id} RETURNING version`.pipe(
          Effect.flatMap(decodeVersion),
          Effect.map((rows) => rows[0]?.version ?? 1),
          Effect.orDie
        ),
      setStatus: (communityId: string, id: string, changes: StatusChanges, now: Date) =>
        sql`UPDATE call4papers_submissions SET ${sql.update({ ...changes, updatedAt: now })}
          WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      /**
       * `setStatus` answering the submission as changed, with its speakers and versions (which no move
       * changes), all in the UPDATE's statement: what its webhook event tells.
       */
      setStatusReturning: (communityId: string, id: string, changes: StatusChanges, now: Date) =>
        sql`WITH moved AS (
            UPDATE call4papers_submissions SET ${sql.update({ ...changes, updatedAt: now })}
            WHERE community_id = ${communityId} AND id = ${id} RETURNING *
          )
          SELECT ${columns},
            (SELECT coalesce(json_agg(sp ORDER BY sp.position), '[]') FROM (
              SELECT sp.submission_id, sp.profile_id, m.full_name, m.avatar_url, sp.role, sp.position, sp.status
              FROM call4papers_submission_speakers sp
              JOIN member_cards m ON m.community_id = sp.community_id AND m.id = sp.profile_id
              WHERE sp.community_id = s.community_id AND sp.submission_id = s.id
            ) sp) AS speakers,
            (SELECT coalesce(json_agg(v ORDER BY v.version), '[]') FROM (
              SELECT version, title, abstract, track_id, co_speaker_profile_ids, author_profile_id,
                ${epochMs("created_at")} AS created_at
              FROM call4papers_submission_versions WHERE community_id = s.community_id AND submission_id = s.id
            ) v) AS versions
          FROM moved s ${joins}`.pipe(
          Effect.flatMap(decodeMoved),
          Effect.flatMap((rows) =>
            rows[0] === undefined
              ? Effect.dieMessage(`submission ${id} not found after its move`)
              : Effect.succeed(rows[0])
          ),
          Effect.orDie
        ),
      insertVersion: (row: {
        communityId: string
        submissionId: string
        version: number
        title: string
        abstract: string
        trackId: string | null
        coSpeakerProfileIds: ReadonlyArray<string>
        authorProfileId: string
        createdAt: Date
      }) =>
        sql`INSERT INTO call4papers_submission_versions (community_id, submission_id, version, title, abstract,
          track_id, co_speaker_profile_ids, author_profile_id, created_at)
          VALUES (${row.communityId}, ${row.submissionId}, ${row.version}, ${row.title}, ${row.abstract},
            ${row.trackId}, ${`{${row.coSpeakerProfileIds.join(",")}}`}::uuid[], ${row.authorProfileId},
            ${row.createdAt})`.pipe(Effect.asVoid, Effect.orDie),
      versions: (communityId: string, submissionId: string) =>
        sql`SELECT version, title, abstract, track_id, co_speaker_profile_ids::text[] AS co_speaker_profile_ids,
          author_profile_id, created_at FROM call4papers_submission_versions
          WHERE community_id = ${communityId} AND submission_id = ${submissionId} ORDER BY version`.pipe(
          Effect.flatMap(decodeVersions),
          Effect.orDie
        ),
      /**
       * Sets the speakers: the proposer first (always `accepted`), then the named co-speakers in order.
       * Co-speakers left off the list lose their row; those who stay keep their status (an accepted one
       * stays accepted, an invited or declined one is not asked again); new ones are `invited`.
       */
      setSpeakers: (
        communityId: string,
        submissionId: string,
        proposerProfileId: string,
        coSpeakerProfileIds: ReadonlyArray<string>
      ) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM call4papers_submission_speakers
            WHERE community_id = ${communityId} AND submission_id = ${submissionId} AND role = 'co_speaker'
            ${coSpeakerProfileIds.length === 0 ? sql`` : sql`AND NOT ${sql.in("profile_id", coSpeakerProfileIds)}`}`
          const rows = [proposerProfileId, ...coSpeakerProfileIds].map((profileId, position) => ({
            communityId,
            submissionId,
            profileId,
            role: position === 0 ? "proposer" : "co_speaker",
            position,
            status: position === 0 ? "accepted" : "invited"
          }))
          yield* sql`INSERT INTO call4papers_submission_speakers ${sql.insert(rows)}
            ON CONFLICT (community_id, submission_id, profile_id) DO UPDATE SET position = excluded.position`
        }).pipe(Effect.orDie),
      /** The invited person's answer; false when their row is not `invited` any more (or is gone). */
      answerCoSpeaker: (
        communityId: string,
        submissionId: string,
        profileId: string,
        status: CoSpeakerStatus,
        now: Date
      ) =>
        sql`UPDATE call4papers_submission_speakers SET status = ${status}, responded_at = ${now}
          WHERE community_id = ${communityId} AND submission_id = ${submissionId} AND profile_id = ${profileId}
            AND role = 'co_speaker' AND status = 'invited' RETURNING profile_id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      speakersOf: (communityId: string, submissionIds: ReadonlyArray<string>) =>
        submissionIds.length === 0
          ? Effect.succeed([] as ReadonlyArray<SpeakerRow>)
          : sql`SELECT sp.submission_id, sp.profile_id, p.full_name, p.avatar_url, sp.role, sp.position, sp.status
            FROM call4papers_submission_speakers sp
            JOIN member_cards p ON p.community_id = sp.community_id AND p.id = sp.profile_id
            WHERE sp.community_id = ${communityId} AND ${sql.in("sp.submission_id", submissionIds)}
            ORDER BY sp.submission_id, sp.position`.pipe(Effect.flatMap(decodeSpeakers), Effect.orDie),
      /** Active profiles of the community among `ids`. */
      activeProfiles: (communityId: string, ids: ReadonlyArray<string>) =>
        ids.length === 0
          ? Effect.succeed([] as ReadonlyArray<string>)
          : sql`SELECT id FROM member_cards WHERE community_id = ${communityId}
            AND ${sql.in("id", ids)} AND removed_at IS NULL AND status = 'active'`.pipe(
            Effect.flatMap(decodeIds),
            Effect.map((rows) => rows.map((row) => row.id)),
            Effect.orDie
          ),
      /** A call's submissions the caller may see, by id (keyset `[id]`). */
      list: (communityId: string, callId: string, visibility: Visibility, filter: ListFilter) =>
        sql`${select} WHERE ${visible(communityId, visibility)} AND s.call_id = ${callId}
          ${filter.status ? sql`AND s.status = ${filter.status}` : sql``}
          ${filter.trackId ? sql`AND s.track_id = ${filter.trackId}` : sql``}
          ${filter.after ? sql`AND s.id > ${filter.after[0]}` : sql``}
          ORDER BY s.id LIMIT ${filter.limit + 1}`.pipe(Effect.flatMap(decodeSubmissions), Effect.orDie),
      /** The caller's own submissions (proposer or co-speaker), of one call or of every call. */
      listOwn: (communityId: string, profileId: string, callId: string | undefined, filter: ListFilter) =>
        sql`${select} WHERE s.community_id = ${communityId}
          AND s.id IN (SELECT sp.submission_id FROM call4papers_submission_speakers sp
            WHERE sp.community_id = ${communityId} AND sp.profile_id = ${profileId} AND sp.status = 'accepted')
          ${callId ? sql`AND s.call_id = ${callId}` : sql``}
          ${filter.status ? sql`AND s.status = ${filter.status}` : sql``}
          ${filter.after ? sql`AND s.id > ${filter.after[0]}` : sql``}
          ORDER BY s.id LIMIT ${filter.limit + 1}`.pipe(Effect.flatMap(decodeSubmissions), Effect.orDie),
      ...judgingStatements(sql, shared),
      ...offerStatements(sql),
      ...peopleStatements(sql, shared)
    }
  })
}) {}
