import { Command, Options } from "@effect/cli"
import { SqlClient } from "@effect/sql"
import { migrate, migrations } from "@roda/core"
import { Effect } from "effect"
import { rawDatabase } from "../database"
import { json } from "../options"
import { print, table } from "../output"
import { commandConfig } from "../session"

interface Applied {
  readonly migrationId: number
  readonly name: string
  readonly createdAt: Date
}

/** The migrations recorded in the database (none when it was never migrated). */
const appliedMigrations = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [table] = yield* sql<{ readonly found: boolean }>`SELECT to_regclass('roda_migrations') IS NOT NULL AS found`
  if (table?.found !== true) return new Map<number, Applied>()
  const rows = yield* sql<Applied>`SELECT migration_id, name, created_at FROM roda_migrations ORDER BY migration_id`
  return new Map(rows.map((row) => [Number(row.migrationId), row]))
}).pipe(Effect.orDie)

/** Every migration this version knows, `0001_identity` → id 1, name `identity`. */
const known = Object.keys(migrations).map((key) => {
  const [id, ...name] = key.split("_")
  return { id: Number(id), name: name.join("_") }
}).sort((a, b) => a.id - b.id)

type State = "applied" | "applied now" | "pending"

export const migrateCommand = Command.make(
  "migrate",
  {
    json,
    status: Options.boolean("status").pipe(Options.withDescription("Only show the status; apply nothing"))
  },
  (input) =>
    Effect.gen(function*() {
      const config = yield* commandConfig
      const report = yield* Effect.gen(function*() {
        const before = yield* appliedMigrations
        if (!input.status) yield* migrate.pipe(Effect.orDie)
        const after = input.status ? before : yield* appliedMigrations
        return known.map((migration) => {
          const row = after.get(migration.id)
          const state: State = row === undefined ? "pending" : before.has(migration.id) ? "applied" : "applied now"
          return {
            id: migration.id,
            name: migration.name,
            state,
            appliedAt: row === undefined ? null : new Date(row.createdAt).toISOString()
          }
        })
      }).pipe(Effect.provide(rawDatabase(config.database)))
      const count = (state: State) => report.filter((row) => row.state === state).length
      const target = config.database._tag === "Postgres" ? "PostgreSQL (DATABASE_URL)" : config.database.dataDir
      yield* print(input.json, { database: target, migrations: report }, (data) =>
        [
          `Database: ${data.database}`,
          table(data.migrations, [
            ["ID", (row) => String(row.id).padStart(4, "0")],
            ["NAME", (row) => row.name],
            ["STATE", (row) => row.state],
            ["APPLIED AT", (row) => row.appliedAt]
          ]),
          `${count("applied now")} applied now, ${count("applied")} already applied, ${count("pending")} pending`
        ].join("\n"))
    })
).pipe(Command.withDescription("Apply pending migrations and show the status of each (--status: only show it)"))
