/**
 * `@roda/core/node/prestart`: the embedded database starts opening before the server has loaded the
 * rest of itself. Unpacking a new data folder and starting PGlite (in its worker thread) then overlap
 * with loading Roda's modules on the main thread, instead of following it.
 *
 * Light on purpose: it loads neither Effect nor PGlite. It takes the folder's lock first
 * (`dataDirLock.ts`). It reads `DATABASE_URL` and `DATA_DIR` as the environment does
 * (`environment.ts`), and the template the build shipped from its manifest;
 * the database layer takes the started database over when it would open the same folder the same
 * way, else closes it (removing the folder it made) and opens its own.
 */
import { prestart } from "@roda/sql-pglite/prestart"
import { existsSync } from "node:fs"
import { embeddedFolder } from "./dataDir"
import { lockDataDir } from "./dataDirLock"
import { folderClient } from "./sql/folderClient"
import { folderFileOf, shippedDirs, shippedTemplateKey } from "./sql/templateFiles"

export const prestartEmbedded = (env: NodeJS.ProcessEnv = process.env): void => {
  if (env.DATABASE_URL !== undefined) return
  const dataDir = embeddedFolder(env.DATA_DIR)
  if (dataDir === "memory") return
  // The folder is this process's from now until it exits. Held by another, or not writable: nothing
  // is started early, and the start reports why (the database layer takes the same lock).
  try {
    lockDataDir(dataDir)
  } catch {
    return
  }
  const key = shippedTemplateKey()
  const template = key === undefined
    ? undefined
    : shippedDirs().map((dir) => folderFileOf(dir, key)).find((file) => existsSync(file))
  prestart(folderClient(dataDir, template))
}
