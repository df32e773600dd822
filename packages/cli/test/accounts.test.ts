import { Migrator, SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { unaccent } from "@electric-sql/pglite/contrib/unaccent"
import { migrations } from "@roda/core"
import { PgliteClient } from "@roda/sql-pglite"
import { Effect, type Layer, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { errorLines, jsonOf, makeWorld, SPAWNS, tag, uniqueEmail } from "./support"

/**
 * Issue 52, item 7: `roda admin accounts email-conflicts` lists the accounts that migration 0039 found
 * sharing an address once normalised. The database is one an older version left: migrated up to the
 * migration before 0039, with NFD rows in it; the command applies the pending migrations itself, as
 * any command does, then lists.
 */
const OPERATOR = uniqueEmail("ops")
const SUPERADMIN_ONLY = "Apenas operadores da plataforma (SuperAdmin) podem fazer isto."

const NFC_MIGRATION = Object.keys(migrations).find((key) => key.endsWith("_email_nfc"))!
const beforeNfc = Object.fromEntries(Object.entries(migrations).filter(([key]) => key < NFC_MIGRATION))

const world = await makeWorld([OPERATOR])
const address = `zoë-${tag()}@roda.test`
const decomposed = { id: randomUUID(), email: address.normalize("NFD") }
const composed = { id: randomUUID(), email: address.toUpperCase() }
const alone = { id: randomUUID(), email: `josé-${tag()}@roda.test`.normalize("NFD") }
const member = uniqueEmail("member")

/**
 * The world's database as an older version left it: on PostgreSQL the file's database emptied (it
 * comes migrated), on the embedded database the world's new folder; then migrated up to 0039 only.
 */
const olderDatabase = (): Layer.Layer<SqlClient.SqlClient, unknown> =>
  world.postgres
    ? PgClient.layer({ url: Redacted.make(world.env.DATABASE_URL!) })
    : PgliteClient.layer({ dataDir: join(world.dataDir, "pg"), extensions: { pg_trgm, unaccent } })

beforeAll(async () => {
  await Effect.runPromise(Effect.scoped(
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      if (world.postgres) yield* sql.unsafe("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
      yield* Migrator.make({})({ loader: Migrator.fromRecord(beforeNfc), table: "roda_migrations" })
      const accounts = [
        { id: randomUUID(), email: OPERATOR, name: "Olívia Operadora", verified: true },
        { id: randomUUID(), email: member, name: "Pessoa Teste", verified: true },
        { ...decomposed, name: "Zoë NFD", verified: false },
        { ...composed, name: "Zoë NFC", verified: false },
        { ...alone, name: "José", verified: false }
      ]
      // created a minute apart, so the list's order (by creation) is this one
      for (const [i, account] of accounts.entries()) {
        const createdAt = new Date(Date.UTC(2024, 0, 1, 12, i))
        yield* sql`INSERT INTO accounts (id, email, full_name, email_verified_at, created_at)
          VALUES (${account.id}, ${account.email}, ${account.name}, ${account.verified ? createdAt : null},
            ${createdAt})`
      }
    }).pipe(Effect.provide(olderDatabase()))
  ))
}, 240_000)

describe("roda admin accounts email-conflicts", SPAWNS, () => {
  it("migrates, then prints both accounts of a collision (JSON and table); a lone NFD address is rewritten", async () => {
    const listed = jsonOf(await world.cli(["admin", "accounts", "email-conflicts", "--as", OPERATOR, "--json"]))
    const key = address.normalize("NFC")
    expect(listed.map((row: any) => ({ accountId: row.accountId, email: row.email, emailKey: row.emailKey })))
      .toEqual([
        { accountId: decomposed.id, email: decomposed.email, emailKey: key },
        { accountId: composed.id, email: composed.email, emailKey: key }
      ])

    const table = await world.cli(["admin", "accounts", "email-conflicts", "--as", OPERATOR])
    expect(table.code).toBe(0)
    const [header, ...rows] = table.stdout.trim().split("\n")
    expect(header).toMatch(/^ADDRESS\s+ACCOUNT\s+STORED_EMAIL\s+NAME\s+VERIFIED\s+CREATED$/)
    expect(rows).toHaveLength(2)
    expect(rows[0]).toContain(decomposed.id)
    expect(rows[1]).toContain(composed.id)

    const stored = await world.withRoda((api) =>
      api.sql<{ email: string }>((sql) => sql`SELECT email FROM accounts WHERE id = ${alone.id}`)
    )
    expect(stored).toEqual([{ email: alone.email.normalize("NFC") }])
  })

  it("refuses an account that is not an operator (exit 1, one line)", async () => {
    const refused = await world.cli(["admin", "accounts", "email-conflicts", "--as", member])
    expect(refused.code).toBe(1)
    expect(refused.stdout).toBe("")
    expect(errorLines(refused)).toEqual([SUPERADMIN_ONLY])
  })
})
