import { afterEach, describe, expect, it, vi } from "vitest"
import { startedRuntime } from "../src/internal/runtime"
import { startEngine } from "../src/internal/start"

// A file of its own: the runtime is shared by the whole module (one per thread), and this file
// needs a thread that has none yet.
describe("PGlite's WebAssembly, compiled once per process", () => {
  afterEach(() => vi.restoreAllMocks())

  it("is compiled by the first worker (this thread had none), handed back, and reused by every later open", async () => {
    const compile = vi.spyOn(WebAssembly, "compile")
    expect(startedRuntime()).toBeUndefined()

    const first = await startEngine("memory://", { thread: "worker" })
    expect(compile).not.toHaveBeenCalled() // compiled on the worker's thread
    const adopted = await startedRuntime()
    expect(adopted?.wasmModule).toBeInstanceOf(WebAssembly.Module)
    expect(WebAssembly.Module.exports(adopted!.wasmModule).map((entry) => entry.name)).toContain("pgl_backend")
    expect(adopted?.fsBundle.size).toBeGreaterThan(0)

    // Later opens, in a worker or on this thread, take the adopted runtime: nothing is compiled again.
    const second = await startEngine("memory://", { thread: "worker" })
    const onThisThread = await startEngine(undefined, { thread: "main" })
    expect(compile).not.toHaveBeenCalled()
    for (const engine of [first, second, onThisThread]) {
      expect((await engine.query("SELECT 41 + 1 AS n", [])).rows).toEqual([{ n: 42 }])
    }
    await Promise.all([first.close(), second.close(), onThisThread.close()])
  })
})
