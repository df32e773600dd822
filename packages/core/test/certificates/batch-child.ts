/**
 * A Roda process for the kill-and-resume test (`resume.test.ts`), run with `node --import tsx`.
 * `setup`: creates a community with N members (rows written directly, no password hashing), an
 * active template, issues one batch to all of them, then keeps running its job worker and prints
 * `progress <issued>` lines until it is killed. `resume <batchId>`: starts again on the same
 * database and files, waits for the batch to finish and prints a JSON summary.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { defaultOptions, makeRoda, secret } from "../../node/index"
import { handlerCall } from "../support/handlerCall"

const [phase, dataDir, blobDir, countText, batchArg] = process.argv.slice(2)
const database = process.env.DATABASE_URL
  ? { _tag: "Postgres" as const, url: secret(process.env.DATABASE_URL) }
  : { _tag: "Embedded" as const, dataDir: dataDir! }
const roda = makeRoda({
  database,
  options: defaultOptions({
    jwtSecret: secret("test-secret-that-is-long-enough-for-hs256"),
    publicBaseUrl: "http://roda.test",
    blobDir
  })
})

const call = handlerCall(roda)

const sql = <A extends object>(build: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
  roda.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, build))

const batchRow = (id: string) =>
  sql<{ status: string; total: number; issued: number; failed: number; skipped: number }>((q) =>
    q`SELECT status, total, issued, failed, skipped FROM certificate_batches WHERE id = ${id}`
  ).then((rows) => rows[0]!)

if (phase === "setup") {
  const email = `owner-${randomUUID().slice(0, 8)}@roda.test`
  const owner = await call("POST", "/api/auth/register", { fullName: "Olga", email, password: "Secret123" })
  const community = await call("POST", "/api/communities", { name: `Lote ${randomUUID().slice(0, 8)}` }, owner.token)
  const count = Number(countText)
  const profileIds: Array<string> = []
  await sql((q) =>
    Effect.forEach(Array.from({ length: count }, (_, i) => i), (i) =>
      Effect.gen(function*() {
        const accountId = randomUUID()
        const profileId = randomUUID()
        profileIds.push(profileId)
        yield* q`INSERT INTO accounts (id, email, full_name) VALUES (${accountId}, ${`p${i}-${
          accountId.slice(0, 8)
        }@roda.test`}, ${`Pessoa ${i}`})`
        yield* q`INSERT INTO profiles (id, community_id, account_id, role, full_name)
          VALUES (${profileId}, ${community.id}, ${accountId}, 'member', ${`Pessoa Número ${i}`})`
      }), { discard: true }).pipe(Effect.as([]))
  )
  const section = await call("POST", "/api/sections", { title: "S", visibility: "public" }, owner.token, community.id)
  const space = await call(
    "POST",
    "/api/spaces",
    { sectionId: section.id, title: "Curso", module: "courses", visibility: "public" },
    owner.token,
    community.id
  )
  const template = await call(
    "POST",
    "/api/certificates/templates",
    { spaceId: space.id, name: "Lote" },
    owner.token,
    community.id
  )
  await call("POST", `/api/certificates/templates/${template.id}/activate`, undefined, owner.token, community.id)
  const batch = await call(
    "POST",
    "/api/certificates",
    { templateId: template.id, spaceId: space.id, profileIds },
    owner.token,
    community.id
  )
  console.log(`batch ${batch.id}`)
  while (true) {
    const row = await batchRow(batch.id)
    console.log(`progress ${row.issued}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
} else if (phase === "resume") {
  const batchId = batchArg!
  await roda.ready()
  const started = performance.now()
  while (true) {
    const row = await batchRow(batchId)
    if (row.status === "completed" || row.status === "completed_with_errors") break
    if (performance.now() - started > 540_000) throw new Error(`batch still ${JSON.stringify(row)}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  const batch = await batchRow(batchId)
  const statuses = await sql<{ status: string; count: number }>((q) =>
    q`SELECT status, count(*)::int AS count FROM certificates WHERE batch_id = ${batchId} GROUP BY status`
  )
  const duplicates = await sql<{ profileId: string }>((q) =>
    q`SELECT profile_id FROM certificates WHERE batch_id = ${batchId} GROUP BY profile_id HAVING count(*) <> 1`
  )
  const mails = await sql<{ recipient: string; count: number }>((q) =>
    q`SELECT o.recipient, count(*)::int AS count FROM outbox o
      JOIN certificates c ON lower(c.recipient_email) = lower(o.recipient)
      WHERE c.batch_id = ${batchId} AND o.kind = 'certificate-issued' GROUP BY o.recipient`
  )
  const withoutFile = await sql<{ id: string }>((q) =>
    q`SELECT id FROM certificates WHERE batch_id = ${batchId} AND (pdf_key IS NULL OR issued_at IS NULL)`
  )
  console.log(`summary ${JSON.stringify({ batch, statuses, duplicates, mails, withoutFile: withoutFile.length })}`)
  await roda.dispose()
  process.exit(0)
}
