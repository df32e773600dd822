/**
 * Before each test file, in its worker: the database of that file alone. On PostgreSQL a clone of the
 * run's migrated template (see `globalSetup.ts`), named in DATABASE_URL for the file and for every
 * process it spawns, and dropped after it; on the embedded database the run's template is loaded
 * into this process, so each in-memory database the file opens starts migrated.
 */
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { afterAll } from "vitest"
import { loadTemplate, templateKey } from "../packages/core/node/sql/template"
import { createDatabase, dropDatabase, fileDatabaseName, withDatabase } from "./databases"
import { EMBEDDED_TEMPLATE_DIR } from "./embeddedTemplate"

const template = process.env.RODA_TEST_TEMPLATE
// The server, as the run was given it: a worker runs many files, and DATABASE_URL names the last one's.
const serverUrl = process.env.RODA_TEST_SERVER

if (serverUrl !== undefined && template !== undefined && template !== "embedded") {
  const name = fileDatabaseName(template, randomUUID().slice(0, 8))
  await createDatabase(serverUrl, name, template)
  process.env.DATABASE_URL = withDatabase(serverUrl, name)
  afterAll(() => dropDatabase(serverUrl, name))
} else if (template === "embedded") {
  await Effect.runPromise(loadTemplate(templateKey(), EMBEDDED_TEMPLATE_DIR))
}
