import { Effect, Scheduler } from "effect"
import { describe, expect, it } from "vitest"

/**
 * `patches/effect@3.22.4.patch`: the default scheduler keeps each fiber's runner on the fiber, not in
 * a WeakMap. Every request fiber resumed from I/O went through that weak table; its entries made each
 * young-generation collection about three times longer (see bench/README.md).
 */
describe("scheduler runners (the effect patch)", () => {
  it("are kept on their fiber, one per fiber, and a resumed fiber still runs to its end", async () => {
    const resumed = Effect.async<number>((resume) => {
      setImmediate(() => resume(Effect.succeed(1)))
    })
    const a = Effect.runFork(resumed)
    const b = Effect.runFork(resumed)
    // `getRunner` is private to MixedScheduler, the default scheduler's class
    const scheduler = Scheduler.defaultScheduler as unknown as { getRunner: (fiber: unknown) => unknown }
    const runnerOf = (fiber: unknown) => scheduler.getRunner(fiber)
    expect(runnerOf(a)).toBe(runnerOf(a))
    expect(runnerOf(a)).not.toBe(runnerOf(b))
    expect(runnerOf(undefined)).toBe(runnerOf(undefined))
    const own = Object.getOwnPropertySymbols(a).map((key) => (a as unknown as Record<symbol, unknown>)[key])
    expect(own).toContain(runnerOf(a))
    expect(await Promise.all([Effect.runPromise(a.await), Effect.runPromise(b.await)])).toHaveLength(2)
  })
})
