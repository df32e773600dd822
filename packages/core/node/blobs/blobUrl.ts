import { Config, Effect, Option, Redacted } from "effect"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { BlobLocation } from "../../src/platform/Options"
import type { DatabaseOptions } from "../../src/sql/Database"
import { type Env, problem, type SettingCheck, type SettingProblem, SettingsError } from "../settings/checks"

const FORMS = "s3://bucket/prefix, file:///absolute/folder or postgres"
const FIX = `set BLOB_URL to ${FORMS}, or unset it for the default`

/** The variables `BLOB_URL` is read with. */
const VARIABLES = [
  "BLOB_URL",
  "AWS_ENDPOINT_URL_S3",
  "AWS_ENDPOINT_URL",
  "AWS_REGION",
  "AWS_DEFAULT_REGION",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN"
] as const

type Read = { readonly location: BlobLocation | undefined } | { readonly problems: ReadonlyArray<SettingProblem> }

const refused = (what: string): Read => ({ problems: [problem("BLOB_URL", what, FIX)] })

// Bucket names as S3 allows them (3-63 lower-case letters, digits, dots and hyphens).
const bucketName = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/
const prefixSegment = /^[a-zA-Z0-9][a-zA-Z0-9._-]*$/

/** `value` without the `user:password@` a URL might carry, for messages. */
const shown = (value: string) => value.replace(/\/\/[^/@]*@/, "//…@")

/** `s3://bucket/prefix` and the AWS variables (region, endpoint, keys). */
const s3Location = (url: URL, value: string, env: Env): Read => {
  if (url.username !== "" || url.password !== "" || url.port !== "" || url.search !== "" || url.hash !== "") {
    return refused(`${shown(value)} has more than s3://bucket/prefix (keys go in AWS_ACCESS_KEY_ID…)`)
  }
  if (!bucketName.test(url.hostname)) return refused(`${shown(value)} does not name a bucket`)
  const segments = url.pathname.split("/").filter(Boolean)
  // (The URL parser resolves `a/../b` to `b`: the raw text is checked for such segments too.)
  const raw = value.slice("s3://".length).split("/")
  if (raw.some((segment) => /^(\.|%2e){1,2}$/i.test(segment)) || segments.some((s) => !prefixSegment.test(s))) {
    return refused(`the prefix of ${value} may hold letters, digits, '.', '_' and '-' between slashes`)
  }
  const problems: Array<SettingProblem> = []
  const endpoint = env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL
  if (endpoint !== undefined && !/^https?:\/\/[^/]/.test(endpoint)) {
    problems.push(problem(
      env.AWS_ENDPOINT_URL_S3 === undefined ? "AWS_ENDPOINT_URL" : "AWS_ENDPOINT_URL_S3",
      `${endpoint} is not an http(s) URL`,
      "set the S3-compatible service's URL, such as https://minio.example:9000"
    ))
  }
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION
  if (region === undefined && endpoint === undefined) {
    problems.push(problem(
      "AWS_REGION",
      `BLOB_URL=${value} needs the bucket's region`,
      "set AWS_REGION, or AWS_ENDPOINT_URL for another S3-compatible service"
    ))
  }
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey } = env
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    problems.push(problem(
      accessKeyId === undefined ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY",
      "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together",
      "set both, or neither (the SDK's other credential sources are used then)"
    ))
  }
  if (problems.length > 0) return { problems }
  return {
    location: {
      _tag: "S3",
      bucket: url.hostname,
      prefix: segments.join("/"),
      region: region ?? "us-east-1",
      endpoint,
      credentials: accessKeyId === undefined || secretAccessKey === undefined ? undefined : {
        accessKeyId,
        secretAccessKey: Redacted.make(secretAccessKey),
        sessionToken: env.AWS_SESSION_TOKEN === undefined ? undefined : Redacted.make(env.AWS_SESSION_TOKEN)
      }
    }
  }
}

const fileLocation = (url: URL, value: string): Read => {
  try {
    if (url.search !== "" || url.hash !== "") throw new Error("query")
    return { location: { _tag: "Folder", dir: fileURLToPath(url) } }
  } catch {
    return refused(`${value} is not a file URL of an absolute folder, such as file:///var/lib/roda/blobs`)
  }
}

/** What `BLOB_URL` asks for: a location, none (the default applies), or what is wrong with it. */
const readBlobUrl = (env: Env): Read => {
  const value = env.BLOB_URL?.trim() ?? ""
  if (value === "") return { location: undefined }
  if (value.toLowerCase() === "postgres") return { location: { _tag: "Database" } }
  const url = URL.canParse(value) ? new URL(value) : undefined
  if (url?.protocol === "s3:") return s3Location(url, value, env)
  if (url?.protocol === "file:") return fileLocation(url, value)
  return refused(`${shown(value)} is not one of ${FORMS}`)
}

/** The start-up check of `BLOB_URL` and the AWS variables it is read with. */
export const blobUrlCheck: SettingCheck = {
  variables: VARIABLES,
  check: (env) => {
    const read = readBlobUrl(env)
    return "problems" in read ? read.problems : []
  }
}

const readEnv = Effect.gen(function*() {
  const env: Record<string, string | undefined> = {}
  for (const name of VARIABLES) env[name] = Option.getOrUndefined(yield* Config.option(Config.string(name)))
  return env
})

/**
 * `BLOB_URL`, where stored files (certificate PDFs and images) are kept. Unset: on PostgreSQL
 * (`DATABASE_URL`) the database itself, so every server process sees every file; embedded, the folder
 * `DATA_DIR/blobs` (memory with `DATA_DIR=memory`). `postgres` chooses the database (on PGlite too),
 * `file:///folder` a folder, `s3://bucket/prefix` an S3-compatible bucket. Anything else dies with a
 * `SettingsError` naming the variable (the start-up checks report it first, with every other problem).
 */
export const blobLocationFromEnvironment = (database: DatabaseOptions, dataDir: string) =>
  Effect.gen(function*() {
    const read = readBlobUrl(yield* readEnv)
    if ("problems" in read) return yield* Effect.die(new SettingsError(read.problems))
    if (read.location !== undefined) return read.location
    if (database._tag === "Postgres") return { _tag: "Database" } satisfies BlobLocation
    return dataDir === "memory"
      ? { _tag: "Memory" } satisfies BlobLocation
      : { _tag: "Folder", dir: join(dataDir, "blobs") } satisfies BlobLocation
  })
