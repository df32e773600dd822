import { type SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { ProfileId } from "../../domain/Ids"
import { decodeSubmissions, ReviewRow, rowsOf, SubmissionRow } from "./rows"
import type { SubmissionSql } from "./submissionSql"

const decodeQueue = rowsOf(Schema.Struct({
  ...SubmissionRow.fields,
  myScore: Schema.NullOr(Schema.Number),
  myComment: Schema.NullOr(Schema.String),
  myReviewedAt: Schema.NullOr(Schema.DateFromSelf)
}))
const decodeReviews = rowsOf(ReviewRow)
const decodeTrackProgress = rowsOf(Schema.Struct({
  trackId: Schema.String,
  name: Schema.String,
  total: Schema.Number,
  reviewed: Schema.Number,
  reviews: Schema.Number
}))
const decodeReviewerProgress = rowsOf(Schema.Struct({
  profileId: ProfileId,
  fullName: Schema.String,
  trackIds: Schema.Array(Schema.String),
  total: Schema.Number,
  reviewed: Schema.Number
}))
const decodeBallot = rowsOf(Schema.Struct({ ...SubmissionRow.fields, myVote: Schema.NullOr(Schema.Number) }))

/** Reviews, votes and their tallies, the review queue and progress, the ballot. */
export const judgingStatements = (sql: SqlClient.SqlClient, { select, tallies }: SubmissionSql) => ({
  /**
   * Submissions on the reviewer's queue: open submissions of the tracks they review (accepted
   * invitations, live tracks and calls), not their own, with their review if any.
   */
  reviewQueue: (
    communityId: string,
    profileId: string,
    filter: { pending: boolean; after?: readonly [string] | undefined; limit: number }
  ) =>
    sql`
        SELECT q.*, r.score AS my_score, r.comment AS my_comment, r.updated_at AS my_reviewed_at
        FROM (${select} WHERE s.community_id = ${communityId} AND s.status IN ('enviada', 'em_negociacao')
          AND s.track_id IN (SELECT tr.track_id FROM call4papers_track_reviewers tr
            JOIN call4papers_tracks t2 ON t2.community_id = tr.community_id AND t2.id = tr.track_id
              AND t2.deleted_at IS NULL
            WHERE tr.community_id = ${communityId} AND tr.profile_id = ${profileId} AND tr.status = 'accepted')
          AND NOT EXISTS (SELECT 1 FROM call4papers_submission_speakers sp
            WHERE sp.community_id = s.community_id AND sp.submission_id = s.id AND sp.profile_id = ${profileId}
              AND sp.status = 'accepted')
        ) q
        LEFT JOIN call4papers_reviews r ON r.community_id = q.community_id AND r.submission_id = q.id
          AND r.reviewer_profile_id = ${profileId}
        WHERE TRUE ${filter.pending ? sql`AND r.score IS NULL` : sql``}
        ${filter.after ? sql`AND q.id > ${filter.after[0]}` : sql``}
        ORDER BY q.id LIMIT ${filter.limit + 1}`.pipe(Effect.flatMap(decodeQueue), Effect.orDie),
  upsertReview: (row: {
    communityId: string
    submissionId: string
    reviewerProfileId: string
    score: number
    comment: string | null
    now: Date
  }) =>
    sql`INSERT INTO call4papers_reviews (community_id, submission_id, reviewer_profile_id, score, comment,
        created_at, updated_at)
        VALUES (${row.communityId}, ${row.submissionId}, ${row.reviewerProfileId}, ${row.score}, ${row.comment},
          ${row.now}, ${row.now})
        ON CONFLICT (community_id, submission_id, reviewer_profile_id)
        DO UPDATE SET score = excluded.score, comment = excluded.comment, updated_at = excluded.updated_at`.pipe(
      Effect.asVoid,
      Effect.orDie
    ),
  reviews: (communityId: string, submissionId: string) =>
    sql`SELECT r.submission_id, r.reviewer_profile_id, p.full_name AS reviewer_name, r.score,
        r.comment, r.created_at, r.updated_at
        FROM call4papers_reviews r
        JOIN member_cards p ON p.community_id = r.community_id AND p.id = r.reviewer_profile_id
        WHERE r.community_id = ${communityId} AND r.submission_id = ${submissionId}
        ORDER BY r.created_at, r.reviewer_profile_id`.pipe(Effect.flatMap(decodeReviews), Effect.orDie),
  reviewTallies: tallies("call4papers_reviews", "score"),
  voteTallies: tallies("call4papers_votes", "vote"),
  /**
   * Review progress of a call: per track, the reviewable (non-draft, not withdrawn) submissions and
   * those with at least one review.
   */
  trackProgress: (communityId: string, callId: string) =>
    sql`
        SELECT t.id AS track_id, t.name,
          count(s.id)::int AS total,
          count(s.id) FILTER (WHERE EXISTS (SELECT 1 FROM call4papers_reviews r
            WHERE r.community_id = s.community_id AND r.submission_id = s.id))::int AS reviewed,
          coalesce(sum((SELECT count(*) FROM call4papers_reviews r
            WHERE r.community_id = s.community_id AND r.submission_id = s.id)), 0)::int AS reviews
        FROM call4papers_tracks t
        LEFT JOIN call4papers_submissions s ON s.community_id = t.community_id AND s.track_id = t.id
          AND s.status NOT IN ('rascunho', 'retirada')
        WHERE t.community_id = ${communityId} AND t.call_id = ${callId} AND t.deleted_at IS NULL
        GROUP BY t.id, t.name, t.position ORDER BY t.position, t.id`.pipe(
      Effect.flatMap(decodeTrackProgress),
      Effect.orDie
    ),
  /**
   * Per accepted reviewer of the call: the reviewable submissions of their tracks (their own left
   * out) and how many of those they reviewed.
   */
  reviewerProgress: (communityId: string, callId: string) =>
    sql`
        SELECT rv.profile_id, p.full_name, rv.track_ids,
          (SELECT count(*) FROM call4papers_submissions s
            WHERE s.community_id = ${communityId} AND s.call_id = ${callId}
              AND s.status NOT IN ('rascunho', 'retirada') AND s.track_id::text = ANY (rv.track_ids)
              AND NOT EXISTS (SELECT 1 FROM call4papers_submission_speakers sp WHERE sp.community_id = s.community_id
                AND sp.submission_id = s.id AND sp.profile_id = rv.profile_id AND sp.status = 'accepted'))::int AS total,
          (SELECT count(*) FROM call4papers_submissions s
            JOIN call4papers_reviews r ON r.community_id = s.community_id AND r.submission_id = s.id
              AND r.reviewer_profile_id = rv.profile_id
            WHERE s.community_id = ${communityId} AND s.call_id = ${callId}
              AND s.status NOT IN ('rascunho', 'retirada') AND s.track_id::text = ANY (rv.track_ids))::int AS reviewed
        FROM (SELECT tr.profile_id, array_agg(tr.track_id::text ORDER BY t.position, t.id) AS track_ids
          FROM call4papers_track_reviewers tr
          JOIN call4papers_tracks t ON t.community_id = tr.community_id AND t.id = tr.track_id AND t.deleted_at IS NULL
          WHERE tr.community_id = ${communityId} AND tr.call_id = ${callId} AND tr.status = 'accepted'
          GROUP BY tr.profile_id) rv
        JOIN member_cards p ON p.community_id = ${communityId} AND p.id = rv.profile_id
        ORDER BY p.full_name, rv.profile_id`.pipe(
      Effect.flatMap(decodeReviewerProgress),
      Effect.map((rows) => rows.map((row) => ({ ...row, trackIds: [...row.trackIds].map(String) }))),
      Effect.orDie
    ),
  /** One vote per person and submission: an upsert, so concurrent votes leave one row. */
  upsertVote: (row: { communityId: string; submissionId: string; profileId: string; vote: number; now: Date }) =>
    sql`INSERT INTO call4papers_votes (community_id, submission_id, profile_id, vote, created_at, updated_at)
        VALUES (${row.communityId}, ${row.submissionId}, ${row.profileId}, ${row.vote}, ${row.now}, ${row.now})
        ON CONFLICT (community_id, submission_id, profile_id)
        DO UPDATE SET vote = excluded.vote, updated_at = excluded.updated_at`.pipe(Effect.asVoid, Effect.orDie),
  deleteVote: (communityId: string, submissionId: string, profileId: string) =>
    sql`DELETE FROM call4papers_votes
        WHERE community_id = ${communityId} AND submission_id = ${submissionId} AND profile_id = ${profileId}
        RETURNING vote`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
  /** The ballot of a call: its open submissions (not the caller's own), with the caller's vote. */
  ballot: (
    communityId: string,
    callId: string,
    profileId: string,
    filter: { after?: readonly [string] | undefined; limit: number }
  ) =>
    sql`
        SELECT q.*, v.vote AS my_vote FROM (${select} WHERE s.community_id = ${communityId} AND s.call_id = ${callId}
          AND s.status IN ('enviada', 'em_negociacao')
          AND NOT EXISTS (SELECT 1 FROM call4papers_submission_speakers sp
            WHERE sp.community_id = s.community_id AND sp.submission_id = s.id AND sp.profile_id = ${profileId}
              AND sp.status = 'accepted')
          ${filter.after ? sql`AND s.id > ${filter.after[0]}` : sql``}) q
        LEFT JOIN call4papers_votes v ON v.community_id = q.community_id AND v.submission_id = q.id
          AND v.profile_id = ${profileId}
        ORDER BY q.id LIMIT ${filter.limit + 1}`.pipe(Effect.flatMap(decodeBallot), Effect.orDie),
  /** Non-draft submissions of a call that received votes or are open, for the results. */
  voted: (communityId: string, callId: string) =>
    sql`${select} WHERE s.community_id = ${communityId} AND s.call_id = ${callId}
        AND s.status <> 'rascunho' ORDER BY s.id`.pipe(Effect.flatMap(decodeSubmissions), Effect.orDie)
})
