import { Config, Effect, Option, Redacted } from "effect"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { BlobLocation } from "../../src/platform/Options"
import type { DatabaseOptions } from "../../src/sql/Database"

const FORMS = "s3://bucket/prefix, file:///absolute/folder or postgres"

const refuse = (problem: string) =>
  Effect.dieMessage(`BLOB_URL: ${problem} (set BLOB_URL to ${FORMS}, or unset it for the default)`)

// Bucket names as S3 allows them (3-63 lower-case letters, digits, dots and hyphens).
const bucketName = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/
const prefixSegment = /^[a-zA-Z0-9][a-zA-Z0-9._-]*$/

/** `value` without the `user:password@` a URL might carry, for messages. */
const shown = (value: string) => value.replace(/\/\/[^/@]*@/, "//…@")

const optional = (name: string) => Config.option(Config.string(name)).pipe(Effect.map(Option.getOrUndefined))

/** `s3://bucket/prefix` and the AWS variables (region, endpoint, keys). */
const s3Location = (url: URL, value: string) =>
  Effect.gen(function*() {
    if (url.username !== "" || url.password !== "" || url.port !== "" || url.search !== "" || url.hash !== "") {
      return yield* refuse(`${shown(value)} has more than s3://bucket/prefix (keys go in AWS_ACCESS_KEY_ID…)`)
    }
    if (!bucketName.test(url.hostname)) return yield* refuse(`${shown(value)} does not name a bucket`)
    const segments = url.pathname.split("/").filter(Boolean)
    // (The URL parser resolves `a/../b` to `b`: the raw text is checked for such segments too.)
    const raw = value.slice("s3://".length).split("/")
    if (raw.some((segment) => /^(\.|%2e){1,2}$/i.test(segment)) || segments.some((s) => !prefixSegment.test(s))) {
      return yield* refuse(`the prefix of ${value} may hold letters, digits, '.', '_' and '-' between slashes`)
    }
    const endpoint = (yield* optional("AWS_ENDPOINT_URL_S3")) ?? (yield* optional("AWS_ENDPOINT_URL"))
    if (endpoint !== undefined && !/^https?:\/\/[^/]/.test(endpoint)) {
      return yield* Effect.dieMessage(
        `AWS_ENDPOINT_URL: ${endpoint} is not an http(s) URL such as https://minio.example:9000`
      )
    }
    const region = (yield* optional("AWS_REGION")) ?? (yield* optional("AWS_DEFAULT_REGION"))
    if (region === undefined && endpoint === undefined) {
      return yield* Effect.dieMessage(
        `BLOB_URL=${value} needs AWS_REGION (the bucket's region), or AWS_ENDPOINT_URL for another S3-compatible service`
      )
    }
    const accessKeyId = yield* optional("AWS_ACCESS_KEY_ID")
    const secretAccessKey = yield* Config.option(Config.redacted("AWS_SECRET_ACCESS_KEY"))
    if ((accessKeyId === undefined) !== Option.isNone(secretAccessKey)) {
      return yield* Effect.dieMessage("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together: set both, or neither")
    }
    const sessionToken = yield* Config.option(Config.redacted("AWS_SESSION_TOKEN"))
    return {
      _tag: "S3",
      bucket: url.hostname,
      prefix: segments.join("/"),
      region: region ?? "us-east-1",
      endpoint,
      credentials: accessKeyId === undefined || Option.isNone(secretAccessKey) ? undefined : {
        accessKeyId,
        secretAccessKey: secretAccessKey.value,
        sessionToken: Option.getOrUndefined(sessionToken)
      }
    } satisfies BlobLocation
  })

const fileLocation = (url: URL, value: string) => {
  try {
    if (url.search !== "" || url.hash !== "") throw new Error("query")
    return Effect.succeed<BlobLocation>({ _tag: "Folder", dir: fileURLToPath(url) })
  } catch {
    return refuse(`${value} is not a file URL of an absolute folder, such as file:///var/lib/roda/blobs`)
  }
}

/**
 * `BLOB_URL`, where stored files (certificate PDFs and images) are kept. Unset: on PostgreSQL
 * (`DATABASE_URL`) the database itself, so every server process sees every file; embedded, the folder
 * `DATA_DIR/blobs` (memory with `DATA_DIR=memory`). `postgres` chooses the database (on PGlite too),
 * `file:///folder` a folder, `s3://bucket/prefix` an S3-compatible bucket. Anything else stops the
 * start with a message naming BLOB_URL.
 */
export const blobLocationFromEnvironment = (database: DatabaseOptions, dataDir: string) =>
  Effect.gen(function*() {
    const given = yield* Config.option(Config.redacted("BLOB_URL"))
    if (Option.isNone(given) || Redacted.value(given.value).trim() === "") {
      if (database._tag === "Postgres") return { _tag: "Database" } satisfies BlobLocation
      return dataDir === "memory"
        ? { _tag: "Memory" } satisfies BlobLocation
        : { _tag: "Folder", dir: join(dataDir, "blobs") } satisfies BlobLocation
    }
    const value = Redacted.value(given.value).trim()
    if (value.toLowerCase() === "postgres") return { _tag: "Database" } satisfies BlobLocation
    const url = URL.canParse(value) ? new URL(value) : undefined
    if (url?.protocol === "s3:") return yield* s3Location(url, value)
    if (url?.protocol === "file:") return yield* fileLocation(url, value)
    return yield* refuse(`${shown(value)} is not one of ${FORMS}`)
  })
