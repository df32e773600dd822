import { Effect, Option } from "effect"
import { unzipSync } from "fflate"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSmtp, textOf } from "../../../../testing/smtp"
import type { Roda } from "../../src/index"
import { BlobStore } from "../../src/platform/BlobStore"
import { exportBlobKey } from "../../src/privacy/exportJob"
import { PersonalData } from "../../src/privacy/PersonalData"
import { controlledClock, runJobs, signIn } from "../commerce/subscriptions-support"
import { postStatus } from "../notifications/setup"
import { newCommunity } from "../support/community"
import { expectError, expectOk, UUID } from "../support/envelope"
import { type Client, client, register, startRoda } from "../support/harness"
import { query } from "../support/sql"

/**
 * Issue 56, item 3: a member exports their data. The request answers 202 and queues a job; the job
 * streams a ZIP (README.txt and one JSON file per `PersonalData.files` entry) into the blob store
 * (here the database's, so that files can be counted), marks the export ready and e-mails a signed
 * link valid 7 days; the link downloads the ZIP; the file is removed when the export expires.
 */
const DAY = 24 * 3_600_000
const time = controlledClock(Date.UTC(2030, 4, 6, 12, 0, 0))
let smtp: Awaited<ReturnType<typeof startSmtp>>
let roda: Roda
let api: Client

beforeAll(async () => {
  smtp = await startSmtp()
  roda = startRoda(
    { smtpUrl: smtp.url, publicBaseUrl: "http://roda.test", blobStore: { _tag: "Database" }, runJobs: false },
    { clock: time.clock }
  )
  api = client(roda)
}, 120_000)
afterAll(async () => {
  await roda?.dispose()
  await smtp?.close()
})

const requestExport = (user: { readonly token: string }) =>
  api.post("/api/account/export", undefined, { token: user.token })
const statusOf = (user: { readonly token: string }, id: string) =>
  api.get(`/api/account/exports/${id}`, { token: user.token })
/** GET of a download link as a browser would follow it: no token, no community. */
const download = (url: string) => roda.handler(new Request(url), { clientAddress: "127.0.0.1" })

