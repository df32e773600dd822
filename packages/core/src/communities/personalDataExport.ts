import { SqlClient } from "@effect/sql"
import { Effect, type Option } from "effect"
import type { ExportFile } from "../privacy/PersonalData"
import { afterKey, EXPORT_PAGE, isoOf, keysetRows } from "../sql/keysetExport"

/** Communities' file of a members' data export (issue 56): the subject's profiles, removed ones too. */
export const communitiesExportFiles = Effect.map(SqlClient.SqlClient, (sql): ReadonlyArray<ExportFile> => [
  {
    name: "profiles.json",
    describes: "Your profile in each community (removed ones too): role, name, phone, bio, avatar, tags, " +
      "when you joined, and whether you were removed, suspended or banned.",
    // by `profiles_account_any_idx` (account_id, community_id)
    records: (subject) =>
      keysetRows(
        (after: Option.Option<string>) =>
          sql`SELECT p.id, p.community_id, c.name AS community_name, p.role, p.status, p.full_name, p.phone, p.bio,
            p.avatar_url, p.tags, ${isoOf(sql, "p.created_at")} AS created_at,
            ${isoOf(sql, "p.updated_at")} AS updated_at, ${isoOf(sql, "p.removed_at")} AS removed_at,
            ${isoOf(sql, "p.suspended_until")} AS suspended_until, ${isoOf(sql, "p.banned_at")} AS banned_at,
            p.ban_reason
          FROM profiles p JOIN communities c ON c.id = p.community_id
          WHERE p.account_id = ${subject.accountId} ${afterKey(sql, "p.community_id", after)}
          ORDER BY p.community_id LIMIT ${EXPORT_PAGE}`,
        (row) => row["communityId"] as string
      )
  }
])
