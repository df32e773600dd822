import { S3_TEST_CREDENTIALS, type S3TestServer, startS3 } from "../../../../testing/s3"
import { secret } from "../../node/index"
import { blobStoreContract } from "./contract"

let server: S3TestServer | undefined

// Against s3rver on 127.0.0.1 (a real S3 API over HTTP, signatures checked), under a key prefix.
blobStoreContract("S3-compatible (s3rver)", {
  location: async () => {
    server = await startS3()
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
  cleanup: async () => server?.stop()
})
