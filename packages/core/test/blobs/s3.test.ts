import { S3_TEST_CREDENTIALS } from "../../../../testing/s3"
import { PART_SIZE } from "../../node/blobs/s3"
import { secret } from "../../node/index"
import { blobStoreContract } from "./contract"
import { type S3ServerWithUploads, startS3WithUploads } from "./s3Server"

let server: S3ServerWithUploads | undefined

// Against s3rver on 127.0.0.1 (a real S3 API over HTTP, signatures checked), under a key prefix; with
// AbortMultipartUpload added (s3rver.ts), so that a failed upload's parts can be seen gone.
blobStoreContract("S3-compatible (s3rver)", {
  location: async () => {
    server = await startS3WithUploads()
    return {
      _tag: "S3",
      bucket: server.bucket,
      prefix: "roda/files",
      region: "us-east-1",
      endpoint: server.endpoint,
      credentials: {
        accessKeyId: S3_TEST_CREDENTIALS.accessKeyId,
        secretAccessKey: secret(S3_TEST_CREDENTIALS.secretAccessKey)
      }
    }
  },
  shared: true,
  pieces: true,
  streams: true,
  part: PART_SIZE,
  // Multipart uploads neither completed nor aborted.
  leftovers: async () => server!.pendingUploads(),
  cleanup: async () => server?.stop()
})
