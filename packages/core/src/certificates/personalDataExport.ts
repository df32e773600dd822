import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { ExportFile } from "../privacy/PersonalData"
import { EXPORT_PAGE, isoMicrosOf, isoOf, keysetRows } from "../sql/keysetExport"

/**
 * Certificates' file of a members' data export (issue 56): the certificates issued to the subject's
 * account, revoked and superseded ones too (by `certificates_account_idx`: account, created, id).
 */
export const certificatesExportFiles = Effect.map(SqlClient.SqlClient, (sql): ReadonlyArray<ExportFile> => [
  {
    name: "certificates.json",
    describes: "Your certificates: for which space, the name and e-mail on them, their verification code, " +
      "status, when issued, and whether revoked or replaced.",
    records: (subject) =>
      keysetRows(
        (after: Option.Option<readonly [string, string]>) =>
          sql`SELECT id, community_id, space_id, space_title, recipient_name, recipient_email, code, status,
            ${isoOf(sql, "issued_at")} AS issued_at, ${isoOf(sql, "revoked_at")} AS revoked_at, revoke_reason,
            supersedes_id, superseded_by_id, ${isoOf(sql, "created_at")} AS created_at,
            ${isoMicrosOf(sql, "created_at")} AS page_key
          FROM certificates
          WHERE account_id = ${subject.accountId} ${
            Option.match(after, {
              onNone: () => sql``,
              onSome: ([at, id]) => sql`AND (created_at, id) > (${at}::timestamptz, ${id}::uuid)`
            })
          }
          ORDER BY created_at, id LIMIT ${EXPORT_PAGE}`,
        (row) => [row["pageKey"] as string, row["id"] as string] as const
      )
  }
])
