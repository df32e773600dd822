import { join } from "node:path"

/** `DATA_DIR`'s default (conventions.md). */
export const DEFAULT_DATA_DIR = "./.roda/data"

/** The embedded database's folder for `DATA_DIR` (`memory` keeps it in memory). */
export const embeddedFolder = (dataDir: string | undefined) => {
  const setting = dataDir ?? DEFAULT_DATA_DIR
  return setting === "memory" ? "memory" : join(setting, "pg")
}
