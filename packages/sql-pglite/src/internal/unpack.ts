import { mkdir, readdir, rename, rm, rmdir } from "node:fs/promises"
import * as tar from "tar"

const isEmptyOrMissing = (dir: string) => readdir(dir).then((entries) => entries.length === 0, () => true)

/**
 * Unpacks `file` (a tar of a data folder) as the new data folder `dataDir`, with native file
 * writes: PGlite's `loadDataDir` writes each file through the WebAssembly file system, several times
 * slower. It is unpacked beside the folder and renamed into place, so a start cut short leaves no
 * half folder. False (nothing done) when `dataDir` holds files already: then it is that database.
 */
export const unpackInto = async (dataDir: string, file: string): Promise<boolean> => {
  if (!(await isEmptyOrMissing(dataDir))) return false
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
}
