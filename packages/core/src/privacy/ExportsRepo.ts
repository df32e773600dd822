import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Effect, Option, Schema } from "effect"
import { decodeRows } from "../domain/Rows"
import { type ExportStatus, exportStatuses, movesInto } from "./exportPolicy"

export const ExportRow = Schema.Struct({
  id: Schema.String,
  accountId: Schema.String,
  status: Schema.Literal(...exportStatuses),
  blobKey: Schema.NullOr(Schema.String),
  size: Schema.NullOr(Schema.Number),
  createdAt: Schema.DateFromSelf,
  readyAt: Schema.NullOr(Schema.DateFromSelf),
  expiresAt: Schema.NullOr(Schema.DateFromSelf)
})
export type ExportRow = typeof ExportRow.Type

const decodeExports = decodeRows(ExportRow)
const decodeIds = decodeRows(Schema.Struct({ id: Schema.String }))
const decodeRecent = decodeRows(Schema.Struct({ used: Schema.Number, oldest: Schema.NullOr(Schema.DateFromSelf) }))
const decodeEmail = decodeRows(Schema.Struct({ email: Schema.NullOr(Schema.String) }))

const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

/** SQL of data exports: `data_exports`, and identity's `account_contacts` view for the address to e-mail. */
export class ExportsRepo extends Effect.Service<ExportsRepo>()("@roda/core/PrivacyExportsRepo", {
  effect: Effect.map(SqlClient.SqlClient, (sql) => {
    const columns = sql`id, account_id, status, blob_key, size::float8 AS size, created_at, ready_at, expires_at`
    /** `UPDATE … SET status = to` from the states allowed to move there; the row when it moved. */
    const move = (id: string, to: ExportStatus, set: Fragment) =>
      sql`UPDATE data_exports SET status = ${to}, ${set}
        WHERE id = ${id} AND status IN ${sql.in(movesInto(to))}
        RETURNING ${columns}`.pipe(Effect.flatMap(decodeExports), Effect.map(first), Effect.orDie)
    return {
      /** The account's export of that id; none for another account's. */
      find: (accountId: string, id: string) =>
        sql`SELECT ${columns} FROM data_exports WHERE id = ${id} AND account_id = ${accountId}`.pipe(
          Effect.flatMap(decodeExports),
          Effect.map(first),
          Effect.orDie
        ),
      byId: (id: string) =>
        sql`SELECT ${columns} FROM data_exports WHERE id = ${id}`.pipe(
          Effect.flatMap(decodeExports),
          Effect.map(first),
          Effect.orDie
        ),
      /** The account's export under way (`pending` or `running`), if any. */
      open: (accountId: string) =>
        sql`SELECT ${columns} FROM data_exports WHERE account_id = ${accountId} AND status IN ('pending', 'running')`
          .pipe(Effect.flatMap(decodeExports), Effect.map(first), Effect.orDie),
      /** Exports of the account created since `since` that did not fail, and the oldest one's time. */
      recent: (accountId: string, since: Date) =>
        sql`SELECT count(*)::int AS used, min(created_at) AS oldest FROM data_exports
          WHERE account_id = ${accountId} AND created_at > ${since} AND status <> 'failed'`.pipe(
          Effect.flatMap(decodeRecent),
          Effect.map((rows) => rows[0]!),
          Effect.orDie
        ),
      /** A new `pending` export; none when the account has one under way (`data_exports_open_idx`). */
      insert: (row: { readonly id: string; readonly accountId: string; readonly createdAt: Date }) =>
        sql`INSERT INTO data_exports (id, account_id, status, created_at)
          VALUES (${row.id}, ${row.accountId}, 'pending', ${row.createdAt})
          ON CONFLICT (account_id) WHERE status IN ('pending', 'running') DO NOTHING
          RETURNING id`.pipe(Effect.flatMap(decodeIds), Effect.map((rows) => rows.length > 0), Effect.orDie),
      running: (id: string) => move(id, "running", sql`blob_key = NULL, size = NULL`),
      ready: (id: string, blobKey: string, size: number, readyAt: Date, expiresAt: Date) =>
        move(
          id,
          "ready",
          sql`blob_key = ${blobKey}, size = ${size}, ready_at = ${readyAt}, expires_at = ${expiresAt}`
        ),
      failed: (id: string) => move(id, "failed", sql`blob_key = NULL`),
      expired: (id: string) => move(id, "expired", sql`blob_key = NULL`),
      /** The account's e-mail address (none once erased). */
      emailOf: (accountId: string) =>
        sql`SELECT email FROM account_contacts WHERE id = ${accountId}`.pipe(
          Effect.flatMap(decodeEmail),
          Effect.map((rows) => Option.fromNullable(rows[0]?.email)),
          Effect.orDie
        )
    }
  })
}) {}
