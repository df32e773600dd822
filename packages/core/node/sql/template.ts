import { PgliteClient } from "@roda/sql-pglite"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { readFileSync, statSync } from "node:fs"
import { access, mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import * as tar from "tar"
import { migrations } from "../../src/sql/migrations"
import { statementsOf } from "../../src/sql/migrations/ddl"

/**
 * A new database starts from a template: a snapshot of one with every migration applied, made by
 * the first in-memory database of the process (and kept in `snapshotDir` when given, for the next
 * processes), or shipped beside the built package (`pnpm build` makes it), so that a new data
 * folder opens without running every migration. Its key covers the PGlite build (version and
 * WebAssembly size, wherever it is installed) and the text of every migration, so a changed
 * migration makes a new template.
 */
const templates = new Map<string, Blob>()

let key: string | undefined
export const templateKey = () => {
  if (key !== undefined) return key
  const hash = createHash("sha256")
  const build = PgliteClient.pgliteBuild()
  const { version } = JSON.parse(readFileSync(join(dirname(build), "..", "package.json"), "utf8")) as {
    version: string
  }
  hash.update(`${version}:${statSync(build).size}\n`)
  for (const [name, migration] of Object.entries(migrations)) {
    hash.update(`${name}\n${(statementsOf(migration as object) ?? [String(migration)]).join("\n;\n")}\n`)
  }
  return key = hash.digest("hex").slice(0, 24)
}

const fileOf = (dir: string, key: string) => join(dir, `pglite-template-${key}.tar`)
/** The same database as a folder PGlite closed cleanly (`pnpm build` makes it; see ship-template.mjs). */
const folderFileOf = (dir: string, key: string) => join(dir, `pglite-folder-${key}.tar`)

/**
 * The folders where `pnpm build` may have left the template: beside this module when it is the built
 * package, and the built `@roda/core` resolved from here, for programs that bundle it (the
 * `roda-server` binary does). None when neither is built.
 */
const shippedDirs = () => {
  const here = dirname(fileURLToPath(import.meta.url))
  try {
    return [here, dirname(createRequire(import.meta.url).resolve("@roda/core"))]
  } catch {
    return [here]
  }
}

/**
 * The template for `key`: from this process, from `snapshotDir`, or shipped with the package;
 * undefined when none exists yet.
 */
export const loadTemplate = (key: string, snapshotDir: string | undefined) =>
  Effect.promise(async () => {
    const known = templates.get(key)
    if (known !== undefined) return known
    for (const dir of [...(snapshotDir === undefined ? [] : [snapshotDir]), ...shippedDirs()]) {
      const bytes = await readFile(fileOf(dir, key)).catch(() => undefined)
      if (bytes === undefined) continue
      const blob = new Blob([bytes])
      templates.set(key, blob)
      return blob
    }
    return undefined
  })

/**
 * The template's file for `key`: from `snapshotDir`, else shipped with the package, where the cleanly
 * closed folder comes first (a dump of a running database is recovered as after a crash when first
 * opened, ~0.3 s); undefined when none.
 */
const templateFile = async (key: string, snapshotDir: string | undefined) => {
  const shipped = shippedDirs()
  const candidates = [
    ...(snapshotDir === undefined ? [] : [fileOf(snapshotDir, key)]),
    ...shipped.map((dir) => folderFileOf(dir, key)),
    ...shipped.map((dir) => fileOf(dir, key))
  ]
  for (const file of candidates) {
    if (await access(file).then(() => true, () => false)) return file
  }
  return undefined
}

const isEmptyOrMissing = (dir: string) => readdir(dir).then((entries) => entries.length === 0, () => true)

/**
 * Unpacks the template for `key` as the new data folder `dataDir`, with native file writes: PGlite's
 * `loadDataDir` writes each of its files through the WebAssembly file system, several times
 * slower at every fresh start. It is unpacked beside the folder and renamed into place, so a start cut
 * short leaves no half folder. False (nothing done) without a template file, or when `dataDir` holds
 * files already: then PGlite decides, as it would without a template.
 */
export const unpackTemplate = (key: string, snapshotDir: string | undefined, dataDir: string) =>
  Effect.promise(async () => {
    const file = await templateFile(key, snapshotDir)
    if (file === undefined || !(await isEmptyOrMissing(dataDir))) return false
    const partial = `${dataDir}.${process.pid}.partial`
    await rm(partial, { recursive: true, force: true })
    await mkdir(partial, { recursive: true })
    try {
      // Synchronously: asynchronous unpacking waits on the thread pool for each of ~900 files.
      tar.x({ file, cwd: partial, sync: true })
      await rmdir(dataDir).catch(() => undefined)
      await rename(partial, dataDir)
    } catch (error) {
      // A full disk, say, or another process that filled `dataDir` meanwhile: nothing is left beside it.
      await rm(partial, { recursive: true, force: true })
      throw error
    }
    return true
  })

/** Dumps the just-migrated database as the template (written atomically to `snapshotDir`). */
export const saveTemplate = (key: string, snapshotDir: string | undefined) =>
  Effect.flatMap(
    PgliteClient.PgliteClient,
    (client) =>
      Effect.flatMap(Effect.orDie(client.dumpDataDir), (blob) =>
        Effect.promise(async () => {
          templates.set(key, blob)
          if (snapshotDir === undefined) return
          await mkdir(snapshotDir, { recursive: true })
          const file = fileOf(snapshotDir, key)
          const partial = `${file}.${process.pid}.${templates.size}.partial`
          await writeFile(partial, new Uint8Array(await blob.arrayBuffer()))
          await rename(partial, file)
        })).pipe(Effect.catchAllDefect((defect) => Effect.logWarning("Embedded template not saved", defect)))
  )
