import { Cause, Effect, Exit } from "effect"
import { Session } from "node:inspector"
import { describe, expect, it } from "vitest"

interface SamplingNode {
  readonly callFrame: { readonly functionName: string; readonly url: string }
  readonly selfSize: number
  readonly children: ReadonlyArray<SamplingNode>
}

const post = <A>(session: Session, method: string, params?: object) =>
  new Promise<A>((resolve, reject) =>
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result as A)))
  )

/** Bytes allocated by frames of effect's fiber runtime (`internal/fiberRuntime.js`), by function name, while `run` runs. */
const runtimeAllocations = async (run: () => void) => {
  const session = new Session()
  session.connect()
  try {
    await post(session, "HeapProfiler.startSampling", {
      samplingInterval: 64,
      includeObjectsCollectedByMinorGC: true,
      includeObjectsCollectedByMajorGC: true
    })
    run()
    const { profile } = await post<{ profile: { head: SamplingNode } }>(session, "HeapProfiler.stopSampling")
    const bytes = new Map<string, number>()
    const walk = (node: SamplingNode) => {
      if (/effect\/dist\/.*internal\/fiberRuntime\.js$/.test(node.callFrame.url) && node.selfSize > 0) {
        const name = node.callFrame.functionName || "(anonymous)"
        bytes.set(name, (bytes.get(name) ?? 0) + node.selfSize)
      }
      node.children.forEach(walk)
    }
    walk(profile.head)
    return bytes
  } finally {
    session.disconnect()
  }
}

const STEPS = 20_000

/** A chain of `STEPS` flatMaps whose continuation is a function already made: the program allocates nothing per step. */
const chain = (() => {
  const next = (n: number): Effect.Effect<number> =>
    n === STEPS ? Effect.succeed(n) : Effect.flatMap(Effect.succeed(n + 1), next)
  return next(0)
})()

/**
 * `patches/effect@3.22.4.patch`: the run loop calls each instruction and continuation without
 * making a closure for the call (it made two per `flatMap` step: one in `runLoop`, one in
 * `contOpSuccess`), and the frame that stack traces are cut at keeps its name.
 */
describe("the fiber run loop (the effect patch)", () => {
  it("allocates no closure per instruction", async () => {
    Effect.runSync(chain) // warm up, so that what is measured is the steady state
    const bytes = await runtimeAllocations(() => expect(Effect.runSync(chain)).toBe(STEPS))
    // A closure is at least 32 bytes. Unpatched, `runLoop` allocated ~115 bytes a step and
    // `contOpSuccess` ~105; patched, all frames of the fiber runtime together about 2 (its yields to
    // the scheduler every 2,048 instructions, and sampling noise).
    const total = [...bytes.values()].reduce((sum, n) => sum + n, 0)
    expect(total / STEPS).toBeLessThan(16)
  })

  it("still names the frame stack traces are cut at", () => {
    const exit = Effect.runSyncExit(Effect.flatMap(Effect.succeed(1), () => {
      throw new Error("boom")
    }))
    expect(Exit.isFailure(exit)).toBe(true)
    const defect = Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
    expect(String((defect as Error).stack)).toContain("effect_internal_function")
  })
})
