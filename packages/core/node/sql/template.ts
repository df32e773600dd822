import { PgliteClient } from "@roda/sql-pglite"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { readFileSync, statSync } from "node:fs"
import { mkdir, readFile, rename, writeFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { migrations } from "../../src/sql/migrations"
import { statementsOf } from "../../src/sql/migrations/ddl"
import { dumpFileOf, shippedDirs } from "./templateFiles"

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

/**
 * The template for `key`: from this process, from `snapshotDir`, or shipped with the package;
 * undefined when none exists yet.
 */
export const loadTemplate = (key: string, snapshotDir: string | undefined) =>
  Effect.promise(async () => {
    const known = templates.get(key)
    if (known !== undefined) return known
    for (const dir of [...(snapshotDir === undefined ? [] : [snapshotDir]), ...shippedDirs()]) {
      const bytes = await readFile(dumpFileOf(dir, key)).catch(() => undefined)
      if (bytes === undefined) continue
      const blob = new Blob([bytes])
      templates.set(key, blob)
      return blob
    }
    return undefined
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
          const file = dumpFileOf(snapshotDir, key)
          const partial = `${file}.${process.pid}.${templates.size}.partial`
          await writeFile(partial, new Uint8Array(await blob.arrayBuffer()))
          await rename(partial, file)
        })).pipe(Effect.catchAllDefect((defect) => Effect.logWarning("Embedded template not saved", defect)))
  )
