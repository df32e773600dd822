import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { startRoda } from "./support/harness"

const roda = startRoda()
afterAll(() => roda.dispose())

const SCOPE_FREE = Symbol.for("@effect/sql/Statement/scopeFreeAcquirer")

/** What `patches/@effect__sql@0.52.1.patch` reads on a statement to skip its `Effect.scoped`. */
const scopeFree = (statement: unknown) => (statement as { acquirer: Record<symbol, unknown> }).acquirer[SCOPE_FREE]

describe("statements (the @effect/sql patch)", () => {
  it("run on this database's client without a scope of their own, in and out of a transaction", async () => {
    const seen = await roda.runtime.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const outside = yield* sql<{ n: number }>`SELECT 1 AS n`
      const inside = yield* sql.withTransaction(sql<{ n: number }>`SELECT 2 AS n`)
      return { flag: scopeFree(sql`SELECT 1`), outside: outside[0]?.n, inside: inside[0]?.n }
    }))
    expect(seen).toEqual({ flag: true, outside: 1, inside: 2 })
  })

  it("still roll a failed transaction back", async () => {
    const table = `scope_free_${Date.now()}`
    const count = await roda.runtime.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql.unsafe(`CREATE TABLE ${table} (n int)`)
      yield* sql.withTransaction(
        Effect.zipRight(sql.unsafe(`INSERT INTO ${table} VALUES (1)`), Effect.fail("stop"))
      ).pipe(Effect.ignore)
      const rows = yield* sql.unsafe<{ count: number }>(`SELECT count(*)::int AS count FROM ${table}`)
      yield* sql.unsafe(`DROP TABLE ${table}`)
      return rows[0]?.count
    }))
    expect(count).toBe(0)
  })
})
