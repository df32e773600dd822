import { Chunk, Context, Effect, Layer, Option, Stream } from "effect"
import { concatBytes } from "./bytes"

/**
 * A stored file as a store hands it out: its type and size first, its bytes as a stream read from
 * the store as the stream is run (a store never holds a whole file in memory to serve it). Run the
 * stream once; a store's failure while streaming is a defect.
 */
export interface StoredBlob {
  readonly contentType: string
  readonly size: number
  readonly stream: Stream.Stream<Uint8Array>
}

/**
 * Files (certificate PDFs and images, uploaded logos): bytes under a key such as
 * `certificates/<community>/<id>.pdf`. Writing a key again replaces it, so a retried job may write
 * the same file twice; a reader sees the old file or the new one, never a mix. A port: `memory` here,
 * `database` (`databaseBlobStore`, tables of the SqlClient's database); `@roda/core/node` adds a folder
 * and S3-compatible object storage, chosen by `options.blobStore` (`BLOB_URL`).
 */
export class BlobStore extends Context.Tag("@roda/core/BlobStore")<BlobStore, {
  readonly put: (key: string, bytes: Uint8Array, contentType: string) => Effect.Effect<void>
  /**
   * Writes a file of unknown length as its bytes come (a data export's ZIP): the store holds a bounded
   * part of it in memory at a time. Answers the size written. The file appears whole or not at all.
   */
  readonly putStream: (key: string, bytes: Stream.Stream<Uint8Array>, contentType: string) => Effect.Effect<number>
  readonly get: (key: string) => Effect.Effect<Option.Option<StoredBlob>>
  readonly remove: (key: string) => Effect.Effect<void>
}>() {
  /** Blobs in this process's memory. */
  static readonly memory = Layer.sync(BlobStore, () => {
    const blobs = new Map<string, { bytes: Uint8Array; contentType: string }>()
    return BlobStore.of({
      put: (key, bytes, contentType) =>
        Effect.sync(() => void blobs.set(checkedKey(key), { bytes: bytes.slice(), contentType })),
      get: (key) =>
        Effect.sync(() =>
          Option.map(Option.fromNullable(blobs.get(checkedKey(key))), ({ bytes, contentType }) => ({
            contentType,
            size: bytes.length,
            stream: Stream.make(bytes)
          }))
        ),
      putStream: (key, stream, contentType) =>
        Effect.map(collectBytes(stream), (bytes) => {
          blobs.set(checkedKey(key), { bytes, contentType })
          return bytes.length
        }),
      remove: (key) => Effect.sync(() => void blobs.delete(checkedKey(key)))
    })
  })
}

const safeKey = /^[a-zA-Z0-9][a-zA-Z0-9._-]*(\/[a-zA-Z0-9][a-zA-Z0-9._-]*)*$/

/**
 * Keys are made by Roda, never taken from a client; one that is not path segments of letters, digits,
 * `.`, `_` and `-` (no `..`) is a bug, refused before it can name a file outside a store's folder.
 */
export const checkedKey = (key: string) => {
  if (!safeKey.test(key) || key.includes("..") || key.length > 1024) throw new Error(`Invalid blob key: ${key}`)
  return key
}

/** A stream's bytes as one array (a store in memory only). */
export const collectBytes = (stream: Stream.Stream<Uint8Array>) =>
  Effect.map(Stream.runCollect(stream), (chunks) => concatBytes(Chunk.toReadonlyArray(chunks)))

/** The whole of a small blob (a logo, a cached PNG) in memory. */
export const blobBytes = (blob: StoredBlob) =>
  Effect.map(Stream.runCollect(blob.stream), (chunks) => {
    const bytes = new Uint8Array(blob.size)
    let offset = 0
    for (const chunk of Chunk.toReadonlyArray(chunks)) {
      if (offset + chunk.length > bytes.length) throw new Error(`Blob longer than its size ${blob.size}`)
      bytes.set(chunk, offset)
      offset += chunk.length
    }
    if (offset !== bytes.length) throw new Error(`Blob of ${offset} bytes, not its size ${blob.size}`)
    return bytes
  })
