import { SqlClient } from "@effect/sql"
import { Effect, Ref } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { afterCommit } from "../../src/platform/AfterCommit"
import { transactional } from "../../src/sql/transaction"
import { startRoda } from "../support/harness"

const roda = startRoda({ runJobs: false })
beforeAll(() => roda.ready())
afterAll(() => roda.dispose())

/** Runs `body` with a log of what happened, answering the log. */
const traced = (
  body: (log: (line: string) => Effect.Effect<void>, sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>
) =>
  roda.runtime.runPromise(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const lines = yield* Ref.make<ReadonlyArray<string>>([])
    const log = (line: string) => Ref.update(lines, (all) => [...all, line])
    yield* Effect.exit(body(log, sql))
    return yield* Ref.get(lines)
  }))

describe("afterCommit (a job runner woken at the commit that makes its job visible)", () => {
  it("runs the signal after the outermost transaction commits, not inside it", async () => {
    const lines = await traced((log, sql) =>
      transactional(sql)(Effect.gen(function*() {
        yield* afterCommit(log("signal"))
        yield* log("still inside")
        // a nested transaction (a savepoint) hands its signals to the outer one
        yield* transactional(sql)(afterCommit(log("nested signal")))
        yield* log("nested committed")
      })).pipe(Effect.zipRight(log("after")))
    )
    expect(lines).toEqual(["still inside", "nested committed", "signal", "nested signal", "after"])
  })

  it("drops the signals of a transaction that rolls back", async () => {
    const lines = await traced((log, sql) =>
      transactional(sql)(Effect.zipRight(afterCommit(log("signal")), Effect.fail("refused")))
    )
    expect(lines).toEqual([])
  })

  it("runs at once outside a transaction", async () => {
    const lines = await traced((log) => Effect.zipRight(afterCommit(log("signal")), log("next")))
    expect(lines).toEqual(["signal", "next"])
  })
})
