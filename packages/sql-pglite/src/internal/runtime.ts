import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

/** Where PGlite keeps its WebAssembly build and file system bundle. */
const distDir = () => dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"))

/** What every PGlite instance of a process shares: its compiled WebAssembly and file system bundle. */
export interface Runtime {
  readonly wasmModule: WebAssembly.Module
  readonly fsBundle: Blob
}

let runtime: Promise<Runtime> | undefined

/**
 * PGlite compiles its WebAssembly and reads its file system bundle for every instance; both are
 * the same for all of them, so a process does it once (tests open dozens of databases): a worker
 * is handed this thread's module, or compiles it and hands it back (`workerEngine.ts`). The files
 * are read at once, synchronously: the compilation then runs on V8's background threads even while
 * this thread is busy (unpacking a data folder synchronously, loading modules), where an
 * asynchronous read would wait for this thread to be free before the compilation could begin.
 */
export const sharedRuntime = (): Promise<Runtime> =>
  runtime ??= new Promise<Runtime>((resolve) => {
    const dist = distDir()
    const compiling = WebAssembly.compile(readFileSync(join(dist, "pglite.wasm")))
    const fsBundle = new Blob([readFileSync(join(dist, "pglite.data"))])
    resolve(compiling.then((wasmModule) => ({ wasmModule, fsBundle })))
  }).catch((error) => {
    runtime = undefined
    throw error
  })

/** This thread's shared runtime if it has one or is making one (a worker may then be handed it). */
export const startedRuntime = (): Promise<Runtime> | undefined => runtime

/** A runtime another thread made becomes this thread's shared one, unless it has one already. */
export const adoptRuntime = (made: Runtime): void => {
  runtime ??= Promise.resolve(made)
}

/**
 * Starts compiling PGlite's WebAssembly and reading its file system bundle now, for the next open:
 * the compilation runs off the main thread, so it overlaps with work the caller does meanwhile
 * (unpacking a data folder). A failure is reported by that open.
 */
export const preload = (): void => {
  sharedRuntime().catch(() => undefined)
}

/** Identifies the PGlite build (its WebAssembly file), for snapshots made by one build only. */
export const pgliteBuild = () => join(distDir(), "pglite.wasm")
