import { Context, Effect, Layer, Option } from "effect"
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises"
import { dirname, join, normalize } from "node:path"
import { Options } from "./Options"

export interface StoredBlob {
  readonly bytes: Uint8Array
  readonly contentType: string
}

/**
 * Files (certificate PDFs and images, uploaded logos): bytes under a key such as
 * `certificates/<community>/<id>.pdf`. Writing a key again replaces it, so a retried job may write
 * the same file twice. Layers: `memory` (tests, `DATA_DIR=memory`) and `filesystem(dir)`; an
 * S3-compatible layer can implement the same three operations.
 */
export class BlobStore extends Context.Tag("@roda/core/BlobStore")<BlobStore, {
  readonly put: (key: string, bytes: Uint8Array, contentType: string) => Effect.Effect<void>
  readonly get: (key: string) => Effect.Effect<Option.Option<StoredBlob>>
  readonly remove: (key: string) => Effect.Effect<void>
}>() {
  /** Blobs in this process's memory. */
  static readonly memory = Layer.sync(BlobStore, () => {
    const blobs = new Map<string, StoredBlob>()
    return BlobStore.of({
      put: (key, bytes, contentType) => Effect.sync(() => void blobs.set(key, { bytes, contentType })),
      get: (key) => Effect.sync(() => Option.fromNullable(blobs.get(key))),
      remove: (key) => Effect.sync(() => void blobs.delete(key))
    })
  })

  /**
   * Blobs as files under `dir` (the content type in a sidecar `<file>.type`). A write goes to a
   * temporary file renamed into place, so a reader never sees half a file.
   */
  static readonly filesystem = (dir: string) => Layer.succeed(BlobStore, BlobStore.of(makeFilesystem(dir)))

  /** `filesystem(options.blobDir)` when the option is set, else `memory`. */
  static readonly fromOptions = Layer.unwrapEffect(
    Effect.map(Options, (options) => options.blobDir ? BlobStore.filesystem(options.blobDir) : BlobStore.memory)
  )
}

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
