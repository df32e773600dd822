import * as Reactivity from "@effect/experimental/Reactivity"
import * as SqlClient from "@effect/sql/SqlClient"
import { PgliteClient } from "@roda/sql-pglite"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Logger from "effect/Logger"
import * as Scope from "effect/Scope"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Worker } from "node:worker_threads"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { onWorkerSpawned } from "../src/internal/workerEngine"

const logged: Array<string> = []
const capture = Logger.replace(
  Logger.defaultLogger,
  Logger.make(({ logLevel, message }) => logged.push(`${logLevel.label} ${String(message)}`))
)
const workers: Array<Worker> = []
const stopListening = onWorkerSpawned((worker) => workers.push(worker))
/** Stops the worker running now, as a crash would (its `exit` event, code 1). */
const crash = async () => {
  const before = workers.length
  await workers.at(-1)!.terminate()
  expect(workers.length).toBe(before + 1) // restarted at once
}

/** The SQLSTATE of the first failure or defect that has one (a rollback that fails is a defect). */
const lostCode = (exit: Exit.Exit<unknown, unknown>) => {
  if (Exit.isSuccess(exit)) return "none"
  const errors = [...Cause.failures(exit.cause), ...Cause.defects(exit.cause)] as Array<{ cause?: { code?: unknown } }>
  return errors.map((error) => error?.cause?.code).find((code) => code !== undefined)
}

describe("PgliteClient in a worker thread whose worker dies", () => {
  let dir = ""
  const scope = Effect.runSync(Scope.make())
  let run: <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) => Promise<A>

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "roda-worker-restart-"))
    const client = await Effect.runPromise(
      PgliteClient.make({ dataDir: join(dir, "db"), thread: "worker" }).pipe(
        Effect.provide(Reactivity.layer),
        Effect.provide(capture),
        Scope.extend(scope)
      )
    )
    run = (effect) => Effect.runPromise(Effect.provideService(effect, SqlClient.SqlClient, client))
    await run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE TABLE notes (body text NOT NULL)`))
  })

  afterAll(async () => {
    stopListening()
    await Effect.runPromise(Scope.close(scope, Exit.void))
    await rm(dir, { recursive: true, force: true })
  })

  const count = Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.map(sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM notes`, (rows) => rows[0]!.n)
  )
  const insert = (body: string) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql`INSERT INTO notes ${sql.insert({ body })}`)

  it("answers again from a new worker on the same folder, with what was committed", async () => {
    await run(insert("kept"))
    await crash()
    expect(await run(count)).toBe(1)
    expect(logged).toEqual([expect.stringMatching(/^WARN PGlite's worker thread stopped .*started again/)])
    await run(insert("after"))
    expect(await run(count)).toBe(2)
  })

  it("fails a transaction begun before the restart instead of running the rest outside it", async () => {
    const before = await run(count)
    const exit = await run(
      Effect.exit(Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql.withTransaction(Effect.gen(function*() {
          yield* insert("in the transaction")
          yield* Effect.promise(crash)
          yield* insert("after the crash")
        }))))
    )
    expect(lostCode(exit)).toBe("57P02") // a lost connection: the request may be retried
    expect(await run(count)).toBe(before) // neither row: the first went with the old session
  })

  it("fails the statement in flight as a lost connection", async () => {
    const sleeping = run(Effect.exit(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT pg_sleep(5)`)))
    await new Promise((resolve) => setTimeout(resolve, 200))
    await crash()
    expect(lostCode(await sleeping)).toBe("57P02")
  })

  it("stays down once it has died too often (three restarts a minute), and says why", async () => {
    const spawned = workers.length
    await workers.at(-1)!.terminate() // a fourth death within the minute
    expect(workers.length).toBe(spawned)
    const exit = await run(Effect.exit(count))
    expect(Exit.isFailure(exit)).toBe(true)
    expect(lostCode(exit)).not.toBe("57P02")
    expect(logged.at(-1)).toMatch(/^ERROR PGlite's worker thread stopped .*not started again/)
  })
})
