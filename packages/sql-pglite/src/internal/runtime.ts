import { readFile } from "node:fs/promises"
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
 * the same for all of them, so a process does it once (tests open dozens of databases). A worker
 * thread is handed the compiled module rather than compiling it again.
 */
export const sharedRuntime = (): Promise<Runtime> =>
  runtime ??= Promise.all([
    readFile(join(distDir(), "pglite.wasm")).then((bytes) => WebAssembly.compile(bytes)),
    readFile(join(distDir(), "pglite.data")).then((bytes) => new Blob([bytes]))
  ]).then(([wasmModule, fsBundle]) => ({ wasmModule, fsBundle })).catch((error) => {
    runtime = undefined
    throw error
  })

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
