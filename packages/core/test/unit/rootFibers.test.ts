import { Effect, Fiber } from "effect"
import { describe, expect, it } from "vitest"

/**
 * `patches/effect@3.22.4.patch`: the global fiber scope keeps no Set of root fibers. Each request
 * is a root fiber; churned by them, that Set kept whole requests alive through young-generation
 * collections (4 MB and 6.5 ms a collection on `/api/auth/me`; see bench/README.md).
 */
describe("root fibers (the effect patch)", () => {
  it("are not kept by the global fiber scope", async () => {
    const fiber = Effect.runFork(Effect.never)
    try {
      expect(await Effect.runPromise(Fiber.roots)).toEqual([])
    } finally {
      await Effect.runPromise(Fiber.interrupt(fiber))
    }
  })
})
