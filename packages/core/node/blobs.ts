import { Effect, Layer, Option } from "effect"
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises"
import { dirname, join, normalize } from "node:path"
import { BlobStore, type StoredBlob } from "../src/platform/BlobStore"
import { Options } from "../src/platform/Options"

/**
 * Blobs as files under `dir` (the content type in a sidecar `<file>.type`). A write goes to a
 * temporary file renamed into place, so a reader never sees half a file.
 */
export const filesystemBlobStore = (dir: string) => Layer.succeed(BlobStore, BlobStore.of(makeFilesystem(dir)))

/** `filesystemBlobStore(options.blobDir)` when the option is set, else `BlobStore.memory`. */
export const blobStoreFromOptions = Layer.unwrapEffect(
  Effect.map(Options, (options) => options.blobDir ? filesystemBlobStore(options.blobDir) : BlobStore.memory)
)

const safeKey = /^[a-zA-Z0-9][a-zA-Z0-9._-]*(\/[a-zA-Z0-9][a-zA-Z0-9._-]*)*$/

const makeFilesystem = (dir: string) => {
  const pathOf = (key: string) => {
    if (!safeKey.test(key) || key.includes("..")) throw new Error(`Invalid blob key: ${key}`)
    return normalize(join(dir, key))
  }
  let counter = 0
  return {
    put: (key: string, bytes: Uint8Array, contentType: string) =>
      Effect.promise(async () => {
        const path = pathOf(key)
        await mkdir(dirname(path), { recursive: true })
        const temporary = `${path}.${process.pid}.${++counter}.tmp`
        await writeFile(`${path}.type`, contentType)
        await writeFile(temporary, bytes)
        await rename(temporary, path)
      }),
    get: (key: string) =>
      Effect.promise(async () => {
        const path = pathOf(key)
        try {
          const [bytes, contentType] = await Promise.all([readFile(path), readFile(`${path}.type`, "utf8")])
          return Option.some<StoredBlob>({ bytes: new Uint8Array(bytes), contentType })
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "ENOENT") return Option.none<StoredBlob>()
          throw error
        }
      }),
    remove: (key: string) =>
      Effect.promise(async () => {
        const path = pathOf(key)
        await rm(path, { force: true })
        await rm(`${path}.type`, { force: true })
      })
  }
}
