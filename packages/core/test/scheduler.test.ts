import { Effect, Fiber, FiberRef, Runtime } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { rodaScheduler } from "../src/app/scheduler"
import { startRoda } from "./support/harness"

const roda = startRoda()
afterAll(() => roda.dispose())

/** Resumes from a macrotask, as a fiber waiting for I/O does: it is scheduled through its runner. */
const resumed = Effect.async<number>((resume) => {
  setImmediate(() => resume(Effect.succeed(1)))
})

/** The own symbol-keyed properties of a fiber: where `rodaScheduler` keeps its runner. */
const ownSymbols = (fiber: unknown) => Object.getOwnPropertySymbols(fiber).map((key) => String(key))

describe("Roda's scheduler", () => {
  it("is the scheduler of the services' runtime and of the runtime requests run on", async () => {
    const current = FiberRef.get(FiberRef.currentScheduler)
    expect(await roda.runtime.runPromise(current)).toBe(rodaScheduler)
    const { runtime } = await roda.httpApp()
    expect(await Runtime.runPromise(runtime)(current)).toBe(rodaScheduler)
  })

  it("keeps each fiber's runner on the fiber, and a resumed fiber still runs to its end", async () => {
    const fibers = await roda.runtime.runPromise(Effect.gen(function*() {
      const a = yield* Effect.fork(Effect.zipRight(Effect.yieldNow(), resumed))
      const b = yield* Effect.fork(Effect.zipRight(Effect.yieldNow(), resumed))
      expect(yield* Fiber.join(a)).toBe(1)
      expect(yield* Fiber.join(b)).toBe(1)
      return [a, b]
    }))
    for (const fiber of fibers) expect(ownSymbols(fiber)).toContain("Symbol(roda/scheduler/runner)")
    const [a, b] = fibers as unknown as Array<Record<symbol, unknown>>
    const runnerOf = (fiber: Record<symbol, unknown>) =>
      fiber[Object.getOwnPropertySymbols(fiber).find((key) => String(key) === "Symbol(roda/scheduler/runner)")!]
    expect(runnerOf(a!)).not.toBe(runnerOf(b!))
  })
})
