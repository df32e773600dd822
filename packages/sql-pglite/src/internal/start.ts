import { resolve } from "node:path"
import type { CreateOptions } from "./create"
import type { Engine } from "./engine"
import { sharedRuntime } from "./runtime"
import { inWorker, workerAvailable } from "./workerEngine"

export interface StartOptions extends CreateOptions {
  readonly thread?: "main" | "worker" | undefined
}

/** How many engines this process has started (for tests of `prestart`). */
export let enginesStarted = 0

/**
 * Opens the engine `options` describe: PGlite on this thread, or in a worker thread when asked for
 * and its script is there (a program that bundled this package without it runs PGlite on its own
 * thread, as it did before workers).
 */
export const startEngine = async (dataDir: string | undefined, options: StartOptions): Promise<Engine> => {
  enginesStarted++
  if (options.thread === "worker" && options.extensions !== undefined && Object.keys(options.extensions).length > 0) {
    throw new Error("a worker thread loads its extensions itself: name them in `contrib`")
  }
  if (options.thread === "worker" && workerAvailable()) {
    return inWorker(dataDir, {
      contrib: options.contrib ?? [],
      loadDataDir: options.loadDataDir,
      unpackFrom: options.unpackFrom
    })
  }
  // Loaded here only: a process that runs PGlite in a worker need not load it on its own thread.
  const { createDatabase, unpackFirst } = await import("./create")
  const { inThread } = await import("./engine")
  const unpacked = await unpackFirst(dataDir, options)
  return inThread(await createDatabase(dataDir, options, await sharedRuntime()), unpacked)
}

interface Prestarted {
  readonly dataDir: string
  readonly key: string
  readonly engine: Promise<Engine>
}

let prestarted: Prestarted | undefined

/** What must be the same for an open to take over a prestarted engine. */
const keyOf = (dataDir: string, options: StartOptions) =>
  JSON.stringify([resolve(dataDir), options.thread ?? "main", options.contrib ?? [], options.unpackFrom ?? null])

/**
 * Starts opening a data folder in a worker thread now, for the open of the same folder with the same
 * options that comes next in this process (see `PgliteClient.prestart`). One at a time.
 */
export const prestartEngine = (dataDir: string, options: Omit<StartOptions, "extensions" | "loadDataDir">) => {
  if (prestarted !== undefined) return
  const engine = startEngine(dataDir, { ...options, thread: "worker" })
  engine.catch(() => undefined) // reported to the open that takes it over
  prestarted = { dataDir, key: keyOf(dataDir, { ...options, thread: "worker" }), engine }
}

/**
 * The prestarted engine when it was started for `dataDir` with these options; otherwise the prestarted
 * engine is closed first (and the folder it made removed, as it was new and nothing used it), so that
 * the caller opens its folder as if nothing had been prestarted.
 */
export const takePrestarted = async (
  dataDir: string | undefined,
  options: StartOptions
): Promise<Engine | undefined> => {
  const taken = prestarted
  if (taken === undefined || dataDir === undefined) return undefined
  prestarted = undefined
  if (options.loadDataDir === undefined && taken.key === keyOf(dataDir, options)) return taken.engine
  const engine = await taken.engine.catch(() => undefined)
  if (engine !== undefined) {
    await engine.close()
    if (engine.unpacked) {
      const { rm } = await import("node:fs/promises")
      await rm(taken.dataDir, { recursive: true, force: true })
    }
  }
  return undefined
}
