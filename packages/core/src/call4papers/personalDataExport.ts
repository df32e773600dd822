import { SqlClient } from "@effect/sql"
import { Effect, type Option } from "effect"
import type { ExportFile } from "../privacy/PersonalData"
import { afterKey, EXPORT_PAGE, isoOf, keysetRowsOfEach } from "../sql/keysetExport"

/** Submissions per statement: each carries its versions and offers. */
const SUBMISSIONS_PAGE = 100

const submissionKey = (row: Readonly<Record<string, unknown>>) => row["submissionId"] as string

/**
 * Call for papers' files of a members' data export (issue 56): the submissions the subject speaks in
 * (as proposer or co-speaker, with every version and the offers exchanged), the reviews they wrote and
 * their votes. Co-speakers appear by nothing but their place in the submission; reviews of the
 * subject's talks by others are the reviewers', not the subject's.
 */
export const call4papersExportFiles = Effect.map(SqlClient.SqlClient, (sql): ReadonlyArray<ExportFile> => [
  {
    name: "submissions.json",
    describes: "The talks you submitted or speak in: your role, each version's title and abstract, " +
      "the decision and the offers (fees in minor units with the currency).",
    // by `call4papers_submission_speakers_profile_idx` (community_id, profile_id, submission_id)
    records: (subject) =>
      keysetRowsOfEach(
        subject.profiles,
        (profile, after: Option.Option<string>) =>
          sql`SELECT sp.submission_id, s.community_id, s.call_id, c.title AS call_title, s.track_id,
            sp.role AS speaker_role, sp.status AS speaker_status, ${isoOf(sql, "sp.responded_at")} AS responded_at,
            s.title, s.abstract, s.status, s.version, s.decision_note, ${isoOf(sql, "s.created_at")} AS created_at,
            ${isoOf(sql, "s.submitted_at")} AS submitted_at, ${isoOf(sql, "s.decided_at")} AS decided_at,
            ${isoOf(sql, "s.confirmed_at")} AS confirmed_at, ${isoOf(sql, "s.withdrawn_at")} AS withdrawn_at,
            (SELECT coalesce(json_agg(json_build_object(
                'version', v.version, 'title', v.title, 'abstract', v.abstract, 'trackId', v.track_id,
                'writtenByYou', v.author_profile_id = sp.profile_id, 'createdAt', ${isoOf(sql, "v.created_at")}
              ) ORDER BY v.version), '[]'::json)
              FROM call4papers_submission_versions v
              WHERE v.community_id = s.community_id AND v.submission_id = s.id
            ) AS versions,
            (SELECT coalesce(json_agg(json_build_object(
                'version', o.version, 'side', o.side, 'format', o.format, 'durationMinutes', o.duration_minutes,
                'trackId', o.track_id, 'fee', o.fee::text, 'currency', o.currency, 'note', o.note,
                'status', o.status, 'createdAt', ${isoOf(sql, "o.created_at")}, 'closedAt', ${isoOf(sql, "o.closed_at")}
              ) ORDER BY o.version), '[]'::json)
              FROM call4papers_offers o WHERE o.community_id = s.community_id AND o.submission_id = s.id
            ) AS offers
          FROM call4papers_submission_speakers sp
          JOIN call4papers_submissions s ON s.community_id = sp.community_id AND s.id = sp.submission_id
          JOIN call4papers_calls c ON c.community_id = s.community_id AND c.id = s.call_id
          WHERE sp.community_id = ${profile.communityId} AND sp.profile_id = ${profile.profileId}
            ${afterKey(sql, "sp.submission_id", after)}
          ORDER BY sp.submission_id LIMIT ${SUBMISSIONS_PAGE}`,
        submissionKey,
        SUBMISSIONS_PAGE
      )
  },
  {
    name: "reviews.json",
    describes: "The reviews you wrote of submitted talks: the talk, your score and comment.",
    // by `call4papers_reviews_reviewer_idx` (community_id, reviewer_profile_id, submission_id)
    records: (subject) =>
      keysetRowsOfEach(
        subject.profiles,
        (profile, after: Option.Option<string>) =>
          sql`SELECT r.submission_id, r.community_id, s.title AS submission_title, r.score, r.comment,
            ${isoOf(sql, "r.created_at")} AS created_at, ${isoOf(sql, "r.updated_at")} AS updated_at
          FROM call4papers_reviews r
          JOIN call4papers_submissions s ON s.community_id = r.community_id AND s.id = r.submission_id
          WHERE r.community_id = ${profile.communityId} AND r.reviewer_profile_id = ${profile.profileId}
            ${afterKey(sql, "r.submission_id", after)}
          ORDER BY r.submission_id LIMIT ${EXPORT_PAGE}`,
        submissionKey
      )
  },
  {
    name: "votes.json",
    describes: "Your votes on submitted talks.",
    // by `call4papers_votes_profile_idx` (community_id, profile_id, submission_id)
    records: (subject) =>
      keysetRowsOfEach(
        subject.profiles,
        (profile, after: Option.Option<string>) =>
          sql`SELECT v.submission_id, v.community_id, s.title AS submission_title, v.vote,
            ${isoOf(sql, "v.created_at")} AS created_at, ${isoOf(sql, "v.updated_at")} AS updated_at
          FROM call4papers_votes v
          JOIN call4papers_submissions s ON s.community_id = v.community_id AND s.id = v.submission_id
          WHERE v.community_id = ${profile.communityId} AND v.profile_id = ${profile.profileId}
            ${afterKey(sql, "v.submission_id", after)}
          ORDER BY v.submission_id LIMIT ${EXPORT_PAGE}`,
        submissionKey
      )
  }
])
