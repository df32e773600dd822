import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import { describe, expect, it, layer } from "@effect/vitest"
import { PgliteClient } from "@roda/sql-pglite"
import * as Effect from "effect/Effect"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** The statements prepared in the session, by their text. */
const prepared = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(
    sql<{ readonly statement: string }>`SELECT statement FROM pg_prepared_statements`,
    (rows) => rows.map((row) => row.statement)
  ))

const typed = (sql: SqlClient.SqlClient, id: string) =>
  sql`SELECT ${id}::uuid AS id, ${42}::int AS n, ${"2026-11-24T10:00:00.123Z"}::timestamptz AS at,
    ${JSON.stringify({ a: [1, "x"] })}::jsonb AS doc, ARRAY[${"b"}, ${"a"}]::text[] AS tags, NULL::text AS nothing,
    ${true}::boolean AS flag, ${"12345678901234"}::bigint AS big`

for (const thread of ["main", "worker"] as const) {
  layer(PgliteClient.layer({ thread }))(`PgliteClient named statements (${thread} thread)`, (it) => {
    it.effect("a statement sent three times is prepared, and answers exactly as unprepared", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const id = "01a20dda-8c13-7e99-9502-04f2793b73bd"
        const first = yield* typed(sql, id)
        expect((yield* prepared).some((text) => text.includes("AS nothing"))).toBe(false)
        yield* typed(sql, id)
        const third = yield* typed(sql, id)
        const fourth = yield* typed(sql, id)
        expect((yield* prepared).filter((text) => text.includes("AS nothing"))).toHaveLength(1)
        expect(third).toEqual(first)
        expect(fourth).toEqual(first)
        expect(first[0]).toEqual({
          id,
          n: 42,
          at: new Date("2026-11-24T10:00:00.123Z"),
          doc: { a: [1, "x"] },
          tags: ["b", "a"],
          nothing: null,
          flag: true,
          big: 12345678901234
        })
      }))

    it.effect("a prepared statement that fails leaves the session usable, in and out of transactions", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE named_notes (id int PRIMARY KEY, body text NOT NULL)`
        const insert = (id: number, body: string | null) =>
          sql`INSERT INTO named_notes (id, body) VALUES (${id}, ${body}) RETURNING id`
        for (const id of [1, 2, 3, 4]) yield* insert(id, `note ${id}`)
        expect((yield* prepared).filter((text) => text.includes("named_notes"))).toHaveLength(1)
        const duplicate = yield* Effect.flip(insert(1, "again"))
        expect(duplicate).toBeInstanceOf(SqlError)
        const missing = yield* Effect.flip(insert(5, null))
        expect(missing).toBeInstanceOf(SqlError)
        // a transaction rolled back by a failing prepared statement keeps nothing
        const rolledBack = yield* Effect.flip(
          sql.withTransaction(Effect.zipRight(insert(6, "kept?"), insert(1, "dup")))
        )
        expect(rolledBack).toBeInstanceOf(SqlError)
        yield* sql.withTransaction(insert(7, "in a transaction"))
        const rows = yield* sql<{ readonly id: number }>`SELECT id FROM named_notes ORDER BY id`
        expect(rows.map((row) => row.id)).toEqual([1, 2, 3, 4, 7])
      }))

    it.effect("prepared statements answer values, raw results and affected rows as unprepared ones", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE named_counts (id int PRIMARY KEY, n int NOT NULL)`
        const answers = []
        for (let round = 1; round <= 4; round++) {
          const base = round * 10
          answers.push({
            inserted: ((yield* sql`INSERT INTO named_counts (id, n) VALUES (${base}, ${1}), (${base + 1}, ${2})`
              .raw) as { readonly affectedRows?: number }).affectedRows,
            updated: ((yield* sql`UPDATE named_counts SET n = n + ${1} WHERE id >= ${base}`.raw) as {
              readonly affectedRows?: number
            }).affectedRows,
            // one column name twice: the last value wins, as in an unprepared statement
            values: yield* sql`SELECT ${base}::int AS n, ${"a"}::text AS n, ${[1, 2]}::int[] AS list`.values,
            twice: yield* sql`SELECT ${base}::int AS n, ${"a"}::text AS n`,
            none: yield* sql`SELECT id FROM named_counts WHERE id = ${-base}`,
            deleted: ((yield* sql`DELETE FROM named_counts WHERE id = ${base + 1}`.raw) as {
              readonly affectedRows?: number
            }).affectedRows
          })
        }
        expect((yield* prepared).filter((text) => text.includes("named_counts"))).toHaveLength(4)
        expect(answers.map((answer) => answer.inserted)).toEqual([2, 2, 2, 2])
        expect(answers.map((answer) => answer.updated)).toEqual([2, 2, 2, 2])
        expect(answers.map((answer) => answer.deleted)).toEqual([1, 1, 1, 1])
        expect(answers.map((answer) => answer.values)).toEqual(
          [10, 20, 30, 40].map((n) => [[n, "a", [1, 2]]])
        )
        expect(answers.map((answer) => answer.twice)).toEqual([10, 20, 30, 40].map(() => [{ n: "a" }]))
        expect(answers.map((answer) => answer.none)).toEqual([[], [], [], []])
      }))

    it.effect("a prepared statement given a value its parameter cannot take fails alone", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const double = (n: unknown) => sql<{ readonly twice: number }>`SELECT ${n}::int * 2 AS twice`
        for (const n of [1, 2, 3]) yield* double(n)
        const refused = yield* Effect.flip(double("not a number"))
        expect(refused).toBeInstanceOf(SqlError)
        expect(yield* double(21)).toEqual([{ twice: 42 }])
        // the same inside a transaction: it fails, rolls back, and the session goes on
        const inTransaction = yield* Effect.flip(sql.withTransaction(double("still not a number")))
        expect(inTransaction).toBeInstanceOf(SqlError)
        expect(yield* double(5)).toEqual([{ twice: 10 }])
      }))

    it.effect("a prepared statement whose columns changed underneath fails rather than answer misnamed values", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE named_shapes (id int, label text)`
        yield* sql`INSERT INTO named_shapes VALUES (1, 'one')`
        const read = (id: number) => sql`SELECT * FROM named_shapes WHERE id = ${id}`
        for (let n = 0; n < 4; n++) expect(yield* read(1)).toEqual([{ id: 1, label: "one" }])
        yield* sql`ALTER TABLE named_shapes ADD COLUMN extra int`
        expect(yield* Effect.flip(read(1))).toBeInstanceOf(SqlError)
      }))

    it.effect("a statement that cannot be prepared leaves the session usable", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE named_dropped (id int)`
        const read = (id: number) => sql`SELECT id FROM named_dropped WHERE id = ${id}`
        // sent twice unprepared, then the table goes: the third sending, which prepares it, fails
        yield* read(1)
        yield* read(2)
        yield* sql`DROP TABLE named_dropped`
        expect(yield* Effect.flip(read(3))).toBeInstanceOf(SqlError)
        expect(yield* sql`SELECT ${7}::int AS n`).toEqual([{ n: 7 }])
      }))
  })

  describe(`PgliteClient named statements (data directory, ${thread} thread)`, () => {
    it.effect("writes through prepared statements are on disk when the database is opened again", () =>
      Effect.acquireUseRelease(
        Effect.promise(() => mkdtemp(join(tmpdir(), "roda-pglite-named-"))),
        (dataDir) =>
          Effect.gen(function*() {
            yield* Effect.gen(function*() {
              const sql = yield* SqlClient.SqlClient
              yield* sql`CREATE TABLE kept (n int)`
              for (let n = 1; n <= 5; n++) yield* sql`INSERT INTO kept (n) VALUES (${n})`
            }).pipe(Effect.provide(PgliteClient.layer({ dataDir, thread })))
            const rows = yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT n FROM kept ORDER BY n`).pipe(
              Effect.provide(PgliteClient.layer({ dataDir, thread }))
            )
            expect(rows).toEqual([1, 2, 3, 4, 5].map((n) => ({ n })))
          }),
        (dataDir) => Effect.promise(() => rm(dataDir, { recursive: true, force: true }))
      ))
  })
}
