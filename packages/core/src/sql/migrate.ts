import { Migrator, SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { decodeRows } from "../domain/Rows"
import { withoutStatementTimeout } from "./Database"
import { migrations } from "./migrations"

const decodeApplied = decodeRows(Schema.Struct({ migrationId: Schema.Number }))

/**
 * Applies pending migrations; an advisory lock lets several processes start at once. No
 * `statement_timeout` applies: a migration may rewrite a large table.
 */
export const migrate = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* withoutStatementTimeout(
    Effect.gen(function*() {
      yield* sql`SELECT pg_advisory_xact_lock(7201)`
      // Created here because the Migrator probes for it with a failing query, which would abort
      // this transaction.
      yield* sql`CREATE TABLE IF NOT EXISTS roda_migrations (
        migration_id integer PRIMARY KEY,
        created_at timestamptz NOT NULL DEFAULT now(),
        name text NOT NULL
      )`
      const applied = yield* sql`SELECT migration_id FROM roda_migrations`.pipe(Effect.flatMap(decodeApplied))
      const done = new Set(applied.map((row) => Number(row.migrationId)))
      const pending = Object.keys(migrations).filter((key) => !done.has(Number(key.split("_")[0]))).length
      if (pending > 0) yield* Effect.logInfo(`applying ${pending} migration${pending === 1 ? "" : "s"}`)
      yield* Migrator.make({})({ loader: Migrator.fromRecord(migrations), table: "roda_migrations" })
    })
  )
})
