import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import type { CommunityId } from "../domain/Ids"
import { decodeRows } from "../domain/Rows"
import { pendingActions } from "./pendingActions"
import { actions, type CaseStatus, caseStatuses, logActions, reasons, subjectTypes } from "./Policy"

export const ReportRow = Schema.Struct({
  id: Schema.String,
  caseId: Schema.String,
  reporterProfileId: Schema.String,
  subjectType: Schema.Literal(...subjectTypes),
  subjectId: Schema.String,
  reason: Schema.Literal(...reasons),
  note: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf
})
export type ReportRow = typeof ReportRow.Type

export const CaseRow = Schema.Struct({
  id: Schema.String,
  subjectType: Schema.Literal(...subjectTypes),
  subjectId: Schema.String,
  subjectExcerpt: Schema.String,
  subjectAuthorProfileId: Schema.NullOr(Schema.String),
  authorName: Schema.NullOr(Schema.String),
  status: Schema.Literal(...caseStatuses),
  reportCount: Schema.Number,
  reasons: Schema.Array(Schema.Literal(...reasons)),
  createdAt: Schema.DateFromSelf,
  resolvedAt: Schema.NullOr(Schema.DateFromSelf),
  resolution: Schema.NullOr(Schema.Literal(...actions)),
  resolutionNote: Schema.NullOr(Schema.String),
  resolvedByProfileId: Schema.NullOr(Schema.String),
  resolverName: Schema.NullOr(Schema.String),
  cursorTime: Schema.String
})
export type CaseRow = typeof CaseRow.Type

export const LogRow = Schema.Struct({
  id: Schema.String,
  action: Schema.Literal(...logActions, ...pendingActions),
  actorProfileId: Schema.String,
  actorName: Schema.NullOr(Schema.String),
  caseId: Schema.NullOr(Schema.String),
  subjectType: Schema.Literal(...subjectTypes),
  subjectId: Schema.String,
  subjectExcerpt: Schema.NullOr(Schema.String),
  note: Schema.NullOr(Schema.String),
  until: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf,
  cursorTime: Schema.String
})
export type LogRow = typeof LogRow.Type

const decodeReports = decodeRows(ReportRow)
const decodeCases = decodeRows(CaseRow)
const decodeLog = decodeRows(LogRow)
const decodeId = decodeRows(Schema.Struct({ id: Schema.String }))
const decodeLocked = decodeRows(Schema.Struct({
  id: Schema.String,
  status: Schema.Literal(...caseStatuses),
  subjectType: Schema.Literal(...subjectTypes),
  subjectId: Schema.String
}))
const decodeSubject = decodeRows(Schema.Struct({
  id: Schema.String,
  authorProfileId: Schema.NullOr(Schema.String),
  excerpt: Schema.String
}))

const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

export interface NewReport {
  readonly id: string
  readonly communityId: CommunityId
  readonly reporterProfileId: string
  readonly subjectType: string
  readonly subjectId: string
  readonly reason: string
  readonly note: string | null
}

