import { SqlClient } from "@effect/sql"
import { Effect, type Option, Stream } from "effect"
import type { ExportFile } from "../privacy/PersonalData"
import { afterKey, EXPORT_PAGE, idKey, isoOf, keysetRows } from "../sql/keysetExport"

/**
 * Identity's files of a members' data export (issue 56): the account and its sign-in sessions. Never a
 * password hash, a link's secret or a token.
 */
export const identityExportFiles = Effect.map(SqlClient.SqlClient, (sql): ReadonlyArray<ExportFile> => [
  {
    name: "account.json",
    describes: "Your account: its id, e-mail, name, when it was created and when the e-mail was verified.",
    records: (subject) =>
      Stream.fromIterableEffect(Effect.orDie(
        sql`SELECT id, email, full_name, ${isoOf(sql, "created_at")} AS created_at,
          ${isoOf(sql, "email_verified_at")} AS email_verified_at
        FROM accounts WHERE id = ${subject.accountId}`
      ))
  },
  {
    name: "sessions.json",
    describes: "Your sign-in sessions: when each began, was last used and ended, from which browser and address.",
    // by `auth_sessions_address_idx` (account_id first): an account's sessions
    records: (subject) =>
      keysetRows(
        (after: Option.Option<string>) =>
          sql`SELECT id, ${isoOf(sql, "created_at")} AS created_at, ${isoOf(sql, "last_used_at")} AS last_used_at,
            ${isoOf(sql, "ended_at")} AS ended_at, user_agent, client_address
          FROM auth_sessions WHERE account_id = ${subject.accountId} ${afterKey(sql, "id", after)}
          ORDER BY id LIMIT ${EXPORT_PAGE}`,
        idKey
      )
  }
])
