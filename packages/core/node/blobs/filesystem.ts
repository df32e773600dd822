import { Effect, Layer, Option, Stream } from "effect"
import { mkdir, open, readFile, rename, rm, writeFile } from "node:fs/promises"
import { dirname, join, normalize } from "node:path"
import { BlobStore, checkedKey, collectBytes, type StoredBlob } from "../../src/platform/BlobStore"

/**
 * Blobs as files under `dir` (the content type in a sidecar `<file>.type`). A write goes to a
 * temporary file renamed into place, so a reader never sees half a file; a read opens the file
 * before answering, so it streams the file it measured even if the key is rewritten meanwhile.
 */
export const filesystemBlobStore = (dir: string) => Layer.succeed(BlobStore, BlobStore.of(makeFilesystem(dir)))

const READ_CHUNK = 256 * 1024

const makeFilesystem = (dir: string) => {
  const pathOf = (key: string) => normalize(join(dir, checkedKey(key)))
  let counter = 0
  const store = {
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
          const handle = await open(path, "r")
          try {
            const [stats, contentType] = await Promise.all([handle.stat(), readFile(`${path}.type`, "utf8")])
            return Option.some<StoredBlob>({ contentType, size: stats.size, stream: streamOf(handle) })
          } catch (error) {
            await handle.close()
            throw error
          }
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
  // TODO(helper B): write to the temporary file as the bytes come
  const putStream = (key: string, stream: Stream.Stream<Uint8Array>, contentType: string) =>
    Effect.flatMap(collectBytes(stream), (bytes) => Effect.as(store.put(key, bytes, contentType), bytes.length))
  return { ...store, putStream }
}

type Handle = Awaited<ReturnType<typeof open>>

/** The open file's bytes, a chunk at a time; the file is closed when the stream ends or is interrupted. */
const streamOf = (handle: Handle): Stream.Stream<Uint8Array> =>
  Stream.ensuring(
    Stream.unfoldEffect(0, (position) =>
      Effect.promise(async () => {
        const buffer = new Uint8Array(READ_CHUNK)
        const { bytesRead } = await handle.read(buffer, 0, READ_CHUNK, position)
        return bytesRead === 0
          ? Option.none()
          : Option.some([buffer.subarray(0, bytesRead), position + bytesRead] as const)
      })),
    Effect.promise(() => handle.close())
  )
