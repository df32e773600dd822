import { Effect, Layer, Option, Redacted, Stream } from "effect"
import type { Readable } from "node:stream"
import { BlobStore, checkedKey, collectBytes, type StoredBlob } from "../../src/platform/BlobStore"
import type { BlobLocation } from "../../src/platform/Options"

export type S3Location = Extract<BlobLocation, { _tag: "S3" }>

/**
 * Blobs as objects of an S3-compatible bucket under `location.prefix`, through `@aws-sdk/client-s3`,
 * imported when the layer is built (a process that keeps its files elsewhere never loads the SDK).
 * A PUT replaces an object whole, so a reader gets the old object or the new one.
 */
export const s3BlobStore = (location: S3Location) =>
  Layer.scoped(
    BlobStore,
    Effect.gen(function*() {
      const s3 = yield* Effect.promise(() => import("@aws-sdk/client-s3"))
      const client = yield* Effect.acquireRelease(
        Effect.sync(() =>
          new s3.S3Client({
            region: location.region,
            ...(location.endpoint === undefined ? {} : { endpoint: location.endpoint, forcePathStyle: true }),
            ...(location.credentials === undefined ? {} : {
              credentials: {
                accessKeyId: location.credentials.accessKeyId,
                secretAccessKey: Redacted.value(location.credentials.secretAccessKey),
                ...(location.credentials.sessionToken === undefined
                  ? {}
                  : { sessionToken: Redacted.value(location.credentials.sessionToken) })
              }
            })
          })
        ),
        (client) => Effect.sync(() => client.destroy())
      )
      const Bucket = location.bucket
      const keyOf = (key: string) => location.prefix === "" ? checkedKey(key) : `${location.prefix}/${checkedKey(key)}`
      const call = <A>(send: (signal: AbortSignal) => Promise<A>) =>
        Effect.tryPromise({ try: send, catch: (error) => error })

      const put = (key: string, bytes: Uint8Array, contentType: string) =>
        call((abortSignal) =>
          client.send(
            new s3.PutObjectCommand({ Bucket, Key: keyOf(key), Body: bytes, ContentType: contentType }),
            { abortSignal }
          )
        ).pipe(Effect.asVoid, Effect.orDie)

      const get = (key: string) =>
        call((abortSignal) => client.send(new s3.GetObjectCommand({ Bucket, Key: keyOf(key) }), { abortSignal })).pipe(
          Effect.map((answer) =>
            Option.some<StoredBlob>({
              contentType: answer.ContentType ?? "application/octet-stream",
              size: answer.ContentLength ?? 0,
              // On Node the body is a Readable; iterating it ends (or, interrupted, destroys) the socket's read.
              stream: Stream.fromAsyncIterable(answer.Body as Readable, (error) => error).pipe(
                Stream.map((chunk: Uint8Array) => chunk),
                Stream.orDie
              )
            })
          ),
          Effect.catchIf((error) => error instanceof s3.NoSuchKey, () => Effect.succeed(Option.none<StoredBlob>())),
          Effect.orDie
        )

      // Deleting an object that is not there succeeds: removing twice is not an error.
      const remove = (key: string) =>
        call((abortSignal) => client.send(new s3.DeleteObjectCommand({ Bucket, Key: keyOf(key) }), { abortSignal }))
          .pipe(Effect.asVoid, Effect.orDie)

      // TODO(helper B): multipart upload
      const putStream = (key: string, stream: Stream.Stream<Uint8Array>, contentType: string) =>
        Effect.flatMap(collectBytes(stream), (bytes) => Effect.as(put(key, bytes, contentType), bytes.length))
      return BlobStore.of({ put, get, remove, putStream })
    })
  )
