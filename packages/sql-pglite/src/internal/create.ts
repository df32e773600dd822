import { type Extensions, PGlite, types } from "@electric-sql/pglite"
import { existsSync } from "node:fs"
import { mkdir } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import parseDate from "postgres-date"
import type { Runtime } from "./runtime"
import { unpackInto } from "./unpack"

export interface CreateOptions {
  readonly extensions?: Extensions | undefined
  /** PGlite's contrib extensions by name (`pg_trgm`, `unaccent`, …), loaded where the database runs. */
  readonly contrib?: ReadonlyArray<string> | undefined
  /** A data directory dumped by `dumpDataDir` (uncompressed tar) to start from. */
  readonly loadDataDir?: Blob | undefined
  /**
   * A tar file of a data folder: a `dataDir` folder that is missing or empty starts as it, unpacked
   * with native file writes (much faster than `loadDataDir`).
   */
  readonly unpackFrom?: string | undefined
}

/**
 * PGlite's contrib extensions by name. Each is imported where the database runs: a worker thread
 * cannot be handed the extension objects (they hold functions), only their names.
 */
const loadContrib = async (names: ReadonlyArray<string>): Promise<Extensions> => {
  const loaded: Record<string, Extensions[string]> = {}
  for (const name of names) {
    if (!/^[a-z_]+$/.test(name)) throw new Error(`Unknown PGlite contrib extension: ${name}`)
    const module = await import(`@electric-sql/pglite/contrib/${name}`) as Record<string, Extensions[string]>
    const extension = module[name]
    if (extension === undefined) throw new Error(`Unknown PGlite contrib extension: ${name}`)
    loaded[name] = extension
  }
  return loaded
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

const isFolder = (dataDir: string | undefined): dataDir is string =>
  dataDir !== undefined && dataDir !== "memory" && !dataDir.includes("://")

/** Unpacks `options.unpackFrom` when `dataDir` is a new folder; see `CreateOptions`. */
export const unpackFirst = (dataDir: string | undefined, options: CreateOptions): Promise<boolean> =>
  options.unpackFrom !== undefined && isFolder(dataDir)
    ? unpackInto(dataDir, options.unpackFrom)
    : Promise.resolve(false)

/**
 * Opens PGlite on `dataDir` (a folder, made with its parents when missing) or in memory. Call
 * `unpackFirst` before, for `unpackFrom`.
 */
export const createDatabase = async (
  dataDir: string | undefined,
  options: CreateOptions,
  runtime: Runtime
): Promise<PGlite> => {
  const extensions = { ...options.extensions, ...await loadContrib(options.contrib ?? []) }
  await checkExtensions(extensions)
  const common = {
    extensions,
    wasmModule: runtime.wasmModule,
    fsBundle: runtime.fsBundle,
    parsers: timestampParsers,
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {})
  }
  if (dataDir === undefined || dataDir === "memory") return PGlite.create(common)
  // A `scheme://` location (memory://, idb://) is PGlite's business; a folder
  // may need parents, as PGlite only creates the last path segment.
  if (isFolder(dataDir)) await mkdir(dataDir, { recursive: true })
  return PGlite.create({ dataDir, ...common })
}
