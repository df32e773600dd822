import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import S3rver from "s3rver"
import { freePort } from "./ports"

/** s3rver's fixed keys: it checks every request's signature against them. */
export const S3_TEST_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } as const

export interface S3TestServer {
  /** `http://127.0.0.1:<port>`, for AWS_ENDPOINT_URL (path-style requests). */
  readonly endpoint: string
  readonly bucket: string
  /** Where s3rver keeps the objects: `<directory>/<bucket>/<key>._S3rver_object`. */
  readonly directory: string
  readonly stop: () => Promise<void>
}

/**
 * An S3-compatible server (s3rver) on 127.0.0.1 with one empty bucket, its objects in a temporary folder.
 * `prepare` may change the server (add a middleware) before it runs.
 */
export const startS3 = async (
  bucket = "roda-test",
  prepare: (server: S3rver, directory: string) => void = () => undefined
): Promise<S3TestServer> => {
  const directory = mkdtempSync(join(tmpdir(), "roda-s3-"))
  const port = await freePort()
  const server = new S3rver({
    address: "127.0.0.1",
    port,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }]
  })
  prepare(server, directory)
  await server.run()
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    directory,
    stop: async () => {
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    }
  }
}
