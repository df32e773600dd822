import { Migrator, SqlClient } from "@effect/sql"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { unaccent } from "@electric-sql/pglite/contrib/unaccent"
import { PgliteClient } from "@roda/sql-pglite"
import { Effect, Exit, Layer, String as Str } from "effect"
import { randomUUID } from "node:crypto"
import { describe, expect, it } from "vitest"
import type { Account } from "../../src/domain/Caller"
import { normalEmail } from "../../src/domain/Fields"
import { AccountId } from "../../src/domain/Ids"
import { EmailConflicts } from "../../src/identity/EmailConflicts"
import { migrate } from "../../src/sql/migrate"
import { migrations } from "../../src/sql/migrations"

/** Issue 52, item 7: addresses stored decomposed (NFD) before the NFC rule, rewritten by migration 0039. */
const NFC_MIGRATION = Object.keys(migrations).find((key) => key.endsWith("_email_nfc"))!

const before = Object.fromEntries(Object.entries(migrations).filter(([key]) => key < NFC_MIGRATION))

const database = PgliteClient.layer({
  extensions: { pg_trgm, unaccent },
  transformQueryNames: Str.camelToSnake,
  transformResultNames: Str.snakeToCamel
})

const operator: Account = {
  id: AccountId.make(randomUUID()),
  email: "ops@roda.test",
  fullName: "Ops",
  isPlatformAdmin: true,
  emailVerified: true,
  createdAt: new Date()
}

const nfd = (text: string) => text.normalize("NFD")

const ids = { alone: randomUUID(), decomposed: randomUUID(), composed: randomUUID(), ascii: randomUUID() }
const stored = {
  alone: nfd("josé.conceição@roda.test"),
  // the same address once normalised: one stored NFD, the other NFC in another case
  decomposed: nfd("zoë@roda.test"),
  composed: "ZOË@roda.test",
  ascii: "plain@roda.test"
}

describe("migration 0039: e-mails in NFC", () => {
  it("rewrites accounts and link addresses; keeps and lists accounts that collide", async () => {
    const result = await Effect.runPromise(Effect.scoped(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* Migrator.make({})({ loader: Migrator.fromRecord(before), table: "roda_migrations" })
        // rows as an older version stored them
        for (const [name, id] of Object.entries(ids)) {
          const email = stored[name as keyof typeof stored]
          yield* sql`INSERT INTO accounts (id, email, full_name, email_verified_at)
            VALUES (${id}, ${email}, ${name}, ${name === "composed" ? new Date() : null})`
        }
        const linkId = randomUUID()
        yield* sql`INSERT INTO password_links (id, account_id, purpose, secret_hash, expires_at, email)
          VALUES (${linkId}, ${ids.alone}, 'verify-email', 'x', now() + interval '1 day', ${stored.alone})`

        yield* migrate

        const accounts = yield* sql<{ id: string; email: string }>`SELECT id, email FROM accounts`
        const emailOf = (id: string) => accounts.find((row) => row.id === id)!.email
        const [link] = yield* sql<{ email: string }>`SELECT email FROM password_links WHERE id = ${linkId}`
        // found as sign-in looks addresses up (identity's Repo.findByEmail)
        const found = yield* sql<{ id: string }>`SELECT id FROM accounts
          WHERE lower(email) = lower(${normalEmail(" JOSÉ.Conceição@roda.test ")})`
        const marked = yield* sql<{ accountId: string; emailKey: string }>`SELECT account_id, email_key
          FROM account_email_conflicts ORDER BY account_id`
        const conflicts = yield* EmailConflicts
        const listed = yield* conflicts.list(operator, 100)
        const refused = yield* Effect.exit(conflicts.list({ ...operator, isPlatformAdmin: false }, 100))
        // resolved: one holder moves to another address, and the pair leaves the list
        yield* sql`UPDATE accounts SET email = 'zoe-2@roda.test' WHERE id = ${ids.decomposed}`
        const afterResolve = yield* conflicts.list(operator, 100)
        return { emailOf, link, found, marked, listed, refused, afterResolve }
      }).pipe(Effect.provide(EmailConflicts.Default.pipe(Layer.provideMerge(database))))
    ))

    expect(result.emailOf(ids.alone)).toBe("josé.conceição@roda.test".normalize("NFC"))
    expect(result.emailOf(ids.alone)).not.toBe(stored.alone)
    expect(result.link?.email).toBe(result.emailOf(ids.alone))
    expect(result.found.map((row) => row.id)).toEqual([ids.alone])
    expect(result.emailOf(ids.ascii)).toBe(stored.ascii)
    // both kept as they were: rewriting one would have broken the unique index
    expect(result.emailOf(ids.decomposed)).toBe(stored.decomposed)
    expect(result.emailOf(ids.composed)).toBe(stored.composed)

    const key = "zoë@roda.test".normalize("NFC")
    expect(result.marked).toEqual(
      [ids.decomposed, ids.composed].sort().map((accountId) => ({ accountId, emailKey: key }))
    )
    // the pair, oldest first: both rows may carry one `created_at` (then by id), so compared as a set
    const byId = (a: { accountId: string }, b: { accountId: string }) => a.accountId.localeCompare(b.accountId)
    expect(
      result.listed.map(({ accountId, email, emailKey, emailVerified }) => ({
        accountId,
        email,
        emailKey,
        emailVerified
      })).sort(byId)
    ).toEqual([
      { accountId: ids.decomposed, email: stored.decomposed, emailKey: key, emailVerified: false },
      { accountId: ids.composed, email: stored.composed, emailKey: key, emailVerified: true }
    ].sort(byId))
    expect(Exit.isFailure(result.refused)).toBe(true)
    expect(result.afterResolve).toEqual([])
  })
})
