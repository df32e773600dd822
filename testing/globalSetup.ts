/**
 * Once per `vitest run`, before any file: the migrated template every test file's database is made
 * from. On PostgreSQL (DATABASE_URL names the server) a template database, which `fileDatabase.ts`
 * clones for each file; on the embedded database the PGlite template file, which each in-memory
 * database is loaded from (so no file migrates). Each project names this file: the first to run makes
 * the template, the others find it made.
 */
import { Effect, Layer, Redacted } from "effect"
import { DatabaseLive } from "../packages/core/node/sql/Database"
import { createDatabase, dropRunDatabases, templateName, withDatabase } from "./databases"
import { EMBEDDED_TEMPLATE_DIR } from "./embeddedTemplate"

const MADE = "RODA_TEST_TEMPLATE"
const SERVER = "RODA_TEST_SERVER"

const migrated = (database: Parameters<typeof DatabaseLive>[0]) =>
  Effect.runPromise(Effect.scoped(Layer.build(DatabaseLive(database))))

export default async function setup() {
  if (process.env[MADE] !== undefined) return
  const serverUrl = process.env.DATABASE_URL
  if (serverUrl === undefined) {
    await migrated({ _tag: "Embedded", dataDir: "memory", snapshotDir: EMBEDDED_TEMPLATE_DIR })
    process.env[MADE] = "embedded"
    return
  }
  const template = templateName(process.pid)
  await dropRunDatabases(serverUrl, process.pid)
  await createDatabase(serverUrl, template)
  await migrated({ _tag: "Postgres", url: Redacted.make(withDatabase(serverUrl, template)) })
  // Read by the workers (forked after this), in `fileDatabase.ts`: DATABASE_URL is each file's there.
  process.env[MADE] = template
  process.env[SERVER] = serverUrl
  return async () => {
    if (process.env[MADE] !== template) return
    delete process.env[MADE]
    await dropRunDatabases(serverUrl, process.pid)
  }
}
