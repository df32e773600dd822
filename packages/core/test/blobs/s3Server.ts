import { readdir, rm } from "node:fs/promises"
import { join } from "node:path"
import { startS3 } from "../../../../testing/s3"

export interface S3ServerWithUploads {
  readonly endpoint: string
  readonly bucket: string
  /** The multipart uploads begun and neither completed nor aborted, as s3rver keeps them. */
  readonly pendingUploads: () => Promise<number>
  readonly stop: () => Promise<void>
}

interface KoaContext {
  readonly method: string
  readonly path: string
  readonly query: Record<string, string | Array<string> | undefined>
  status: number
  body: unknown
}
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>

/**
 * s3rver (as testing/s3.ts starts it) plus the one multipart call it lacks, AbortMultipartUpload (it
 * answers 405): it removes the upload's folder, where s3rver keeps an upload's parts until completed.
 * The uploads still pending are that folder's entries.
 */
export const startS3WithUploads = async (bucket = "roda-test"): Promise<S3ServerWithUploads> => {
  let uploads = ""
  const abort: Middleware = async (ctx, next) => {
    const uploadId = ctx.query.uploadId
    if (ctx.method !== "DELETE" || typeof uploadId !== "string" || !ctx.path.startsWith(`/${bucket}/`)) {
      return next()
    }
    if (!/^[0-9a-f]+$/.test(uploadId)) throw new Error(`Unexpected upload id ${uploadId}`)
    const found = (await readdir(uploads).catch((): Array<string> => [])).includes(uploadId)
    await rm(join(uploads, uploadId), { recursive: true, force: true })
    ctx.status = found ? 204 : 404
    ctx.body = found ? null : "NoSuchUpload"
  }
  const server = await startS3(bucket, (s3rver, directory) => {
    uploads = join(directory, bucket, "._S3rver_uploads")
    // Koa runs its middleware in order, the router last: the abort goes just before it.
    const middleware = (s3rver as unknown as { middleware: Array<Middleware> }).middleware
    middleware.splice(middleware.length - 1, 0, abort)
  })
  return {
    endpoint: server.endpoint,
    bucket,
    pendingUploads: async () => (await readdir(uploads).catch((): Array<string> => [])).length,
    stop: server.stop
  }
}