/** Waits until the outbox has handed every e-mail to the relay. */
const delivered = async () => {
  for (let i = 0; i < 200; i++) {
    const waiting = await query<{ n: number }>(
      roda,
      (sql) => sql`SELECT count(*)::int AS n FROM outbox WHERE sent_at IS NULL`
    )
    if (waiting[0]!.n === 0) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error("the outbox was not delivered")
}
const exportMailsTo = (email: string) =>
  smtp.received.filter((mail) => mail.to.includes(email) && textOf(mail).includes("/api/account/exports/"))
const linkIn = (text: string) =>
  /http:\/\/roda\.test\/api\/account\/exports\/[0-9a-f-]+\/download\?token=[A-Za-z0-9_.-]+/.exec(text)?.[0]

/** The names of the export files of this Roda, in order. */
const fileNames = () => roda.runtime.runPromise(Effect.map(PersonalData, (data) => data.files.map((file) => file.name)))
/** The stored blobs and chunks of an account's exports (database store). */
const storedFiles = (accountId: string) =>
  query<{ key: string; chunks: number }>(
    roda,
    (sql) =>
      sql`SELECT b.key, (SELECT count(*)::int FROM blob_chunks c WHERE c.blob_id = b.id) AS chunks
      FROM blobs b WHERE b.key LIKE ${`exports/${accountId}/%`}`
  )
const orphanChunks = () =>
  query<{ n: number }>(
    roda,
    (sql) =>
      sql`SELECT count(*)::int AS n FROM blob_chunks c WHERE NOT EXISTS (SELECT 1 FROM blobs b WHERE b.id = c.blob_id)`
  )

/** A member with two posts in a community: someone with data to export. */
const memberWithPosts = async (name: string) => {
  const setup = await newCommunity(api, `Export ${name}`)
  const member = await setup.addMember("member", name)
  await postStatus(api, setup, member, `Primeiro post de ${name}`)
  await postStatus(api, setup, member, `Segundo post de ${name}`)
  return { setup, member }
}

describe("exporting one's data", () => {
  let sam: Awaited<ReturnType<typeof memberWithPosts>>
  beforeAll(async () => {
    sam = await memberWithPosts("Sam Souza")
  }, 60_000)

  it("requests (202), builds the ZIP by a job, e-mails a 7-day link, and downloads it", async () => {
    const requested = expectOk(await requestExport(sam.member), 202)
    expect(requested).toMatchObject({
      status: "pending",
      downloadUrl: null,
      readyAt: null,
      expiresAt: null,
      size: null
    })
    expect(requested.id).toMatch(UUID)
    expect(expectOk(await statusOf(sam.member, requested.id)).status).toBe("pending")

    expect(await runJobs(roda)).toBeGreaterThan(0)
    const ready = expectOk(await statusOf(sam.member, requested.id))
    expect(ready.status).toBe("ready")
    expect(ready.size).toBeGreaterThan(0)
    expect(Date.parse(ready.expiresAt) - Date.parse(ready.readyAt)).toBe(7 * DAY)
    expect(ready.downloadUrl).toMatch(
      new RegExp(`^http://roda\\.test/api/account/exports/${requested.id}/download\\?token=`)
    )

    await delivered()
    const mails = exportMailsTo(sam.member.email)
    expect(mails).toHaveLength(1)
    expect(linkIn(textOf(mails[0]!))).toBe(ready.downloadUrl)

    const response = await download(ready.downloadUrl)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("application/zip")
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="roda-data-export-2030-05-06\.zip"$/
    )
    expect(response.headers.get("cache-control")).toBe("private, no-store")
    const bytes = new Uint8Array(await response.arrayBuffer())
    expect(bytes.length).toBe(ready.size)
    const entries = unzipSync(bytes)
    const names = await fileNames()
    expect(Object.keys(entries)).toEqual(["README.txt", ...names])
    const readme = new TextDecoder().decode(entries["README.txt"])
    expect(readme).toContain("7 days")
    expect(readme).toContain("2030-05-06T12:00:00.000Z")
    const files = await roda.runtime.runPromise(Effect.map(PersonalData, (data) => data.files))
    for (const file of files) {
      expect(readme).toContain(`- ${file.name}: ${file.describes}`)
      expect(Array.isArray(JSON.parse(new TextDecoder().decode(entries[file.name])))).toBe(true)
    }
    // the member's own posts are in posts.json, once the social feature exports them
    if (entries["posts.json"] !== undefined) {
      const posts = JSON.stringify(JSON.parse(new TextDecoder().decode(entries["posts.json"])))
      expect(posts).toContain("Primeiro post de Sam Souza")
      expect(posts).toContain("Segundo post de Sam Souza")
    }
    expect(await storedFiles(sam.member.id)).toEqual([{
      key: exportBlobKey(sam.member.id, requested.id),
      chunks: expect.any(Number)
    }])
  })

  it("needs the account's token (401), and another account's export is not found (404)", async () => {
    const [first] = await query<{ id: string }>(
      roda,
      (sql) => sql`SELECT id FROM data_exports WHERE account_id = ${sam.member.id} LIMIT 1`
    )
    expect((await api.post("/api/account/export")).status).toBe(401)
    expect((await api.get(`/api/account/exports/${first!.id}`)).status).toBe(401)
    const other = await register(api, "Otto Outro")
    expectError(await statusOf(other, first!.id), 404, "Exportação não encontrada.")
    expectError(await statusOf(other, "00000000-0000-7000-8000-000000000000"), 404)
    expect((await statusOf(other, "not-a-uuid")).status).toBe(400)
  })

  it("refuses a tampered or foreign token (404) and an expired link (410), then removes the file", async () => {
    const [row] = await query<{ id: string }>(
      roda,
      (sql) => sql`SELECT id FROM data_exports WHERE account_id = ${sam.member.id} AND status = 'ready' LIMIT 1`
    )
    const ready = expectOk(await statusOf(sam.member, row!.id))
    const url = new URL(ready.downloadUrl)
    const token = url.searchParams.get("token")!
    const [claims, mac] = token.split(".")
    // another expiry under the same MAC
    const forged = Buffer.from(JSON.stringify({ e: row!.id, x: Date.parse(ready.expiresAt) + 30 * DAY })).toString(
      "base64url"
    )
    for (const bad of [`${forged}.${mac}`, `${claims}.${mac!.slice(0, -2)}AA`, "", "abc", `${claims}.${mac}.x`]) {
      const tampered = new URL(url)
      tampered.searchParams.set("token", bad)
      const response = await download(tampered.href)
      expect(response.status, bad).toBe(404)
    }
    // the right token on another export's path
    const otherPath = new URL(url.href.replace(row!.id, "00000000-0000-7000-8000-000000000000"))
    expect((await download(otherPath.href)).status).toBe(404)

    time.advance(7 * DAY + 1_000)
    const expired = await download(ready.downloadUrl)
    expect(expired.status).toBe(410)
    expect((await expired.json()).message).toBe("Este link de download expirou. Peça uma nova exportação.")

    await runJobs(roda)
    sam.member = { ...sam.member, token: await signIn(api, sam.member.email) }
    const after = expectOk(await statusOf(sam.member, row!.id))
    expect(after).toMatchObject({ status: "expired", downloadUrl: null })
    expect(await storedFiles(sam.member.id)).toEqual([])
    expect((await orphanChunks())[0]!.n).toBe(0)
  })
})

