import { Effect, Layer } from "effect"
import { BlobStore } from "../../src/platform/BlobStore"
import { databaseBlobStore } from "../../src/platform/databaseBlobStore"
import { type BlobLocation, Options } from "../../src/platform/Options"
import { filesystemBlobStore } from "./filesystem"
import { s3BlobStore } from "./s3"

export { filesystemBlobStore } from "./filesystem"
export { s3BlobStore } from "./s3"

/** The store of one `BlobLocation`. */
export const blobStoreAt = (location: BlobLocation) => {
  switch (location._tag) {
    case "Memory":
      return BlobStore.memory
    case "Folder":
      return filesystemBlobStore(location.dir)
    case "Database":
      return databaseBlobStore
    case "S3":
      return s3BlobStore(location)
  }
}

/** `options.blobStore`; else a folder when `options.blobDir` is set; else `BlobStore.memory`. */
export const blobStoreFromOptions = Layer.unwrapEffect(
  Effect.map(Options, (options) =>
    blobStoreAt(
      options.blobStore ??
        (options.blobDir ? { _tag: "Folder", dir: options.blobDir } : { _tag: "Memory" })
    ))
)
