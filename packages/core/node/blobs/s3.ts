import { Effect, Exit, Layer, Option, Redacted, Stream } from "effect"
import type { Readable } from "node:stream"
import { forEachPart } from "../../src/platform/blobParts"
import { BlobStore, checkedKey, type StoredBlob } from "../../src/platform/BlobStore"
import type { BlobLocation } from "../../src/platform/Options"

export type S3Location = Extract<BlobLocation, { _tag: "S3" }>

/** Bytes per part of a multipart upload (S3 takes 5 MiB to 5 GiB, the last part smaller). */
export const PART_SIZE = 8 * 1024 * 1024

/**
 * Blobs as objects of an S3-compatible bucket under `location.prefix`, through `@aws-sdk/client-s3`,
 * imported when the layer is built (a process that keeps its files elsewhere never loads the SDK).
 * A PUT, or a multipart upload's completion, replaces an object whole, so a reader gets the old
 * object or the new one.
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

      const send = <A>(command: (signal: AbortSignal) => Promise<A>) => Effect.orDie(call(command))

      // A stream shorter than a part is one PUT; a longer one a multipart upload of 8 MiB parts (S3's
      // least is 5 MiB, but for the last), the object appearing only when the upload is completed.
      // An upload that fails or is interrupted is aborted, so that no part is left stored (and billed).
      const putStream = (key: string, bytes: Stream.Stream<Uint8Array>, contentType: string) =>
        Effect.suspend(() => {
          const Key = keyOf(key)
          let UploadId: string | undefined
          const parts: Array<{ ETag: string | undefined; PartNumber: number }> = []
          // Started uninterruptibly: an upload begun on the server is always known here, to abort.
          const started = Effect.suspend(() =>
            UploadId === undefined
              ? Effect.uninterruptible(
                send((abortSignal) =>
                  client.send(
                    new s3.CreateMultipartUploadCommand({ Bucket, Key, ContentType: contentType }),
                    { abortSignal }
                  )
                ).pipe(Effect.flatMap((answer) =>
                  answer.UploadId === undefined
                    ? Effect.dieMessage(`No UploadId for ${Key}`)
                    : Effect.sync(() => void (UploadId = answer.UploadId))
                ))
              )
              : Effect.void
          )
          const writePart = (Body: Uint8Array, index: number, last: boolean): Effect.Effect<void> =>
            index === 0 && last
              ? send((abortSignal) =>
                client.send(new s3.PutObjectCommand({ Bucket, Key, Body, ContentType: contentType }), { abortSignal })
              )
              : last && Body.length === 0
              ? Effect.void
              : Effect.zipRight(
                started,
                send((abortSignal) =>
                  client.send(
                    new s3.UploadPartCommand({ Bucket, Key, UploadId, PartNumber: index + 1, Body }),
                    { abortSignal }
                  )
                ).pipe(Effect.map((answer) => void parts.push({ ETag: answer.ETag, PartNumber: index + 1 })))
              )
          const completed = Effect.suspend(() =>
            UploadId === undefined ? Effect.void : send((abortSignal) =>
              client.send(
                new s3.CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: parts } }),
                { abortSignal }
              )
            )
          )
          const aborted = Effect.suspend(() =>
            UploadId === undefined ?
              Effect.void :
              send((abortSignal) =>
                client.send(new s3.AbortMultipartUploadCommand({ Bucket, Key, UploadId }), { abortSignal })
              ).pipe(
                Effect.catchAllCause((cause) =>
                  Effect.logWarning(`Could not abort the multipart upload ${UploadId} of ${Key}`, cause)
                )
              )
          )
          return forEachPart(bytes, PART_SIZE, writePart).pipe(
            Effect.tap(() => completed),
            Effect.onExit((exit) => Exit.isSuccess(exit) ? Effect.void : aborted)
          )
        })

      // One piece: a PUT when under a part, else its parts are views of `bytes`, never copied.
      const put = (key: string, bytes: Uint8Array, contentType: string) =>
        Effect.asVoid(putStream(key, Stream.make(bytes), contentType))

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

      return BlobStore.of({ put, get, remove, putStream })
    })
  )
