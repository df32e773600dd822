import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import type { AccountId } from "../domain/Ids"

export const SessionRow = Schema.Struct({
  id: Schema.String,
  createdAt: Schema.DateFromSelf,
  lastUsedAt: Schema.DateFromSelf,
  userAgent: Schema.NullOr(Schema.String),
  clientAddress: Schema.NullOr(Schema.String)
})
export type SessionRow = typeof SessionRow.Type

const decodeSessions = Schema.decodeUnknown(Schema.Array(SessionRow))

/** SQL for sign-in sessions (`auth_sessions`). */
export class SessionsRepo extends Effect.Service<SessionsRepo>()("@roda/core/SessionsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      insert: (row: { id: string; accountId: AccountId; userAgent: string | null; clientAddress: string | null }) =>
        sql`INSERT INTO auth_sessions ${sql.insert(row)}`.pipe(Effect.asVoid, Effect.orDie),
      /** The account's open sessions, newest first, keyset by `(created_at, id)` after `before`. */
      open: (accountId: AccountId, before: { createdAt: Date; id: string } | undefined, limit: number) =>
        sql`SELECT id, created_at, last_used_at, user_agent, client_address FROM auth_sessions
          WHERE account_id = ${accountId} AND ended_at IS NULL
          ${before === undefined ? sql`` : sql`AND (created_at, id) < (${before.createdAt}, ${before.id})`}
          ORDER BY created_at DESC, id DESC LIMIT ${limit + 1}`.pipe(Effect.flatMap(decodeSessions), Effect.orDie),
      /** Ends one open session of the account; false when it has no such open session. */
      end: (accountId: AccountId, id: string) =>
        sql`UPDATE auth_sessions SET ended_at = now()
          WHERE id = ${id} AND account_id = ${accountId} AND ended_at IS NULL RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      /** Ends every open session of the account but `keep`; how many ended. */
      endAll: (accountId: AccountId, keep: string | undefined) =>
        sql`UPDATE auth_sessions SET ended_at = now()
          WHERE account_id = ${accountId} AND ended_at IS NULL
          ${keep === undefined ? sql`` : sql`AND id <> ${keep}`} RETURNING id`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        ),
      /** Marks the session used, at most once a minute (a conditional write that changes nothing otherwise). */
      touch: (id: string) =>
        sql`UPDATE auth_sessions SET last_used_at = now()
          WHERE id = ${id} AND ended_at IS NULL AND last_used_at < now() - interval '1 minute'`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
    }
  })
}) {}
