import { SqlClient } from "@effect/sql"
import { HotTexts } from "@roda/sql-pglite"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { POSTGRES_ONLY, skipWhen } from "../../../../testing/skips"
import { makeStatementNames } from "../../node/sql/namedStatements"
import { PLANNED_WITH_VALUES } from "../../src/sql/plannedWithValues"
import { startRoda } from "../support/harness"

describe("names for hot statements", () => {
  it("names a statement from its third use on, always with the same name", () => {
    const nameOf = makeStatementNames()
    expect(nameOf("SELECT $1")).toBeUndefined()
    expect(nameOf("SELECT $1")).toBeUndefined()
    const name = nameOf("SELECT $1")
    expect(name).toMatch(/^roda_\d+$/)
    expect(nameOf("SELECT $1")).toBe(name)
    expect(nameOf("SELECT $2")).toBeUndefined()
  })

  it("stops naming new statements past its limit, so text built on the fly cannot grow it", () => {
    const nameOf = makeStatementNames()
    for (let i = 0; i < 2_000; i++) for (let n = 0; n < 3; n++) nameOf(`SELECT ${i}`)
    expect(nameOf("SELECT 0")).toBe("roda_1")
    for (let n = 0; n < 5; n++) expect(nameOf("SELECT 'one too many'")).toBeUndefined()
  })

  it("tells texts of the same length apart, built afresh or not", () => {
    const nameOf = makeStatementNames()
    const built = (letter: string) => ["SELECT ", letter, " FROM t WHERE id = $1"].join("")
    for (let n = 0; n < 3; n++) nameOf(built("a"))
    for (let n = 0; n < 3; n++) nameOf(built("b"))
    expect(nameOf(built("a"))).toBe("roda_1")
    expect(nameOf(built("b"))).toBe("roda_2")
    expect(nameOf(built("c"))).toBeUndefined()
  })

  it("forgets texts it only counted once past 10,000 of them, so one-off texts cannot pile up", () => {
    const nameOf = makeStatementNames()
    nameOf("SELECT $1 AS kept")
    nameOf("SELECT $1 AS kept")
    for (let i = 0; i < 10_000; i++) nameOf(`SELECT $1, ${i}`)
    // Its two earlier uses were forgotten with the rest: it needs three more to be named.
    expect(nameOf("SELECT $1 AS kept")).toBeUndefined()
    expect(nameOf("SELECT $1 AS kept")).toBeUndefined()
    expect(nameOf("SELECT $1 AS kept")).toMatch(/^roda_\d+$/)
  })

  it("never names a statement that asks to be planned with its values, however hot", () => {
    const nameOf = makeStatementNames()
    const text = `SELECT id FROM profiles WHERE full_name ILIKE $1 ${PLANNED_WITH_VALUES}`
    for (let n = 0; n < 10; n++) expect(nameOf(text)).toBeUndefined()
    // The marker is the drivers' own (HotTexts, in @roda/sql-pglite), to the letter.
    expect(PLANNED_WITH_VALUES).toBe(HotTexts.PLANNED_WITH_VALUES)
  })
})

skipWhen(POSTGRES_ONLY).describe("on PostgreSQL", () => {
  const roda = startRoda()
  afterAll(() => roda.dispose())

  it("prepares a hot statement once per connection and reuses it", async () => {
    const prepared = await roda.runtime.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return yield* sql.withTransaction(Effect.gen(function*() {
        for (let i = 0; i < 6; i++) {
          const [row] = yield* sql<{ n: number }>`SELECT ${i}::int + 1 AS n`
          expect(row!.n).toBe(i + 1)
        }
        return yield* sql<{ name: string; statement: string }>`
          SELECT name, statement FROM pg_prepared_statements WHERE statement LIKE '%::int + 1 AS n'`
      }))
    }))
    expect(prepared).toHaveLength(1)
    expect(prepared[0]!.name).toMatch(/^roda_\d+$/)
  })
})