/** SQL of moderation: its own tables, and the `event_items` and `member_cards` views for subjects. */
export class ModerationRepo extends Effect.Service<ModerationRepo>()("@roda/core/ModerationRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const micros = (column: string) =>
      sql.unsafe(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`)
    const reportColumns = sql`id, case_id, reporter_profile_id, subject_type, subject_id, reason, note, created_at`
    const caseSelect = sql`SELECT c.id, c.subject_type, c.subject_id, c.subject_excerpt,
        c.subject_author_profile_id, a.full_name AS author_name, c.status, r.report_count, r.reasons,
        c.created_at, c.resolved_at, c.resolution, c.resolution_note, c.resolved_by_profile_id,
        m.full_name AS resolver_name, ${micros("c.created_at")} AS cursor_time
      FROM moderation_cases c
      LEFT JOIN member_cards a ON a.community_id = c.community_id AND a.id = c.subject_author_profile_id
      LEFT JOIN member_cards m ON m.community_id = c.community_id AND m.id = c.resolved_by_profile_id
      CROSS JOIN LATERAL (SELECT count(*)::int AS report_count,
          coalesce(array_agg(DISTINCT x.reason ORDER BY x.reason), '{}') AS reasons
        FROM moderation_reports x WHERE x.community_id = c.community_id AND x.case_id = c.id) r`

    return {
      findReport: (communityId: CommunityId, reporterProfileId: string, subjectType: string, subjectId: string) =>
        sql`SELECT ${reportColumns} FROM moderation_reports
          WHERE community_id = ${communityId} AND reporter_profile_id = ${reporterProfileId}
            AND subject_type = ${subjectType} AND subject_id = ${subjectId}`.pipe(
          Effect.flatMap(decodeReports),
          Effect.map(first),
          Effect.orDie
        ),
      /**
       * The subject's open case, opened now if it has none: one statement on the partial unique index,
       * so that reports fired at once all land in one case (the losers wait, then update the winner's).
       */
      openCase: (row: {
        readonly id: string
        readonly communityId: CommunityId
        readonly subjectType: string
        readonly subjectId: string
        readonly authorProfileId: string | null
        readonly excerpt: string
      }) =>
        sql`INSERT INTO moderation_cases (id, community_id, subject_type, subject_id, subject_author_profile_id,
            subject_excerpt, status, created_at)
          VALUES (${row.id}, ${row.communityId}, ${row.subjectType}, ${row.subjectId}, ${row.authorProfileId},
            ${row.excerpt}, 'open', now())
          ON CONFLICT (community_id, subject_type, subject_id) WHERE status = 'open'
          DO UPDATE SET subject_excerpt = EXCLUDED.subject_excerpt
          RETURNING id`.pipe(
          Effect.flatMap(decodeId),
          Effect.flatMap((rows) => rows[0] ? Effect.succeed(rows[0].id) : Effect.dieMessage("no case written")),
          Effect.orDie
        ),
      /** The report, or none when the same reporter's report of the subject was written first. */
      insertReport: (row: NewReport & { readonly caseId: string }) =>
        sql`INSERT INTO moderation_reports (id, community_id, case_id, reporter_profile_id, subject_type, subject_id,
            reason, note, created_at)
          VALUES (${row.id}, ${row.communityId}, ${row.caseId}, ${row.reporterProfileId}, ${row.subjectType},
            ${row.subjectId}, ${row.reason}, ${row.note}, now())
          ON CONFLICT (community_id, reporter_profile_id, subject_type, subject_id) DO NOTHING
          RETURNING ${reportColumns}`.pipe(Effect.flatMap(decodeReports), Effect.map(first), Effect.orDie),
      /** The case, locked until the transaction ends: two resolutions at once are serialised here. */
      lockCase: (communityId: CommunityId, id: string) =>
        sql`SELECT id, status, subject_type, subject_id FROM moderation_cases
          WHERE community_id = ${communityId} AND id = ${id} FOR UPDATE`.pipe(
          Effect.flatMap(decodeLocked),
          Effect.map(first),
          Effect.orDie
        ),
      resolveCase: (
        communityId: CommunityId,
        id: string,
        resolution: { readonly byProfileId: string; readonly action: string; readonly note: string | null }
      ) =>
        sql`UPDATE moderation_cases SET status = 'resolved', resolved_at = now(),
            resolved_by_profile_id = ${resolution.byProfileId}, resolution = ${resolution.action},
            resolution_note = ${resolution.note}
          WHERE community_id = ${communityId} AND id = ${id} AND status = 'open'`.pipe(Effect.asVoid, Effect.orDie),
      insertLog: (row: {
        readonly id: string
        readonly communityId: CommunityId
        readonly actorProfileId: string
        readonly action: string
        readonly caseId: string | null
        readonly subjectType: string
        readonly subjectId: string
        readonly note: string | null
        readonly until?: Date | null
        /** What an entry without a case is about, as it read then (a held post's approval or rejection). */
        readonly subjectExcerpt?: string | null
      }) =>
        sql`INSERT INTO moderation_log (id, community_id, actor_profile_id, action, case_id, subject_type, subject_id,
            note, until, subject_excerpt, created_at)
          VALUES (${row.id}, ${row.communityId}, ${row.actorProfileId}, ${row.action}, ${row.caseId},
            ${row.subjectType}, ${row.subjectId}, ${row.note}, ${row.until ?? null}, ${row.subjectExcerpt ?? null},
            now())`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      findCase: (communityId: CommunityId, id: string) =>
        sql`${caseSelect} WHERE c.community_id = ${communityId} AND c.id = ${id}`.pipe(
          Effect.flatMap(decodeCases),
          Effect.map(first),
          Effect.orDie
        ),
      /** Newest first; keyset on (created_at, id) descending (`moderation_cases_queue_idx`). */
      listCases: (
        communityId: CommunityId,
        status: CaseStatus,
        after: readonly [string, string] | undefined,
        limit: number
      ) =>
        sql`${caseSelect} WHERE c.community_id = ${communityId} AND c.status = ${status}
          ${after === undefined ? sql`` : sql`AND (c.created_at, c.id) < (${after[0]}::timestamptz, ${after[1]}::uuid)`}
          ORDER BY c.created_at DESC, c.id DESC LIMIT ${limit + 1}`.pipe(Effect.flatMap(decodeCases), Effect.orDie),
      /** Newest first; keyset on (created_at, id) descending (`moderation_log_list_idx`). */
      listLog: (communityId: CommunityId, after: readonly [string, string] | undefined, limit: number) =>
        sql`SELECT l.id, l.action, l.actor_profile_id, a.full_name AS actor_name, l.case_id, l.subject_type,
            l.subject_id, coalesce(l.subject_excerpt, c.subject_excerpt, left(s.full_name, 280)) AS subject_excerpt, l.note, l.until,
            l.created_at, ${micros("l.created_at")} AS cursor_time
          FROM moderation_log l
          LEFT JOIN member_cards a ON a.community_id = l.community_id AND a.id = l.actor_profile_id
          LEFT JOIN moderation_cases c ON c.community_id = l.community_id AND c.id = l.case_id
          LEFT JOIN member_cards s ON l.case_id IS NULL AND l.subject_type = 'profile'
            AND s.community_id = l.community_id AND s.id = l.subject_id
          WHERE l.community_id = ${communityId}
          ${after === undefined ? sql`` : sql`AND (l.created_at, l.id) < (${after[0]}::timestamptz, ${after[1]}::uuid)`}
          ORDER BY l.created_at DESC, l.id DESC LIMIT ${limit + 1}`.pipe(Effect.flatMap(decodeLog), Effect.orDie),
      /** An event as a report names it: its host and title (`event_items`, not removed). */
      event: (communityId: CommunityId, id: string) =>
        sql`SELECT id, host_profile_id AS author_profile_id, left(title, 280) AS excerpt FROM event_items
          WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL`.pipe(
          Effect.flatMap(decodeSubject),
          Effect.map(first),
          Effect.orDie
        ),
      /** An active member's profile as a report names it (`member_cards`): itself and its name. */
      profile: (communityId: CommunityId, id: string) =>
        sql`SELECT id, id AS author_profile_id, left(full_name, 280) AS excerpt FROM member_cards
          WHERE community_id = ${communityId} AND id = ${id} AND status = 'active' AND removed_at IS NULL`.pipe(
          Effect.flatMap(decodeSubject),
          Effect.map(first),
          Effect.orDie
        )
    }
  })
}) {}
