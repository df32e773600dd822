import { existsSync, readdirSync } from "node:fs"
import { join } from "node:path"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { type BuiltServer, startBuiltServer } from "../../../../testing/builtServer"
import { S3_TEST_CREDENTIALS, type S3TestServer, startS3 } from "../../../../testing/s3"
import { POSTGRES_ONLY, skipWhen } from "../../../../testing/skips"
import { startSmtp } from "../../../../testing/smtp"
import { activeTemplate, certificateCommunity, issueAndWait } from "../../../core/test/certificates/support"
import { overBuilt } from "./overBuilt"

/**
 * Certificate files through the built `roda-server`'s BlobStore (BLOB_URL, or its default): on
 * PostgreSQL every process sees the files another made, kept in the database; with
 * `BLOB_URL=s3://…` the bundle loads the AWS SDK and keeps them in the bucket.
 */
const running: Array<BuiltServer> = []
const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  await Promise.all(running.map((server) => server.stop()))
  for (const cleanup of cleanups) await cleanup()
})

/** The built servers' mail (sign-ups are confirmed through the link they send). */
let smtp: Awaited<ReturnType<typeof startSmtp>> | undefined
const mailServer = async () => {
  if (smtp === undefined) {
    smtp = await startSmtp()
    cleanups.push(smtp.close)
  }
  return smtp
}

const start = async (env: Record<string, string> = {}) => {
  const server = await startBuiltServer({ SMTP_URL: (await mailServer()).url, ...env })
  running.push(server)
  return server
}

const over = (server: BuiltServer) => overBuilt(server, mailServer)

/** The file behind a download route (`/pdf`, `/image`): its 302, then the signed link. */
const download = async (server: BuiltServer, path: string, token: string, community: string) => {
  const redirect = await fetch(`${server.base}${path}`, {
    headers: { authorization: `Bearer ${token}`, "x-communityid": community },
    redirect: "manual"
  })
  expect(redirect.status).toBe(302)
  const location = new URL(redirect.headers.get("location")!)
  expect(location.origin).toBe(server.base)
  const file = await fetch(location)
  return { status: file.status, headers: file.headers, bytes: new Uint8Array(await file.arrayBuffer()) }
}

/** A community whose batch of two certificates `server` rendered. */
const renderedBatch = async (server: BuiltServer) => {
  const api = over(server)
  const setup = await certificateCommunity(api, "Arquivos")
  const template = await activeTemplate(api, setup)
  const { batch, certificates } = await issueAndWait(api, setup, template.id, [
    setup.ana.profileId,
    setup.bruno.profileId
  ])
  expect(batch.status).toBe("completed")
  expect(certificates).toHaveLength(2)
  return { setup, certificates: certificates as Array<{ id: string; status: string }> }
}

const blobRows = async () => {
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await db.connect()
  try {
    const { rows } = await db.query<{ key: string; created_at: Date; size: string }>(
      "SELECT key, created_at, size FROM blobs ORDER BY key"
    )
    return rows.map((row) => ({ key: row.key, createdAt: row.created_at.toISOString(), size: Number(row.size) }))
  } finally {
    await db.end()
  }
}

skipWhen(POSTGRES_ONLY).describe("two built servers on one PostgreSQL database", () => {
  it("serve each other's certificate files: a batch rendered by one is downloaded from the other", async () => {
    const first = await start()
    const { setup, certificates } = await renderedBatch(first)
    const owner = { token: setup.ownerUser.token, community: setup.community.id }
    // The first renders a card image too (cached in the store on first use), then stops.
    const card = await download(
      first,
      `/api/certificates/${certificates[0]!.id}/image?variant=card`,
      owner.token,
      owner.community
    )
    expect(card.status).toBe(200)
    await first.stop()
    const stored = await blobRows()
    const keys = stored.map((row) => row.key)
    for (const certificate of certificates) {
      expect(keys).toContain(`certificates/${setup.community.id}/${certificate.id}.pdf`)
    }
    expect(keys).toContain(`certificates/${setup.community.id}/${certificates[0]!.id}-card.png`)

    const second = await start()
    for (const certificate of certificates) {
      const pdf = await download(second, `/api/certificates/${certificate.id}/pdf`, owner.token, owner.community)
      expect(pdf.status).toBe(200)
      expect(pdf.headers.get("content-type")).toBe("application/pdf")
      const row = stored.find((entry) => entry.key.endsWith(`${certificate.id}.pdf`))!
      expect(Number(pdf.headers.get("content-length"))).toBe(row.size)
      expect(pdf.bytes.length).toBe(row.size)
      expect(new TextDecoder().decode(pdf.bytes.subarray(0, 5))).toBe("%PDF-")
    }
    const again = await download(
      second,
      `/api/certificates/${certificates[0]!.id}/image?variant=card`,
      owner.token,
      owner.community
    )
    expect(again.status).toBe(200)
    expect(again.headers.get("content-type")).toBe("image/png")
    expect(Buffer.from(again.bytes).equals(Buffer.from(card.bytes))).toBe(true)
    // Served from the store, not rendered again: the rows are those the first server wrote.
    expect(await blobRows()).toEqual(stored)
    // (Its job worker would render the next suite's batches into the database: processes on one
    // database share their BLOB_URL.)
    await second.stop()
  }, 180_000)
})

describe("the built server with BLOB_URL=s3://…", () => {
  it(
    "keeps certificate files in the bucket (the AWS SDK loaded by the bundle) and serves them from there",
    async () => {
      const s3: S3TestServer = await startS3()
      cleanups.push(s3.stop)
      const server = await start({
        BLOB_URL: `s3://${s3.bucket}/roda-files`,
        AWS_ENDPOINT_URL: s3.endpoint,
        AWS_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey
      })
      const { setup, certificates } = await renderedBatch(server)
      const objects = join(s3.directory, s3.bucket, "roda-files", "certificates", setup.community.id)
      for (const certificate of certificates) {
        expect(existsSync(join(objects, `${certificate.id}.pdf._S3rver_object`))).toBe(true)
        const pdf = await download(
          server,
          `/api/certificates/${certificate.id}/pdf`,
          setup.ownerUser.token,
          setup.community.id
        )
        expect(pdf.status).toBe(200)
        expect(new TextDecoder().decode(pdf.bytes.subarray(0, 5))).toBe("%PDF-")
      }
      expect(readdirSync(objects).length).toBe(2 * 3) // each object with its metadata and md5 files
      expect(server.output()).not.toMatch(/could not start|Cannot find/)
    },
    180_000
  )

  it("refuses a BLOB_URL it cannot use at start-up, naming BLOB_URL and the fix", async () => {
    await expect(start({ BLOB_URL: "ftp://files.example/roda" })).rejects.toThrow(
      /Roda could not start:\s+BLOB_URL: ftp:\/\/files\.example\/roda is not one of s3:\/\/bucket\/prefix, file:\/\/\/absolute\/folder or postgres/
    )
    await expect(start({ BLOB_URL: "s3://roda-files/x" })).rejects.toThrow(
      /AWS_REGION: BLOB_URL=s3:\/\/roda-files\/x needs the bucket.s region/
    )
  })
})