describe("one export at a time, three a day", () => {
  it("answers the export under way again (202, same id, one job), then 429 after three in 24 hours", async () => {
    const { member } = await memberWithPosts("Rita Repete")
    const first = expectOk(await requestExport(member), 202)
    const again = expectOk(await requestExport(member), 202)
    expect(again.id).toBe(first.id)
    const [jobs] = await query<{ n: number }>(
      roda,
      (sql) =>
        sql`SELECT count(*)::int AS n FROM jobs WHERE kind = 'privacy.export' AND payload->>'exportId' = ${first.id}`
    )
    expect(jobs!.n).toBe(1)
    const [open] = await query<{ n: number }>(
      roda,
      (sql) => sql`SELECT count(*)::int AS n FROM data_exports WHERE account_id = ${member.id}`
    )
    expect(open!.n).toBe(1)
    await runJobs(roda)

    time.advance(60_000)
    const second = expectOk(await requestExport(member), 202)
    expect(second.id).not.toBe(first.id)
    await runJobs(roda)
    time.advance(60_000)
    expectOk(await requestExport(member), 202)
    await runJobs(roda)
    time.advance(60_000)
    const refused = await requestExport(member)
    expectError(refused, 429)
    expect(refused.body.message).toBe("Você pediu muitas exportações nas últimas 24 horas. Tente novamente mais tarde.")
    // the first of the three turns 24 hours old in 24 h less the 3 minutes since
    expect(Number(refused.headers.get("retry-after"))).toBe(DAY / 1000 - 180)

    time.advance(DAY - 180_000 + 1_000)
    const member2 = { ...member, token: await signIn(api, member.email) }
    expectOk(await requestExport(member2), 202)
  })

  it("two requests at once make one export", async () => {
    const { member } = await memberWithPosts("Gêmeo Gomes")
    const [a, b] = await Promise.all([requestExport(member), requestExport(member)])
    expect(expectOk(a, 202).id).toBe(expectOk(b, 202).id)
    await runJobs(roda)
  })
})

describe("a retried job", () => {
  it("writes the same file again: one file, the export ready once, the download whole", async () => {
    const { member } = await memberWithPosts("Tito Tenta")
    const requested = expectOk(await requestExport(member), 202)
    await runJobs(roda)
    const key = exportBlobKey(member.id, requested.id)
    expect(await storedFiles(member.id)).toHaveLength(1)
    // the process died after writing the file, before the job was marked done: the job runs again
    await query(
      roda,
      (sql) =>
        sql`UPDATE data_exports SET status = 'running', ready_at = NULL, expires_at = NULL WHERE id = ${requested.id}`
    )
    await query(
      roda,
      (sql) =>
        sql`UPDATE jobs SET status = 'queued', finished_at = NULL, attempts = 1, run_at = ${new Date(time.now())}
        WHERE kind = 'privacy.export' AND key = ${requested.id}`
    )
    await query(roda, (sql) => sql`DELETE FROM jobs WHERE kind = 'privacy.exportExpiry' AND key = ${requested.id}`)
    expect(await runJobs(roda)).toBe(1)

    const stored = await storedFiles(member.id)
    expect(stored.map((file) => file.key)).toEqual([key])
    expect((await orphanChunks())[0]!.n).toBe(0)
    const ready = expectOk(await statusOf(member, requested.id))
    expect(ready.status).toBe("ready")
    const blob = await roda.runtime.runPromise(Effect.flatMap(BlobStore, (blobs) => blobs.get(key)))
    expect(Option.getOrThrow(blob).size).toBe(ready.size)
    const response = await download(ready.downloadUrl)
    const entries = unzipSync(new Uint8Array(await response.arrayBuffer()))
    expect(Object.keys(entries)).toEqual(["README.txt", ...(await fileNames())])
    const [expiries] = await query<{ n: number }>(
      roda,
      (sql) => sql`SELECT count(*)::int AS n FROM jobs WHERE kind = 'privacy.exportExpiry' AND key = ${requested.id}`
    )
    expect(expiries!.n).toBe(1)
  })

  it("its last failed attempt marks the export failed, and the next request may start again", async () => {
    const { member } = await memberWithPosts("Fábio Falha")
    const requested = expectOk(await requestExport(member), 202)
    await query(
      roda,
      (sql) => sql`UPDATE jobs SET attempts = max_attempts - 1 WHERE kind = 'privacy.export' AND key = ${requested.id}`
    )
    // the file store cannot write (its table is away for the moment): the last attempt fails
    await query(roda, (sql) => sql`ALTER TABLE blobs RENAME TO blobs_away`)
    try {
      await runJobs(roda)
    } finally {
      await query(roda, (sql) => sql`ALTER TABLE blobs_away RENAME TO blobs`)
    }
    expect(expectOk(await statusOf(member, requested.id))).toMatchObject({ status: "failed", downloadUrl: null })
    const [job] = await query<{ status: string }>(
      roda,
      (sql) => sql`SELECT status FROM jobs WHERE kind = 'privacy.export' AND key = ${requested.id}`
    )
    expect(job!.status).toBe("failed")
    expect(await storedFiles(member.id)).toEqual([])
    // a failed export is not under way and does not count against the cap
    const next = expectOk(await requestExport(member), 202)
    expect(next.id).not.toBe(requested.id)
    await runJobs(roda)
    expect(expectOk(await statusOf(member, next.id)).status).toBe("ready")
  })
})
