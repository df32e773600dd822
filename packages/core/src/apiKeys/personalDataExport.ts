import { SqlClient } from "@effect/sql"
import { Effect, type Option } from "effect"
import type { ExportFile } from "../privacy/PersonalData"
import { afterKey, EXPORT_PAGE, idKey, isoOf, keysetRowsOfEach } from "../sql/keysetExport"

/**
 * API keys' file of a members' data export (issue 56): the keys the subject's account created in each
 * of their communities, by name and prefix only (never the key or its hash; `api_keys_community_idx`).
 */
export const apiKeysExportFiles = Effect.map(SqlClient.SqlClient, (sql): ReadonlyArray<ExportFile> => [
  {
    name: "api-keys.json",
    describes: "The API keys you created: name, prefix, scopes, when created, last used, expiring or revoked.",
    records: (subject) =>
      keysetRowsOfEach(
        subject.profiles,
        (profile, after: Option.Option<string>) =>
          sql`SELECT id, community_id, name, prefix, scopes, ${isoOf(sql, "created_at")} AS created_at,
            ${isoOf(sql, "last_used_at")} AS last_used_at, ${isoOf(sql, "expires_at")} AS expires_at,
            ${isoOf(sql, "revoked_at")} AS revoked_at
          FROM api_keys
          WHERE community_id = ${profile.communityId} AND created_by = ${subject.accountId}
            ${afterKey(sql, "id", after)}
          ORDER BY id LIMIT ${EXPORT_PAGE}`,
        idKey
      )
  }
])
