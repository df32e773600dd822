import { type SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { rowsOf, tallyColumns, TallyRow, type Visibility } from "./rows"

const decodeTallies = rowsOf(TallyRow)

/** The fragments the submissions statements share: the submission select, visibility, tallies. */
export const submissionSql = (sql: SqlClient.SqlClient) => {
  /** A submission's columns (`SubmissionRow`) over `s` joined with `joins`. */
  const columns = sql`s.id, s.community_id, s.call_id, c.title AS call_title, c.slug AS call_slug,
    c.status AS call_status, c.community_voting AS call_community_voting,
    c.anonymous_reviews AS call_anonymous_reviews, s.track_id, t.name AS track_name,
    s.proposer_profile_id, p.full_name AS proposer_name, s.title, s.abstract, s.status, s.version,
    s.agreed_offer_id, s.decision_note, s.submitted_at, s.decided_at, s.confirmed_at, s.withdrawn_at,
    s.created_at, s.updated_at`
  const joins = sql`JOIN call4papers_calls c ON c.community_id = s.community_id AND c.id = s.call_id
      AND c.deleted_at IS NULL
    JOIN member_cards p ON p.community_id = s.community_id AND p.id = s.proposer_profile_id
    LEFT JOIN call4papers_tracks t ON t.community_id = s.community_id AND t.id = s.track_id`
  const select = sql`SELECT ${columns} FROM call4papers_submissions s ${joins}`

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
      : sql`SELECT submission_id, ${sql.unsafe(tallyColumns(column))}
        FROM ${sql(table)} WHERE community_id = ${communityId} AND ${sql.in("submission_id", submissionIds)}
        GROUP BY submission_id`.pipe(Effect.flatMap(decodeTallies), Effect.orDie)

  return { columns, joins, select, ownedBy, visible, tallies }
}

export type SubmissionSql = ReturnType<typeof submissionSql>
