import * as Reactivity from "@effect/experimental/Reactivity"
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import { describe, expect, it, layer } from "@effect/vitest"
import { PgliteClient } from "@roda/sql-pglite"
import * as Chunk from "effect/Chunk"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as String from "effect/String"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"

const countRows = (table: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM ${sql(table)}`,
      (rows) => rows[0]?.n
    ))

// excludeTestServices: the visibility test needs the real clock
// Every case runs with PostgreSQL on this thread and in a worker thread: both answer alike.
for (const thread of ["main", "worker"] as const) {
  layer(PgliteClient.layer({ thread }), { excludeTestServices: true })(
    `PgliteClient (in memory, ${thread} thread)`,
    (it) => {
      it.effect("runs 50 concurrent queries", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const results = yield* Effect.all(
            Array.from({ length: 50 }, (_, i) => sql<{ readonly n: number }>`SELECT ${i}::int AS n`),
            { concurrency: 50 }
          )
          expect(results.map((rows) => rows[0]?.n)).toEqual(Array.from({ length: 50 }, (_, i) => i))
        }))

      it.effect("reads timestamps of every year as PostgreSQL holds them (years 1 to 99 too), named or not", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const instants = [
            "0001-01-01T00:00:00.000Z",
            "0050-05-01T19:00:00.000Z",
            "0099-12-31T23:59:59.999Z",
            "2026-11-25T10:00:00.123Z"
          ]
          // Four times: a statement is prepared under a name from its third call (another code path).
          for (let call = 0; call < 4; call++) {
            for (const instant of instants) {
              const rows = yield* sql<{ readonly at: Date; readonly local: Date; readonly list: ReadonlyArray<Date> }>`
            SELECT ${instant}::timestamptz AS at, (${instant}::timestamptz AT TIME ZONE 'UTC') AS local,
              ARRAY[${instant}::timestamptz] AS list`
              expect(rows[0]!.at.toISOString()).toBe(instant)
              expect(rows[0]!.list.map((at) => at.toISOString())).toEqual([instant])
              expect(rows[0]!.local.getFullYear()).toBe(Number(instant.slice(0, 4)))
            }
          }
        }))

      it.effect("hides a transaction from other fibers until it commits", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE TABLE tx_visibility (id int)`
          const inserted = yield* Deferred.make<void>()
          const finish = yield* Deferred.make<void>()

          const transaction = yield* sql.withTransaction(
            Effect.gen(function*() {
              yield* sql`INSERT INTO tx_visibility VALUES (1)`
              // a query of the transaction's own fiber must not wait for the permit
              expect(yield* countRows("tx_visibility")).toBe(1)
              yield* Deferred.succeed(inserted, undefined)
              yield* Deferred.await(finish)
            })
          ).pipe(Effect.fork)

          yield* Deferred.await(inserted)
          const reader = yield* countRows("tx_visibility").pipe(Effect.fork)
          yield* Effect.sleep("100 millis")
          expect(Option.isNone(yield* Fiber.poll(reader))).toBe(true)

          yield* Deferred.succeed(finish, undefined)
          yield* Fiber.join(transaction)
          expect(yield* Fiber.join(reader)).toBe(1)
        }))

      it.effect("discards a rolled back transaction", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE TABLE tx_rollback (id int)`
          const error = yield* sql.withTransaction(
            Effect.zipRight(sql`INSERT INTO tx_rollback VALUES (1)`, Effect.fail("boom" as const))
          ).pipe(Effect.flip)
          expect(error).toBe("boom")
          expect(yield* countRows("tx_rollback")).toBe(0)
        }))

      it.effect("a statement made while a transaction runs is neither inside it nor undone with it", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE TABLE tx_beside (who text)`
          const inserted = yield* Deferred.make<void>()
          const finish = yield* Deferred.make<void>()
          const transaction = yield* sql.withTransaction(
            sql`INSERT INTO tx_beside VALUES ('transaction')`.pipe(
              Effect.zipRight(Deferred.succeed(inserted, undefined)),
              Effect.zipRight(Deferred.await(finish)),
              Effect.zipRight(Effect.fail("undo" as const))
            )
          ).pipe(Effect.flip, Effect.fork)
          yield* Deferred.await(inserted)
          const beside = yield* Effect.fork(
            Effect.all(Array.from({ length: 20 }, (_, i) => sql`INSERT INTO tx_beside VALUES (${`beside ${i}`})`), {
              concurrency: "unbounded"
            })
          )
          yield* Effect.sleep("20 millis")
          yield* Deferred.succeed(finish, undefined)
          expect(yield* Fiber.join(transaction)).toBe("undo")
          yield* Fiber.join(beside)
          const rows = yield* sql<{ readonly who: string }>`SELECT who FROM tx_beside ORDER BY who`
          expect(rows.map((row) => row.who)).toEqual(Array.from({ length: 20 }, (_, i) => `beside ${i}`).sort())
        }))

      it.effect("rolls back a failed nested transaction to its savepoint", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE TABLE tx_nested (id int)`
          yield* sql.withTransaction(
            Effect.gen(function*() {
              yield* sql`INSERT INTO tx_nested VALUES (1)`
              yield* sql.withTransaction(
                Effect.zipRight(sql`INSERT INTO tx_nested VALUES (2)`, Effect.fail("inner"))
              ).pipe(Effect.ignore)
              yield* sql`INSERT INTO tx_nested VALUES (3)`
            })
          )
          const rows = yield* sql<{ readonly id: number }>`SELECT id FROM tx_nested ORDER BY id`
          expect(rows.map((row) => row.id)).toEqual([1, 3])
        }))

      it.effect("recovers from a failed statement inside a savepoint", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE TABLE tx_savepoint_error (id int PRIMARY KEY)`
          yield* sql.withTransaction(
            Effect.gen(function*() {
              yield* sql`INSERT INTO tx_savepoint_error VALUES (1)`
              const error = yield* sql.withTransaction(sql`INSERT INTO tx_savepoint_error VALUES (1)`).pipe(Effect.flip)
              expect((error.cause as { readonly code?: string }).code).toBe("23505")
              yield* sql`INSERT INTO tx_savepoint_error VALUES (2)`
            })
          )
          expect(yield* countRows("tx_savepoint_error")).toBe(2)
        }))

      it.effect("rolls back and frees the session when a transaction is interrupted", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE TABLE tx_interrupted (id int)`
          const inserted = yield* Deferred.make<void>()
          const transaction = yield* sql.withTransaction(
            Effect.zipRight(
              sql`INSERT INTO tx_interrupted VALUES (1)`,
              Effect.zipRight(Deferred.succeed(inserted, undefined), Effect.never)
            )
          ).pipe(Effect.fork)
          yield* Deferred.await(inserted)
          yield* Fiber.interrupt(transaction)
          expect(yield* countRows("tx_interrupted")).toBe(0)
        }))

      it.effect("round-trips json values", () =>
        Effect.gen(function*() {
          const sql = yield* PgliteClient.PgliteClient
          const doc = { title: "hello", tags: ["a", "b"], nested: { depth: 2, list: [{ ok: true }, null] } }
          yield* sql`CREATE TABLE docs (id int PRIMARY KEY, body jsonb NOT NULL)`
          yield* sql`INSERT INTO docs ${sql.insert({ id: 1, body: sql.json(doc) })}`
          yield* sql`INSERT INTO docs VALUES (2, ${doc})`
          const rows = yield* sql<{ readonly id: number; readonly body: unknown }>`SELECT * FROM docs ORDER BY id`
          expect(rows).toEqual([{ id: 1, body: doc }, { id: 2, body: doc }])
        }))

      it.effect("stores a value with toJSON (a class instance, nested too) as JSON.stringify writes it", () =>
        Effect.gen(function*() {
          const sql = yield* PgliteClient.PgliteClient
          class Money {
            constructor(readonly cents: number) {}
            toJSON() {
              return { amount: this.cents / 100, currency: "BRL" }
            }
          }
          const doc = { price: new Money(1990), list: [new Money(5)] }
          yield* sql`CREATE TABLE priced (id int PRIMARY KEY, body jsonb NOT NULL)`
          yield* sql`INSERT INTO priced VALUES (1, ${sql.json(new Money(250))}), (2, ${sql.json(doc)})`
          const rows = yield* sql<{ readonly body: unknown }>`SELECT body FROM priced ORDER BY id`
          expect(rows.map((row) => row.body)).toEqual([
            { amount: 2.5, currency: "BRL" },
            { price: { amount: 19.9, currency: "BRL" }, list: [{ amount: 0.05, currency: "BRL" }] }
          ])
        }))

      it.effect("fails a unique violation with an SqlError carrying the pg code", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE TABLE uniques (email text UNIQUE)`
          yield* sql`INSERT INTO uniques VALUES ('a@example.com')`
          const error = yield* sql`INSERT INTO uniques VALUES ('a@example.com')`.pipe(Effect.flip)
          expect(error).toBeInstanceOf(SqlError)
          expect((error.cause as { readonly code?: string }).code).toBe("23505")
        }))

      it.effect("compiles fragments like PostgreSQL", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE TABLE people (id int PRIMARY KEY, name text, age int)`
          yield* sql`INSERT INTO people ${
            sql.insert([{ id: 1, name: "Ann", age: 30 }, { id: 2, name: "Bob", age: 40 }])
          }`
          yield* sql`UPDATE people SET ${sql.update({ age: 31 })} WHERE id = 1`
          const rows = yield* sql`SELECT name, age FROM people WHERE ${sql.in("id", [1, 2])} ORDER BY id`
          expect(rows).toEqual([{ name: "Ann", age: 31 }, { name: "Bob", age: 40 }])
          const values = yield* sql`SELECT id, name FROM people ORDER BY id`.values
          expect(values).toEqual([[1, "Ann"], [2, "Bob"]])
          const streamed = yield* Stream.runCollect(
            sql<{ readonly id: number }>`SELECT id FROM people ORDER BY id`.stream
          )
          expect(Chunk.toReadonlyArray(streamed).map((row) => row.id)).toEqual([1, 2])
          const raw = yield* sql`DELETE FROM people WHERE id = 2`.raw
          expect((raw as { readonly affectedRows?: number }).affectedRows).toBe(1)
        }))

      it.effect("runs unprepared statements with several commands", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const rows = yield* sql`SELECT 1 AS a; SELECT 2 AS b`.unprepared
          expect(rows).toEqual([[{ a: 1 }], [{ b: 2 }]])
        }))

      it.effect("parses timestamptz as Date and int8 as number or bigint", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const [row] = yield* sql<{ readonly at: unknown; readonly small: unknown; readonly big: unknown }>`
        SELECT '2024-01-02T03:04:05Z'::timestamptz AS at, 5::int8 AS small, 9007199254740993::int8 AS big`
          expect(row?.at).toEqual(new Date("2024-01-02T03:04:05Z"))
          expect(row?.small).toBe(5)
          expect(row?.big).toBe(9007199254740993n)
        }))

      it.effect("holds the session for a reserved connection", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const connection = yield* sql.reserve
          const other = yield* sql`SELECT 1`.pipe(Effect.fork)
          const rows = yield* connection.execute("SELECT $1::int AS n", [7], undefined)
          expect(rows).toEqual([{ n: 7 }])
          yield* Effect.sleep("50 millis")
          expect(Option.isNone(yield* Fiber.poll(other))).toBe(true)
        }).pipe(Effect.scoped))
    }
  )

  layer(
    PgliteClient.layer({ thread, transformQueryNames: String.camelToSnake, transformResultNames: String.snakeToCamel })
  )(`PgliteClient (name transforms, ${thread} thread)`, (it) => {
    it.effect("transforms query and result names", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE ${sql("userProfiles")} (${sql("userId")} int, ${sql("displayName")} text)`
        yield* sql`INSERT INTO user_profiles ${sql.insert({ userId: 1, displayName: "Ann" })}`
        const rows = yield* sql`SELECT * FROM user_profiles`
        expect(rows).toEqual([{ userId: 1, displayName: "Ann" }])
      }))
  })

  describe(`PgliteClient (lifecycle, ${thread} thread)`, () => {
    it.effect("closes PGlite when the scope ends", () =>
      Effect.gen(function*() {
        const client = yield* Effect.scoped(PgliteClient.make({ dataDir: "memory", thread }))
        const error = yield* Effect.flip(client`SELECT 1`)
        expect(error).toBeInstanceOf(SqlError)
        expect((error.cause as Error).message).toMatch(/closed/i)
      }).pipe(Effect.provide(Reactivity.layer)))

    it.effect("persists a data directory across layer instances", () =>
      Effect.acquireUseRelease(
        Effect.promise(() => mkdtemp(join(tmpdir(), "roda-pglite-"))),
        (root) =>
          Effect.gen(function*() {
            // a missing nested folder is created
            const dataDir = join(root, "nested", "db")
            yield* Effect.gen(function*() {
              const sql = yield* SqlClient.SqlClient
              yield* sql`CREATE TABLE notes (body text)`
              yield* sql`INSERT INTO notes VALUES ('kept')`
            }).pipe(Effect.provide(PgliteClient.layer({ dataDir, thread })))

            const rows = yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT body FROM notes`).pipe(
              Effect.provide(PgliteClient.layer({ dataDir, thread }))
            )
            expect(rows).toEqual([{ body: "kept" }])
          }),
        (root) => Effect.promise(() => rm(root, { recursive: true, force: true }))
      ))
  })
}
