import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { CoSpeakerStatus, OfferSide, OfferStatus, SubmissionStatus } from "./Policy"

/** A submission as read: its columns, with the call, the proposer's and the track's names. */
export interface SubmissionRow {
  readonly id: string
  readonly communityId: string
  readonly callId: string
  readonly callTitle: string
  readonly callSlug: string
  readonly callStatus: string
  readonly callCommunityVoting: boolean
  readonly callAnonymousReviews: boolean
  readonly trackId: string | null
  readonly trackName: string | null
  readonly proposerProfileId: string
  readonly proposerName: string
  readonly title: string
  readonly abstract: string
  readonly status: SubmissionStatus
  readonly version: number
  readonly agreedOfferId: string | null
  readonly decisionNote: string | null
  readonly submittedAt: Date | null
  readonly decidedAt: Date | null
  readonly confirmedAt: Date | null
  readonly withdrawnAt: Date | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

export interface SpeakerRow {
  readonly submissionId: string
  readonly profileId: string
  readonly fullName: string
  readonly avatarUrl: string | null
  readonly role: "proposer" | "co_speaker"
  readonly position: number
  /** Only `accepted` rows are speakers; a named co-speaker is `invited` until they answer. */
  readonly status: CoSpeakerStatus
}

export interface VersionRow {
  readonly version: number
  readonly title: string
  readonly abstract: string
  readonly trackId: string | null
  readonly coSpeakerProfileIds: ReadonlyArray<string>
  readonly authorProfileId: string
  readonly createdAt: Date
}

export interface OfferRow {
  readonly id: string
  readonly submissionId: string
  readonly version: number
  readonly side: OfferSide
  readonly authorProfileId: string
  readonly authorName: string
  readonly format: string | null
  readonly durationMinutes: number | null
  readonly trackId: string | null
  readonly trackName: string | null
  /** bigint as text */
  readonly fee: string | null
  readonly currency: string | null
  readonly note: string | null
  readonly status: OfferStatus
  readonly createdAt: Date
  readonly closedAt: Date | null
}

export interface OfferTerms {
  readonly format: string | null
  readonly durationMinutes: number | null
  readonly trackId: string | null
  readonly fee: number | null
  readonly currency: string | null
  readonly note: string | null
}

export interface ReviewRow {
  readonly submissionId: string
  readonly reviewerProfileId: string
  readonly reviewerName: string
  readonly score: number
  readonly comment: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** Mean, count and distribution of scores (reviews) or votes, by submission. */
export interface TallyRow {
  readonly submissionId: string
  readonly count: number
  readonly sum: number
  readonly s1: number
  readonly s2: number
  readonly s3: number
  readonly s4: number
  readonly s5: number
}

/** Which submissions of a call a caller may list (an OR of the parts given). */
export interface Visibility {
  /** The caller's profile: their own submissions (as proposer or accepted co-speaker), drafts included. */
  readonly ownProfileId: string
  /** Organiser: every submission but others' drafts. */
  readonly all: boolean
  /** Reviewer: the non-draft submissions of these tracks. */
  readonly trackIds: ReadonlyArray<string>
}

export interface ListFilter {
  readonly after?: readonly [string] | undefined
  readonly limit: number
  readonly status?: SubmissionStatus | undefined
  readonly trackId?: string | undefined
}

const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

const tallyColumns = (column: string) =>
  `count(*)::int AS count, coalesce(sum(${column}), 0)::int AS sum,
  (count(*) FILTER (WHERE ${column} = 1))::int AS s1, (count(*) FILTER (WHERE ${column} = 2))::int AS s2,
  (count(*) FILTER (WHERE ${column} = 3))::int AS s3, (count(*) FILTER (WHERE ${column} = 4))::int AS s4,
  (count(*) FILTER (WHERE ${column} = 5))::int AS s5`

/** SQL for submissions, their speakers, versions, reviews, votes, offers and speaker invitations. */
export class SubmissionsRepo extends Effect.Service<SubmissionsRepo>()("@roda/core/call4papers/SubmissionsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const select = sql`SELECT s.id, s.community_id, s.call_id, c.title AS call_title, c.slug AS call_slug,
      c.status AS call_status, c.community_voting AS call_community_voting,
      c.anonymous_reviews AS call_anonymous_reviews, s.track_id, t.name AS track_name,
      s.proposer_profile_id, p.full_name AS proposer_name, s.title, s.abstract, s.status, s.version,
      s.agreed_offer_id, s.decision_note, s.submitted_at, s.decided_at, s.confirmed_at, s.withdrawn_at,
      s.created_at, s.updated_at
      FROM call4papers_submissions s
      JOIN call4papers_calls c ON c.community_id = s.community_id AND c.id = s.call_id AND c.deleted_at IS NULL
      JOIN member_cards p ON p.community_id = s.community_id AND p.id = s.proposer_profile_id
      LEFT JOIN call4papers_tracks t ON t.community_id = s.community_id AND t.id = s.track_id`

    /** `AND` the submission `s` belongs to a call that `ownerProfileId` owns (accepted); nothing without one. */
    const ownedBy = (ownerProfileId: string | undefined) =>
      ownerProfileId === undefined
        ? sql``
        : sql`AND EXISTS (SELECT 1 FROM call4papers_owners own
          WHERE own.community_id = s.community_id AND own.call_id = s.call_id
            AND own.profile_id = ${ownerProfileId} AND own.status = 'accepted')`

    /** Visible submissions of a call for one caller (see `Visibility`). */
    const visible = (communityId: string, visibility: Visibility) => {
      const own = sql`EXISTS (SELECT 1 FROM call4papers_submission_speakers sp
        WHERE sp.community_id = s.community_id AND sp.submission_id = s.id AND sp.profile_id = ${visibility.ownProfileId}
        AND sp.status = 'accepted')`
      const parts = [own]
      if (visibility.all) parts.push(sql`s.status <> 'rascunho'`)
      else if (visibility.trackIds.length > 0) {
        parts.push(sql`(s.status <> 'rascunho' AND ${sql.in("s.track_id", visibility.trackIds)})`)
      }
      return sql`s.community_id = ${communityId} AND ${sql.or(parts)}`
    }

    const tallies = (table: "call4papers_reviews" | "call4papers_votes", column: string) =>
    (
      communityId: string,
      submissionIds: ReadonlyArray<string>
    ) =>
      submissionIds.length === 0
        ? Effect.succeed([] as ReadonlyArray<TallyRow>)
        : sql<TallyRow>`SELECT submission_id, ${sql.unsafe(tallyColumns(column))}
          FROM ${sql(table)} WHERE community_id = ${communityId} AND ${sql.in("submission_id", submissionIds)}
          GROUP BY submission_id`.pipe(Effect.orDie)

    return {
      find: (communityId: string, id: string) =>
        sql<SubmissionRow>`${select} WHERE s.community_id = ${communityId} AND s.id = ${id}`.pipe(
          Effect.map(first),
          Effect.orDie
        ),
      /** Locks the submission row for the rest of the transaction; false when it is gone. */
      /** Whether the profile reviewed or voted on the submission (a co-speaker may not have). */
      reviewedOrVoted: (communityId: string, submissionId: string, profileId: string) =>
        sql<{ one: number }>`SELECT 1 AS one FROM call4papers_reviews
          WHERE community_id = ${communityId} AND submission_id = ${submissionId} AND reviewer_profile_id = ${profileId}
          UNION ALL
          SELECT 1 FROM call4papers_votes
          WHERE community_id = ${communityId} AND submission_id = ${submissionId} AND profile_id = ${profileId}
          LIMIT 1`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
      /** Locks the submission's row; its status as locked, or undefined when there is none. */
      lock: (communityId: string, id: string) =>
        sql<{ status: SubmissionStatus }>`SELECT status FROM call4papers_submissions
          WHERE community_id = ${communityId} AND id = ${id} FOR UPDATE`.pipe(
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
        sql<{ version: number }>`UPDATE call4papers_submissions SET title = ${changes.title},
          abstract = ${changes.abstract}, track_id = ${changes.trackId}, version = version + 1, updated_at = ${now}
          WHERE community_id = ${communityId} AND id = ${id} RETURNING version`.pipe(
          Effect.map((rows) => rows[0]?.version ?? 1),
          Effect.orDie
        ),
      setStatus: (
        communityId: string,
        id: string,
        changes: {
          status: SubmissionStatus
          submittedAt?: Date
          decidedAt?: Date
          confirmedAt?: Date
          withdrawnAt?: Date
          agreedOfferId?: string | null
          decisionNote?: string | null
        },
        now: Date
      ) =>
        sql`UPDATE call4papers_submissions SET ${sql.update({ ...changes, updatedAt: now })}
          WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
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
        sql<
          VersionRow
        >`SELECT version, title, abstract, track_id, co_speaker_profile_ids::text[] AS co_speaker_profile_ids,
          author_profile_id, created_at FROM call4papers_submission_versions
          WHERE community_id = ${communityId} AND submission_id = ${submissionId} ORDER BY version`.pipe(Effect.orDie),
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
        sql<{ profileId: string }>`UPDATE call4papers_submission_speakers SET status = ${status}, responded_at = ${now}
          WHERE community_id = ${communityId} AND submission_id = ${submissionId} AND profile_id = ${profileId}
            AND role = 'co_speaker' AND status = 'invited' RETURNING profile_id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      speakersOf: (communityId: string, submissionIds: ReadonlyArray<string>) =>
        submissionIds.length === 0
          ? Effect.succeed([] as ReadonlyArray<SpeakerRow>)
          : sql<
            SpeakerRow
          >`SELECT sp.submission_id, sp.profile_id, p.full_name, p.avatar_url, sp.role, sp.position, sp.status
            FROM call4papers_submission_speakers sp
            JOIN member_cards p ON p.community_id = sp.community_id AND p.id = sp.profile_id
            WHERE sp.community_id = ${communityId} AND ${sql.in("sp.submission_id", submissionIds)}
            ORDER BY sp.submission_id, sp.position`.pipe(Effect.orDie),
      /** Active profiles of the community among `ids`. */
      activeProfiles: (communityId: string, ids: ReadonlyArray<string>) =>
        ids.length === 0
          ? Effect.succeed([] as ReadonlyArray<string>)
          : sql<{ id: string }>`SELECT id FROM member_cards WHERE community_id = ${communityId}
            AND ${sql.in("id", ids)} AND removed_at IS NULL AND status = 'active'`.pipe(
            Effect.map((rows) => rows.map((row) => row.id)),
            Effect.orDie
          ),
      /** A call's submissions the caller may see, by id (keyset `[id]`). */
      list: (communityId: string, callId: string, visibility: Visibility, filter: ListFilter) =>
        sql<SubmissionRow>`${select} WHERE ${visible(communityId, visibility)} AND s.call_id = ${callId}
          ${filter.status ? sql`AND s.status = ${filter.status}` : sql``}
          ${filter.trackId ? sql`AND s.track_id = ${filter.trackId}` : sql``}
          ${filter.after ? sql`AND s.id > ${filter.after[0]}` : sql``}
          ORDER BY s.id LIMIT ${filter.limit + 1}`.pipe(Effect.orDie),
      /** The caller's own submissions (proposer or co-speaker), of one call or of every call. */
      listOwn: (communityId: string, profileId: string, callId: string | undefined, filter: ListFilter) =>
        sql<SubmissionRow>`${select} WHERE s.community_id = ${communityId}
          AND s.id IN (SELECT sp.submission_id FROM call4papers_submission_speakers sp
            WHERE sp.community_id = ${communityId} AND sp.profile_id = ${profileId} AND sp.status = 'accepted')
          ${callId ? sql`AND s.call_id = ${callId}` : sql``}
          ${filter.status ? sql`AND s.status = ${filter.status}` : sql``}
          ${filter.after ? sql`AND s.id > ${filter.after[0]}` : sql``}
          ORDER BY s.id LIMIT ${filter.limit + 1}`.pipe(Effect.orDie),
      /**
       * Submissions on the reviewer's queue: open submissions of the tracks they review (accepted
       * invitations, live tracks and calls), not their own, with their review if any.
       */
      reviewQueue: (
        communityId: string,
        profileId: string,
        filter: { pending: boolean; after?: readonly [string] | undefined; limit: number }
      ) =>
        sql<SubmissionRow & { myScore: number | null; myComment: string | null; myReviewedAt: Date | null }>`
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
          ORDER BY q.id LIMIT ${filter.limit + 1}`.pipe(Effect.orDie),
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
        sql<ReviewRow>`SELECT r.submission_id, r.reviewer_profile_id, p.full_name AS reviewer_name, r.score,
          r.comment, r.created_at, r.updated_at
          FROM call4papers_reviews r
          JOIN member_cards p ON p.community_id = r.community_id AND p.id = r.reviewer_profile_id
          WHERE r.community_id = ${communityId} AND r.submission_id = ${submissionId}
          ORDER BY r.created_at, r.reviewer_profile_id`.pipe(Effect.orDie),
      reviewTallies: tallies("call4papers_reviews", "score"),
      voteTallies: tallies("call4papers_votes", "vote"),
      /**
       * Review progress of a call: per track, the reviewable (non-draft, not withdrawn) submissions and
       * those with at least one review.
       */
      trackProgress: (communityId: string, callId: string) =>
        sql<{ trackId: string; name: string; total: number; reviewed: number; reviews: number }>`
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
          GROUP BY t.id, t.name, t.position ORDER BY t.position, t.id`.pipe(Effect.orDie),
      /**
       * Per accepted reviewer of the call: the reviewable submissions of their tracks (their own left
       * out) and how many of those they reviewed.
       */
      reviewerProgress: (communityId: string, callId: string) =>
        sql<{ profileId: string; fullName: string; trackIds: ReadonlyArray<string>; total: number; reviewed: number }>`
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
        sql<{ vote: number }>`DELETE FROM call4papers_votes
          WHERE community_id = ${communityId} AND submission_id = ${submissionId} AND profile_id = ${profileId}
          RETURNING vote`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
      /** The ballot of a call: its open submissions (not the caller's own), with the caller's vote. */
      ballot: (
        communityId: string,
        callId: string,
        profileId: string,
        filter: { after?: readonly [string] | undefined; limit: number }
      ) =>
        sql<SubmissionRow & { myVote: number | null }>`
          SELECT q.*, v.vote AS my_vote FROM (${select} WHERE s.community_id = ${communityId} AND s.call_id = ${callId}
            AND s.status IN ('enviada', 'em_negociacao')
            AND NOT EXISTS (SELECT 1 FROM call4papers_submission_speakers sp
              WHERE sp.community_id = s.community_id AND sp.submission_id = s.id AND sp.profile_id = ${profileId}
                AND sp.status = 'accepted')
            ${filter.after ? sql`AND s.id > ${filter.after[0]}` : sql``}) q
          LEFT JOIN call4papers_votes v ON v.community_id = q.community_id AND v.submission_id = q.id
            AND v.profile_id = ${profileId}
          ORDER BY q.id LIMIT ${filter.limit + 1}`.pipe(Effect.orDie),
      /** Non-draft submissions of a call that received votes or are open, for the results. */
      voted: (communityId: string, callId: string) =>
        sql<SubmissionRow>`${select} WHERE s.community_id = ${communityId} AND s.call_id = ${callId}
          AND s.status <> 'rascunho' ORDER BY s.id`.pipe(Effect.orDie),
      // offers
      offers: (communityId: string, submissionId: string) =>
        sql<OfferRow>`SELECT o.id, o.submission_id, o.version, o.side, o.author_profile_id, p.full_name AS author_name,
          o.format, o.duration_minutes, o.track_id, t.name AS track_name, o.fee::text AS fee, o.currency, o.note,
          o.status, o.created_at, o.closed_at
          FROM call4papers_offers o
          JOIN member_cards p ON p.community_id = o.community_id AND p.id = o.author_profile_id
          LEFT JOIN call4papers_tracks t ON t.community_id = o.community_id AND t.id = o.track_id
          WHERE o.community_id = ${communityId} AND o.submission_id = ${submissionId}
          ORDER BY o.version`.pipe(Effect.orDie),
      insertOffer: (row: {
        id: string
        communityId: string
        submissionId: string
        side: OfferSide
        authorProfileId: string
        terms: OfferTerms
        now: Date
      }) =>
        sql`INSERT INTO call4papers_offers (id, community_id, submission_id, version, side, author_profile_id,
          format, duration_minutes, track_id, fee, currency, note, status, created_at)
          VALUES (${row.id}, ${row.communityId}, ${row.submissionId},
            (SELECT coalesce(max(version), 0) + 1 FROM call4papers_offers
              WHERE community_id = ${row.communityId} AND submission_id = ${row.submissionId}),
            ${row.side}, ${row.authorProfileId}, ${row.terms.format}, ${row.terms.durationMinutes},
            ${row.terms.trackId}, ${row.terms.fee}, ${row.terms.currency}, ${row.terms.note}, 'open', ${row.now})`
          .pipe(Effect.asVoid, Effect.orDie),
      /** Closes the open offer (if any) with `status`; its id. */
      closeOpenOffer: (
        communityId: string,
        submissionId: string,
        status: Exclude<OfferStatus, "open">,
        byProfileId: string,
        now: Date
      ) =>
        sql<{ id: string }>`UPDATE call4papers_offers SET status = ${status}, closed_at = ${now},
          closed_by_profile_id = ${byProfileId}
          WHERE community_id = ${communityId} AND submission_id = ${submissionId} AND status = 'open'
          RETURNING id`.pipe(Effect.map((rows) => Option.fromNullable(rows[0]?.id)), Effect.orDie),
      // people
      /** E-mail addresses of active profiles (for notices; never shown to members). */
      emailsOf: (communityId: string, profileIds: ReadonlyArray<string>) =>
        profileIds.length === 0
          ? Effect.succeed([] as ReadonlyArray<string>)
          : sql<
            { email: string }
          >`SELECT DISTINCT a.email FROM member_cards p JOIN account_contacts a ON a.id = p.account_id
            WHERE p.community_id = ${communityId} AND ${sql.in("p.id", profileIds)} AND p.removed_at IS NULL
            ORDER BY a.email`.pipe(Effect.map((rows) => rows.map((row) => row.email)), Effect.orDie),
      /** The organisation side of a call: its creator and its accepted owners. */
      organiserProfiles: (communityId: string, callId: string) =>
        sql<{ profileId: string }>`SELECT created_by_profile_id AS profile_id FROM call4papers_calls
          WHERE community_id = ${communityId} AND id = ${callId}
          UNION SELECT profile_id FROM call4papers_owners
          WHERE community_id = ${communityId} AND call_id = ${callId} AND status = 'accepted'`.pipe(
          Effect.map((rows) => rows.map((row) => row.profileId)),
          Effect.orDie
        ),
      /** Whether the profile owns (accepted) at least one live call of the community. */
      ownsAnyCall: (communityId: string, profileId: string) =>
        sql<{ one: number }>`SELECT 1 AS one FROM call4papers_owners o
          JOIN call4papers_calls c ON c.community_id = o.community_id AND c.id = o.call_id AND c.deleted_at IS NULL
          WHERE o.community_id = ${communityId} AND o.profile_id = ${profileId} AND o.status = 'accepted'
          LIMIT 1`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
      /**
       * Speakers of the bank (anyone with a non-draft submission in a live call), by profile id. With
       * `ownerProfileId`, only the calls that profile owns (accepted) count.
       */
      bank: (
        communityId: string,
        filter: { after?: readonly [string] | undefined; limit: number; ownerProfileId?: string | undefined }
      ) =>
        sql<{ profileId: string; fullName: string; avatarUrl: string | null }>`
          SELECT p.id AS profile_id, p.full_name, p.avatar_url FROM member_cards p
          WHERE p.community_id = ${communityId} AND p.removed_at IS NULL
            AND EXISTS (SELECT 1 FROM call4papers_submission_speakers sp
              JOIN call4papers_submissions s ON s.community_id = sp.community_id AND s.id = sp.submission_id
                AND s.status <> 'rascunho'
              JOIN call4papers_calls c ON c.community_id = s.community_id AND c.id = s.call_id AND c.deleted_at IS NULL
              WHERE sp.community_id = p.community_id AND sp.profile_id = p.id AND sp.status = 'accepted'
                ${ownedBy(filter.ownerProfileId)})
            ${filter.after ? sql`AND p.id > ${filter.after[0]}` : sql``}
          ORDER BY p.id LIMIT ${filter.limit + 1}`.pipe(Effect.orDie),
      /**
       * The non-draft submissions of these speakers across the community's live calls (with
       * `ownerProfileId`, of the calls that profile owns only).
       */
      submissionsOfSpeakers: (communityId: string, profileIds: ReadonlyArray<string>, ownerProfileId?: string) =>
        profileIds.length === 0
          ? Effect.succeed([] as ReadonlyArray<SubmissionRow & { speakerProfileId: string; speakerRole: string }>)
          : sql<SubmissionRow & { speakerProfileId: string; speakerRole: string }>`
            SELECT q.*, sp.profile_id AS speaker_profile_id, sp.role AS speaker_role
            FROM call4papers_submission_speakers sp
            JOIN (${select} WHERE s.community_id = ${communityId} AND s.status <> 'rascunho'
              ${ownedBy(ownerProfileId)}) q
              ON q.community_id = sp.community_id AND q.id = sp.submission_id
            WHERE sp.community_id = ${communityId} AND ${sql.in("sp.profile_id", profileIds)}
              AND sp.status = 'accepted'
            ORDER BY sp.profile_id, q.id`.pipe(Effect.orDie),
      /** Whether the profile is in the bank (with `ownerProfileId`, the bank of that owner's calls). */
      inBank: (communityId: string, profileId: string, ownerProfileId?: string) =>
        sql<{ one: number }>`SELECT 1 AS one FROM call4papers_submission_speakers sp
          JOIN call4papers_submissions s ON s.community_id = sp.community_id AND s.id = sp.submission_id
            AND s.status <> 'rascunho'
          JOIN call4papers_calls c ON c.community_id = s.community_id AND c.id = s.call_id AND c.deleted_at IS NULL
          JOIN member_cards p ON p.community_id = sp.community_id AND p.id = sp.profile_id AND p.removed_at IS NULL
          WHERE sp.community_id = ${communityId} AND sp.profile_id = ${profileId} AND sp.status = 'accepted'
            ${ownedBy(ownerProfileId)}
          LIMIT 1`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      /** Records an invitation; false when this person was already invited to this call. */
      insertInvitation: (row: {
        id: string
        communityId: string
        callId: string
        profileId: string
        invitedByProfileId: string
        message: string | null
        createdAt: Date
      }) =>
        sql<{ id: string }>`INSERT INTO call4papers_speaker_invitations ${sql.insert(row)}
          ON CONFLICT (community_id, call_id, profile_id) DO NOTHING RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        )
    }
  })
}) {}
