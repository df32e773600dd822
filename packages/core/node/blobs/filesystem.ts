import { Effect, Exit, Layer, Option, Stream } from "effect"
import { mkdir, open, readFile, rename, rm, writeFile } from "node:fs/promises"
import { dirname, join, normalize } from "node:path"
import { forEachPart } from "../../src/platform/blobParts"
import { BlobStore, checkedKey, type StoredBlob } from "../../src/platform/BlobStore"

/**
 * Blobs as files under `dir` (the content type in a sidecar `<file>.type`). A write goes to a
 * temporary file as its bytes come, renamed into place once whole (removed if the write fails), so a
 * reader never sees half a file; a read opens the file before answering, so it streams the file it
 * measured even if the key is rewritten meanwhile.
 */
export const filesystemBlobStore = (dir: string) => Layer.succeed(BlobStore, BlobStore.of(makeFilesystem(dir)))

const READ_CHUNK = 256 * 1024
/** Small pieces of a stream are gathered into writes of this size. */
const WRITE_CHUNK = 256 * 1024

const makeFilesystem = (dir: string) => {
  const pathOf = (key: string) => normalize(join(dir, checkedKey(key)))
  let counter = 0
  const putStream = (key: string, bytes: Stream.Stream<Uint8Array>, contentType: string) =>
    Effect.suspend(() => {
      const path = pathOf(key)
      const temporary = `${path}.${process.pid}.${++counter}.tmp`
      return Effect.acquireUseRelease(
        Effect.promise(async () => {
          await mkdir(dirname(path), { recursive: true })
          return open(temporary, "w")
        }),
        (handle) =>
          forEachPart(bytes, WRITE_CHUNK, (part) => Effect.promise(() => writeAll(handle, part))).pipe(
            Effect.tap(() =>
              Effect.promise(async () => {
                await handle.close()
                await writeFile(`${path}.type`, contentType)
                await rename(temporary, path)
              })
            )
          ),
        // Closing twice is harmless; the temporary file is gone once renamed.
        (handle, exit) =>
          Effect.promise(async () => {
            await handle.close().catch(() => undefined)
            if (Exit.isFailure(exit)) await rm(temporary, { force: true })
          })
      )
    })
  const store = {
    putStream,
    // One piece, written as it is.
    put: (key: string, bytes: Uint8Array, contentType: string) =>
      Effect.asVoid(putStream(key, Stream.make(bytes), contentType)),
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
  return store
}

type Handle = Awaited<ReturnType<typeof open>>

/** All of `bytes`, at the handle's position (a write may take fewer bytes than asked). */
const writeAll = async (handle: Handle, bytes: Uint8Array) => {
  for (let offset = 0; offset < bytes.length;) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset)
    offset += bytesWritten
  }
}

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
