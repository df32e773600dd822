/**
 * Where the embedded database's templates are kept (see `template.ts`). Light on purpose: the server
 * finds its shipped template from here before it loads the rest of itself (`prestart.ts`).
 */
import { readFileSync } from "node:fs"
import { access } from "node:fs/promises"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

/** A dump of a migrated database (`dumpDataDir`), kept in a snapshot folder or shipped. */
export const dumpFileOf = (dir: string, key: string) => join(dir, `pglite-template-${key}.tar`)
/** The same database as a folder PGlite closed cleanly (`pnpm build` makes it; see ship-template.mjs). */
export const folderFileOf = (dir: string, key: string) => join(dir, `pglite-folder-${key}.tar`)
/** Names the key of the folder template the build shipped (ship-template.mjs writes it). */
const manifestOf = (dir: string) => join(dir, "pglite-template.json")

/**
 * The folders where `pnpm build` may have left the template: beside this module when it is the built
 * package, and the built `@roda/core` resolved from here, for programs that bundle it (the
 * `roda-server` binary does). None when neither is built.
 */
export const shippedDirs = () => {
  const here = dirname(fileURLToPath(import.meta.url))
  try {
    return [here, dirname(createRequire(import.meta.url).resolve("@roda/core"))]
  } catch {
    return [here]
  }
}

/**
 * The template's file for `key`: from `snapshotDir`, else shipped with the package, where the cleanly
 * closed folder comes first (a dump of a running database is recovered as after a crash when first
 * opened, ~0.3 s); undefined when none.
 */
export const templateFile = async (key: string, snapshotDir: string | undefined) => {
  const shipped = shippedDirs()
  const candidates = [
    ...(snapshotDir === undefined ? [] : [dumpFileOf(snapshotDir, key)]),
    ...shipped.map((dir) => folderFileOf(dir, key)),
    ...shipped.map((dir) => dumpFileOf(dir, key))
  ]
  for (const file of candidates) {
    if (await access(file).then(() => true, () => false)) return file
  }
  return undefined
}

/**
 * The key of the template the build shipped, read from its manifest without computing it (which
 * needs every migration loaded); undefined when nothing was shipped.
 */
export const shippedTemplateKey = (): string | undefined => {
  for (const dir of shippedDirs()) {
    try {
      const { key } = JSON.parse(readFileSync(manifestOf(dir), "utf8")) as { key?: unknown }
      if (typeof key === "string" && /^\w+$/.test(key)) return key
    } catch {
      // not shipped here
    }
  }
  return undefined
}
