import { SqlError } from "@effect/sql/SqlError"
import { type Extensions, PGlite, types } from "@electric-sql/pglite"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { existsSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { mkdir } from "node:fs/promises"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import parseDate from "postgres-date"

/** Where PGlite keeps its WebAssembly build and file system bundle. */
const distDir = () => dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"))

interface Runtime {
  readonly wasmModule: WebAssembly.Module
  readonly fsBundle: Blob
}

let runtime: Promise<Runtime> | undefined

/**
 * PGlite compiles its WebAssembly and reads its file system bundle for every instance; both are
 * the same for all of them, so a process does it once (tests open dozens of databases).
 */
const sharedRuntime = () =>
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

export interface OpenOptions {
  readonly extensions?: Extensions | undefined
  /** A data directory dumped by `dumpDataDir` (uncompressed tar) to start from. */
  readonly loadDataDir?: Blob | undefined
}

/**
 * Each extension's archive must be where its module says (beside PGlite's own files). A bundler
 * that copied PGlite's JavaScript into a bundle leaves the archives behind, and PGlite would then
 * reject a promise nobody awaits yet: the host process dies. Checked first, it is this error instead.
 */
const checkExtensions = async (extensions: Extensions) => {
  for (const [name, extension] of Object.entries(extensions)) {
    const where: URL | null | undefined = extension instanceof URL
      ? extension
      : await Promise.resolve()
        .then(() => extension.setup(undefined as never, {}, true))
        .then((setup) => setup.bundlePath ?? null, () => undefined)
    const missing = where === undefined
      ? "cannot be located"
      : where !== null && where.protocol === "file:" && !existsSync(fileURLToPath(where))
      ? `is not at ${fileURLToPath(where)}`
      : undefined
    if (missing !== undefined) {
      throw new Error(
        `PGlite's extension archive ${name} ${missing}: was @electric-sql/pglite bundled? Keep it out of the ` +
          `bundle (esbuild --external:@electric-sql/pglite) and installed beside it`
      )
    }
  }
}

/**
 * Timestamps read as node-postgres reads them (the same parser, `postgres-date`), so both databases
 * answer alike. PGlite's own parser is `new Date(text)`, which reads the years 0000 to 0099 of
 * PostgreSQL's text (`0050-05-01 19:00:00+00`) as 1900 to 1999: a date stored in year 50 came
 * back in 1950. Arrays of them use these too (PGlite looks the element parser up when it parses).
 */
const timestampParsers = { [types.TIMESTAMPTZ]: parseDate, [types.TIMESTAMP]: parseDate }

const create = async (dataDir: string | undefined, options: OpenOptions): Promise<PGlite> => {
  await checkExtensions(options.extensions ?? {})
  const shared = await sharedRuntime()
  const common = {
    extensions: options.extensions ?? {},
    wasmModule: shared.wasmModule,
    fsBundle: shared.fsBundle,
    parsers: timestampParsers,
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {})
  }
  if (dataDir === undefined || dataDir === "memory") return PGlite.create(common)
  // A `scheme://` location (memory://, idb://) is PGlite's business; a folder
  // may need parents, as PGlite only creates the last path segment.
  if (!dataDir.includes("://")) {
    await mkdir(dataDir, { recursive: true })
  }
  return PGlite.create({ dataDir, ...common })
}

/** Opens a PGlite instance that is closed when the scope ends. */
export const open = (
  dataDir: string | undefined,
  options: OpenOptions = {}
): Effect.Effect<PGlite, SqlError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () => create(dataDir, options),
      catch: (cause) =>
        new SqlError({
          cause,
          message: `PgliteClient: failed to open the database${cause instanceof Error ? `: ${cause.message}` : ""}`
        })
    }),
    (pglite) => pglite.closed ? Effect.void : Effect.tryPromise(() => pglite.close()).pipe(Effect.ignoreLogged)
  )
