import { SqlClient } from "@effect/sql"
import { Effect, type Option } from "effect"
import type { ExportFile } from "../privacy/PersonalData"
import { afterKey, EXPORT_PAGE, idKey, isoOf, keysetRowsOfEach } from "../sql/keysetExport"

/**
 * OAuth's file of a members' data export (issue 56): the applications the subject's account connected in
 * each of their communities, revoked ones too (never a token; `oauth_connections_community_idx`).
 */
export const oauthExportFiles = Effect.map(SqlClient.SqlClient, (sql): ReadonlyArray<ExportFile> => [
  {
    name: "connected-apps.json",
    describes: "The applications (OAuth, MCP) you connected: which, with what scopes, when, last used, revoked.",
    records: (subject) =>
      keysetRowsOfEach(
        subject.profiles,
        (profile, after: Option.Option<string>) =>
          sql`SELECT c.id, c.community_id, c.client_id, cl.name AS client_name, cl.uri AS client_uri, c.scopes,
            ${isoOf(sql, "c.created_at")} AS created_at, ${isoOf(sql, "c.last_used_at")} AS last_used_at,
            ${isoOf(sql, "c.revoked_at")} AS revoked_at, c.revoked_reason
          FROM oauth_connections c LEFT JOIN oauth_clients cl ON cl.id = c.client_id
          WHERE c.community_id = ${profile.communityId} AND c.account_id = ${subject.accountId}
            ${afterKey(sql, "c.id", after)}
          ORDER BY c.id LIMIT ${EXPORT_PAGE}`,
        idKey
      )
  }
])
