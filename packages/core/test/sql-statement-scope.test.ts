import { SqlClient, type SqlConnection, Statement } from "@effect/sql"
import { Effect, RuntimeFlags, RuntimeFlagsPatch, Supervisor, Tracer } from "effect"
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

/** Counts the interpreter's steps of the fibers it supervises. */
class StepCounter extends Supervisor.AbstractSupervisor<void> {
  steps = 0
  get value() {
    return Effect.void
  }
  override onEffect() {
    this.steps++
  }
}

/**
 * A statement on a stand-in connection (this tests the patch, not a database), under a tracer that
 * records the spans it is asked for, counting the interpreter's steps.
 */
const statementRun = (tracing: boolean) =>
  Effect.gen(function*() {
    const native = yield* Effect.tracer
    const spans: Array<string> = []
    const tracer = Tracer.make({
      span: (name, ...rest) => {
        spans.push(name)
        return native.span(name, ...rest)
      },
      context: (f) => f()
    })
    const connection = { execute: () => Effect.succeed([{ n: 1 }]) } as unknown as SqlConnection.Connection
    const sql = Statement.make(Effect.succeed(connection), Statement.makeCompilerSqlite(), [], undefined)
    const counter = new StepCounter()
    const rows = yield* sql<{ n: number }>`SELECT 1 AS n`.pipe(
      Effect.withTracer(tracer),
      Effect.withTracerEnabled(tracing),
      Effect.supervised(counter),
      Effect.withRuntimeFlagsPatch(RuntimeFlagsPatch.enable(RuntimeFlags.OpSupervision))
    )
    return { rows, spans, steps: counter.steps }
  }).pipe(Effect.runPromise)

describe("statement spans (the @effect/sql patch)", () => {
  it("are made when tracing is on", async () => {
    const run = await statementRun(true)
    expect(run.rows).toEqual([{ n: 1 }])
    expect(run.spans).toEqual(["sql.execute"])
  })

  it("are not made when tracing is off, not even one that is not recorded (it cost a statement a dozen steps)", async () => {
    const off = await statementRun(false)
    expect(off).toMatchObject({ rows: [{ n: 1 }], spans: [] })
    // Without the patch both take the same steps (111 against 100 with it, effect 3.22).
    expect(off.steps).toBeLessThanOrEqual((await statementRun(true)).steps - 10)
  })
})
