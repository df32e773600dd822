import { Cause, ConfigProvider, Effect, Exit, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { blobLocationFromEnvironment } from "../../node/blobs/blobUrl"
import { secret } from "../../src/platform/Options"
import type { DatabaseOptions } from "../../src/sql/Database"

const postgres: DatabaseOptions = { _tag: "Postgres", url: secret("postgres://localhost/roda") }
const embedded: DatabaseOptions = { _tag: "Embedded", dataDir: "/srv/roda/pg" }

const choose = (env: Record<string, string>, database: DatabaseOptions = postgres, dataDir = "/srv/roda") =>
  Effect.runPromiseExit(
    blobLocationFromEnvironment(database, dataDir).pipe(
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))
    )
  )

const chosen = async (env: Record<string, string>, database: DatabaseOptions = postgres, dataDir = "/srv/roda") => {
  const exit = await choose(env, database, dataDir)
  if (Exit.isFailure(exit)) throw new Error(Cause.pretty(exit.cause))
  return exit.value
}

const refusal = async (env: Record<string, string>, database: DatabaseOptions = postgres) => {
  const exit = await choose(env, database)
  if (Exit.isSuccess(exit)) throw new Error(`accepted: ${JSON.stringify(exit.value)}`)
  return (Cause.squash(exit.cause) as Error).message
}

describe("BLOB_URL", () => {
  it("defaults to the database on PostgreSQL, to DATA_DIR/blobs embedded, to memory with DATA_DIR=memory", async () => {
    expect(await chosen({})).toEqual({ _tag: "Database" })
    expect(await chosen({ BLOB_URL: "  " })).toEqual({ _tag: "Database" })
    expect(await chosen({}, embedded)).toEqual({ _tag: "Folder", dir: "/srv/roda/blobs" })
    expect(await chosen({}, { _tag: "Embedded", dataDir: "memory" }, "memory")).toEqual({ _tag: "Memory" })
  })

  it("chooses the database, a folder or a bucket explicitly", async () => {
    expect(await chosen({ BLOB_URL: "postgres" }, embedded)).toEqual({ _tag: "Database" })
    expect(await chosen({ BLOB_URL: "file:///mnt/shared/roda%20files" })).toEqual({
      _tag: "Folder",
      dir: "/mnt/shared/roda files"
    })
    expect(await chosen({ BLOB_URL: "s3://roda-files/prod/certs/", AWS_REGION: "sa-east-1" })).toEqual({
      _tag: "S3",
      bucket: "roda-files",
      prefix: "prod/certs",
      region: "sa-east-1",
      endpoint: undefined,
      credentials: undefined
    })
    const minio = await chosen({
      BLOB_URL: "s3://roda",
      AWS_ENDPOINT_URL: "http://other:1",
      AWS_ENDPOINT_URL_S3: "http://minio:9000",
      AWS_ACCESS_KEY_ID: "AKIA1",
      AWS_SECRET_ACCESS_KEY: "shh"
    })
    expect(minio).toMatchObject({ bucket: "roda", prefix: "", region: "us-east-1", endpoint: "http://minio:9000" })
    expect(minio._tag === "S3" && Redacted.value(minio.credentials!.secretAccessKey)).toBe("shh")
  })

  it("refuses what it cannot use, naming BLOB_URL (or the AWS variable) and the fix", async () => {
    const fix = "set BLOB_URL to s3://bucket/prefix, file:///absolute/folder or postgres, or unset it for the default"
    expect(await refusal({ BLOB_URL: "ftp://files.example/roda" })).toBe(
      `BLOB_URL: ftp://files.example/roda is not one of s3://bucket/prefix, file:///absolute/folder or postgres — ${fix}`
    )
    expect(await refusal({ BLOB_URL: "./blobs" })).toMatch(/^BLOB_URL: \.\/blobs is not one of/)
    expect(await refusal({ BLOB_URL: "file://relative/blobs" })).toMatch(
      /^BLOB_URL: .*not a file URL of an absolute folder/
    )
    const withKeys = await refusal({ BLOB_URL: "s3://AKIA:secret@roda-files/x", AWS_REGION: "us-east-1" })
    expect(withKeys).toMatch(/^BLOB_URL: .*AWS_ACCESS_KEY_ID/)
    expect(withKeys).not.toContain("secret")
    expect(await refusal({ BLOB_URL: "s3://Roda_Files/x", AWS_REGION: "us-east-1" })).toMatch(/does not name a bucket/)
    expect(await refusal({ BLOB_URL: "s3://roda-files/a/../b", AWS_REGION: "us-east-1" })).toMatch(/prefix/)
    expect(await refusal({ BLOB_URL: "s3://roda-files/x" })).toMatch(
      /^AWS_REGION: BLOB_URL=s3:\/\/roda-files\/x needs the bucket's region/
    )
    expect(await refusal({ BLOB_URL: "s3://roda-files/x", AWS_ENDPOINT_URL: "minio:9000" })).toMatch(
      /^AWS_ENDPOINT_URL: minio:9000 is not an http\(s\) URL/
    )
    // Every problem at once, each on its own line.
    expect(
      (await refusal({ BLOB_URL: "s3://roda-files/x", AWS_ENDPOINT_URL: "minio:9000", AWS_ACCESS_KEY_ID: "A" }))
        .split("\n").map((line) => line.split(":")[0])
    ).toEqual(["AWS_ENDPOINT_URL", "AWS_SECRET_ACCESS_KEY"])
    expect(await refusal({ BLOB_URL: "s3://roda-files", AWS_REGION: "eu-west-1", AWS_ACCESS_KEY_ID: "AKIA1" })).toMatch(
      /^AWS_SECRET_ACCESS_KEY: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together/
    )
  })
})
