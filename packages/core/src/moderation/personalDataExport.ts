import { SqlClient } from "@effect/sql"
import { Effect, type Option } from "effect"
import type { ExportFile } from "../privacy/PersonalData"
import { afterKey, EXPORT_PAGE, idKey, isoOf, keysetRowsOfEach } from "../sql/keysetExport"

/**
 * Moderation's file of a members' data export (issue 56): the reports the subject filed and how each
 * case ended (by `moderation_reports_once_idx`, community and reporter first). The reported content and
 * the moderators' notes are others' and are left out.
 */
export const moderationExportFiles = Effect.map(SqlClient.SqlClient, (sql): ReadonlyArray<ExportFile> => [
  {
    name: "reports.json",
    describes: "The reports you filed about posts, comments or members: what, why, when, and the outcome.",
    records: (subject) =>
      keysetRowsOfEach(
        subject.profiles,
        (profile, after: Option.Option<string>) =>
          sql`SELECT r.id, r.community_id, r.subject_type, r.subject_id, r.reason, r.note,
            ${isoOf(sql, "r.created_at")} AS created_at, c.status AS case_status, c.resolution,
            ${isoOf(sql, "c.resolved_at")} AS resolved_at
          FROM moderation_reports r
          JOIN moderation_cases c ON c.community_id = r.community_id AND c.id = r.case_id
          WHERE r.community_id = ${profile.communityId} AND r.reporter_profile_id = ${profile.profileId}
            ${afterKey(sql, "r.id", after)}
          ORDER BY r.id LIMIT ${EXPORT_PAGE}`,
        idKey
      )
  }
])
