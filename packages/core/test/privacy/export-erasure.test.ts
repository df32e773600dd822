import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Roda } from "../../src/index"
import { controlledClock, runJobs } from "../commerce/subscriptions-support"
import { postStatus } from "../notifications/setup"
import { newCommunity } from "../support/community"
import { expectOk } from "../support/envelope"
import { type Client, client, PASSWORD, startRoda } from "../support/harness"
import { query } from "../support/sql"

/**
 * Issue 56: a member's data exports are personal data too. Erasing the account expires a ready export
 * at once (its link answers 410) and a job removes its ZIP; an export being built fails, and its job
 * then writes no file.
 */
const time = controlledClock(Date.UTC(2030, 4, 6, 12, 0, 0))
let roda: Roda
let api: Client

beforeAll(() => {
  roda = startRoda(
    { publicBaseUrl: "http://roda.test", blobStore: { _tag: "Database" }, runJobs: false },
    { clock: time.clock }
  )
  api = client(roda)
}, 120_000)
afterAll(() => roda?.dispose())

const exportsOf = (accountId: string) =>
  query<{ status: string; blobKey: string | null }>(
    roda,
    (sql) => sql`SELECT status, blob_key FROM data_exports WHERE account_id = ${accountId} ORDER BY created_at`
  )
const storedFiles = (accountId: string) =>
  query<{ key: string }>(roda, (sql) => sql`SELECT key FROM blobs WHERE key LIKE ${`exports/${accountId}/%`}`)

describe("erasing an account with data exports", () => {
  it("expires a ready export (410 on its link, its ZIP removed by a job) and fails one being built", async () => {
    const setup = await newCommunity(api, "Export erasure")
    const member = await setup.addMember("member", "Rita Ramos")
    await postStatus(api, setup, member, "Um post para exportar")
    const first = expectOk(await api.post("/api/account/export", undefined, { token: member.token }), 202)
    await runJobs(roda)
    const ready = expectOk(await api.get(`/api/account/exports/${first.id}`, { token: member.token }))
    expect(ready.status).toBe("ready")
    expect(await storedFiles(member.id)).toHaveLength(1)
    // a second export asked, not built yet
    time.advance(60_000)
    expectOk(await api.post("/api/account/export", undefined, { token: member.token }), 202)

    expectOk(await api.call("DELETE", "/api/account", { token: member.token, body: { password: PASSWORD } }))
    expect((await exportsOf(member.id)).map((row) => [row.status, row.blobKey])).toEqual([
      ["expired", null],
      ["failed", null]
    ])
    const link = await roda.handler(new Request(ready.downloadUrl), { clientAddress: "127.0.0.1" })
    expect(link.status).toBe(410)

    await runJobs(roda)
    expect(await storedFiles(member.id)).toEqual([])
    expect((await exportsOf(member.id)).map((row) => row.status)).toEqual(["expired", "failed"])
  })
})
