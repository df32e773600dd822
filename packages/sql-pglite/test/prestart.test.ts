import * as Reactivity from "@effect/experimental/Reactivity"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { PgliteClient } from "@roda/sql-pglite"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as tar from "tar"
import { afterAll, beforeAll } from "vitest"
import * as Start from "../src/internal/start"

const scratch = mkdtempSync(join(tmpdir(), "roda-prestart-"))
const template = join(scratch, "template.tar")
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const query = <A>(
  config: PgliteClient.PgliteClientConfig,
  run: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>
) => Effect.scoped(Effect.flatMap(PgliteClient.make(config), run)).pipe(Effect.provide(Reactivity.layer))

const notes = (sql: SqlClient.SqlClient) =>
  Effect.map(
    sql<{ readonly body: string }>`SELECT body FROM notes ORDER BY body`,
    (rows) => rows.map((row) => row.body)
  )

/** Whether the folder holds the template's table. */
const hasNotes = (sql: SqlClient.SqlClient) =>
  Effect.map(
    sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM pg_class WHERE relname = 'notes'`,
    (rows) => rows[0]!.n === 1
  )

beforeAll(async () => {
  const folder = join(scratch, "made")
  await Effect.runPromise(
    query(
      { dataDir: folder },
      (sql) => Effect.zipRight(sql`CREATE TABLE notes (body text)`, sql`INSERT INTO notes VALUES ('from the template')`)
    )
  )
  tar.c({ file: template, cwd: folder, sync: true, portable: true }, readdirSync(folder))
})

describe("unpackFrom", () => {
  for (const thread of ["main", "worker"] as const) {
    it.effect(`a new folder starts as the tar; a folder with a database keeps its own (${thread} thread)`, () =>
      Effect.gen(function*() {
        const dataDir = join(scratch, `unpacked-${thread}`, "pg")
        const config = { dataDir, thread, unpackFrom: template }
        expect(yield* query(config, (sql) => Effect.zipLeft(notes(sql), sql`INSERT INTO notes VALUES ('its own')`)))
          .toEqual(["from the template"])
        expect(yield* query(config, notes)).toEqual(["from the template", "its own"])
        expect(readdirSync(join(scratch, `unpacked-${thread}`))).toEqual(["pg"])
      }))
  }
})

describe("prestart", () => {
  it.effect("the next client of the folder, opening it the same way, takes the started database over", () =>
    Effect.gen(function*() {
      const dataDir = join(scratch, "taken-over")
      const before = Start.enginesStarted
      PgliteClient.prestart({ dataDir, unpackFrom: template, contrib: ["pg_trgm"] })
      const answer = yield* query(
        { dataDir, thread: "worker", unpackFrom: template, contrib: ["pg_trgm"] },
        (sql) =>
          Effect.zip(
            notes(sql),
            Effect.zipRight(sql`CREATE EXTENSION pg_trgm`, sql`SELECT similarity('roda', 'rodas') > 0 AS near`)
          )
      )
      expect(answer).toEqual([["from the template"], [{ near: true }]])
      expect(Start.enginesStarted).toBe(before + 1)
    }))

  it.effect("a client opening it another way closes the started one and removes the folder it made", () =>
    Effect.gen(function*() {
      const dataDir = join(scratch, "discarded")
      const before = Start.enginesStarted
      PgliteClient.prestart({ dataDir, unpackFrom: template })
      // Without the template: had the started database not been removed, its table would be here.
      expect(yield* query({ dataDir, thread: "worker" }, hasNotes)).toBe(false)
      expect(Start.enginesStarted).toBe(before + 2)
      expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(true)
    }))

  it.effect("a failure to open is the client's", () =>
    Effect.gen(function*() {
      const dataDir = join(scratch, "unknown-extension")
      PgliteClient.prestart({ dataDir, contrib: ["no_such_extension"] })
      const error = yield* Effect.flip(query({ dataDir, thread: "worker", contrib: ["no_such_extension"] }, hasNotes))
      expect((error as Error).message).toMatch(/failed to open the database/)
    }))
})

describe("prepare", () => {
  for (const thread of ["main", "worker"] as const) {
    it.live(`the client is there at once; its statements and transactions wait for prepare (${thread} thread)`, () =>
      Effect.gen(function*() {
        const gate = yield* Deferred.make<void>()
        const prepare = Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => Effect.zipRight(Deferred.await(gate), sql`CREATE TABLE prepared (n int)`)
        )
        const seen = yield* Effect.scoped(Effect.gen(function*() {
          const sql = yield* PgliteClient.make({ thread, prepare })
          const statement = yield* Effect.fork(sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM prepared`)
          const transaction = yield* Effect.fork(sql.withTransaction(sql`INSERT INTO prepared VALUES (1)`))
          yield* Effect.sleep("50 millis")
          const early = [statement, transaction].map((fiber) => fiber.unsafePoll() === null)
          yield* Deferred.succeed(gate, undefined)
          return { early, counted: (yield* Fiber.join(statement))[0]!.n, inserted: yield* Fiber.join(transaction) }
        }))
        expect(seen.early).toEqual([true, true])
        expect(seen.counted).toBe(0)
        expect(seen.inserted).toEqual([])
      }).pipe(Effect.provide(Reactivity.layer)))
  }

  it.effect("a prepare that fails fails every statement with its error", () =>
    Effect.gen(function*() {
      const prepare = Effect.fail(new Error("migration 7 is broken"))
      const errors = yield* Effect.scoped(Effect.gen(function*() {
        const sql = yield* PgliteClient.make({ thread: "worker", prepare })
        return yield* Effect.all([Effect.flip(sql`SELECT 1`), Effect.flip(sql.withTransaction(sql`SELECT 1`))])
      }))
      expect(errors.map((error) => error.message)).toEqual([
        "PgliteClient: the database could not be prepared: migration 7 is broken",
        "PgliteClient: the database could not be prepared: migration 7 is broken"
      ])
    }).pipe(Effect.provide(Reactivity.layer)))

  it.effect("a database that cannot open fails every statement with the reason", () =>
    Effect.gen(function*() {
      const error = yield* Effect.scoped(Effect.gen(function*() {
        const sql = yield* PgliteClient.make({
          dataDir: join(scratch, "cannot-open"),
          thread: "worker",
          contrib: ["no_such_extension"],
          prepare: Effect.void
        })
        return yield* Effect.flip(sql`SELECT 1`)
      }))
      expect(error.message).toMatch(/^PgliteClient: failed to open the database: .*no_such_extension/)
    }).pipe(Effect.provide(Reactivity.layer)))
})
