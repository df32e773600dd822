import { Context, Effect, Layer, Option } from "effect"

export interface StoredBlob {
  readonly bytes: Uint8Array
  readonly contentType: string
}

/**
 * Files (certificate PDFs and images, uploaded logos): bytes under a key such as
 * `certificates/<community>/<id>.pdf`. Writing a key again replaces it, so a retried job may write
 * the same file twice. A port: `memory` here; the platform provides the store (`@roda/core/node`:
 * files under `options.blobDir`, else memory); an S3-compatible layer can implement the same three
 * operations.
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
}
