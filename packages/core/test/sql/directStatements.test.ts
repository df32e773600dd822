import { SqlClient } from "@effect/sql"
import { Effect, RuntimeFlags, RuntimeFlagsPatch, Supervisor, Tracer } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { startRoda } from "../support/harness"

const roda = startRoda()
afterAll(() => roda.dispose())

/** Runs `f` with Roda's SqlClient under a tracer that records the names of the spans it is asked for. */
const traced = <A>(tracing: boolean, f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  roda.runtime.runPromise(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const native = yield* Effect.tracer
    const spans: Array<string> = []
    const tracer = Tracer.make({
      span: (name, ...rest) => {
        spans.push(name)
        return native.span(name, ...rest)
      },
      context: (run) => run()
    })
    const result = yield* f(sql).pipe(Effect.withTracer(tracer), Effect.withTracerEnabled(tracing))
    return { result, spans }
  }))

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

/** The interpreter's steps of one statement, tracing off. */
const stepsOf = <A>(statement: Effect.Effect<A, unknown>) => {
  const counter = new StepCounter()
  return Effect.as(
    statement.pipe(
      Effect.withTracerEnabled(false),
      Effect.supervised(counter),
      Effect.withRuntimeFlagsPatch(RuntimeFlagsPatch.enable(RuntimeFlags.OpSupervision))
    ),
    counter
  ).pipe(Effect.map((c) => c.steps))
}

describe("Roda's statements (directStatements)", () => {
  it("run without a span when tracing is off, in and out of a transaction, also as fragments", async () => {
    const { result, spans } = await traced(false, (sql) =>
      Effect.all([
        sql<{ n: number }>`SELECT 1 AS n`,
        sql.withTransaction(sql<{ n: number }>`SELECT 2 AS n`),
        sql<{ n: number }>`SELECT ${sql`3`}::int AS n`,
        sql.unsafe<{ n: number }>("SELECT $1::int AS n", [4]),
        sql<{ n: number }>`SELECT 5 AS n`.values
      ]))
    expect(result).toEqual([[{ n: 1 }], [{ n: 2 }], [{ n: 3 }], [{ n: 4 }], [[5]]])
    expect(spans).not.toContain("sql.execute")
  })

  it("are @effect/sql's, with their spans, when tracing is on", async () => {
    const { result, spans } = await traced(true, (sql) => sql<{ n: number }>`SELECT 1 AS n`)
    expect(result).toEqual([{ n: 1 }])
    expect(spans).toContain("sql.execute")
  })

  it("still roll a failed transaction back", async () => {
    const table = `direct_${Date.now()}`
    const count = await roda.runtime.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql.unsafe(`CREATE TABLE ${table} (n int)`)
      yield* sql.withTransaction(Effect.zipRight(sql.unsafe(`INSERT INTO ${table} VALUES (1)`), Effect.fail("stop")))
        .pipe(Effect.ignore)
      const rows = yield* sql.unsafe<{ count: number }>(`SELECT count(*)::int AS count FROM ${table}`)
      yield* sql.unsafe(`DROP TABLE ${table}`)
      return rows[0]?.count
    }))
    expect(count).toBe(0)
  })

  it("take fewer steps than @effect/sql's (its span and scope: a dozen steps and more)", async () => {
    const { direct, original } = await roda.runtime.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // `sql.safe` is the client @effect/sql made, with its own statements.
      yield* sql`SELECT 1 AS n`
      yield* sql.safe`SELECT 1 AS n`
      return { direct: yield* stepsOf(sql`SELECT 1 AS n`), original: yield* stepsOf(sql.safe`SELECT 1 AS n`) }
    }))
    expect(direct).toBeLessThanOrEqual(original - 10)
  })

  it("are made by Roda's own statement class, so the fast path is not silently lost", async () => {
    const name = await roda.runtime.runPromise(Effect.map(SqlClient.SqlClient, (sql) => sql`SELECT 1`.constructor.name))
    expect(name).toBe("Direct")
  })
})
