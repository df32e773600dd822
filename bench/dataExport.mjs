#!/usr/bin/env node
// Issue 56, item 3: a data export of a member with `--posts` (100,000) posts is streamed into the file
// store with bounded memory. A fresh PostgreSQL database (`roda_bench_export`); Roda runs in this
// process from the build (`@roda/core/node`, packages/core/dist), with its job worker on, as it ships.
// The member and their community go through the API; the posts go in with SQL. Then the member asks
// for the export (POST /api/account/export); the job builds the ZIP into the file store (`--blob`:
// `database`, the default, or `folder`) while this process samples `process.memoryUsage()` every 50 ms;
// the export is polled until `ready`. Reported: the time from the request until ready, the peak RSS and
// heap (and their rise over the idle process before the request), the ZIP's size, and, after the
// measurement, that the downloaded ZIP's posts.json holds every post.
//
//   pnpm bench:export [--posts 100000] [--blob database|folder] [--pg postgres://postgres@127.0.0.1:5432] [--keep]
//
// Build first: RODA_SKIP_DTS=1 pnpm --filter @roda/sql-pglite --filter @roda/core build
/* global Request, TextDecoder, setInterval, clearInterval */
import { mkdtempSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { performance } from "node:perf_hooks"
import { fileURLToPath, pathToFileURL } from "node:url"
import pg from "pg"
import { dropDatabase, freshDatabase, option, rodaEnv, runThenCleanUp } from "./harness.mjs"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const opt = option(process.argv.slice(2))
const POSTS = Number(opt("posts", 100000))
const BLOB = String(opt("blob", "database"))
const KEEP = opt("keep", false) === true
const PG = String(opt("pg", "postgres://postgres@127.0.0.1:5432")).replace(/\/$/, "")
const DB = "roda_bench_export"
const DATABASE_URL = `${PG}/${DB}`
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const mb = (bytes) => Number((bytes / 1048576).toFixed(1))

const core = await import(pathToFileURL(join(root, "packages/core/dist/node.js")).href)
const { unzipSync } = createRequire(join(root, "packages/core/package.json"))("fflate")

let roda
let blobDir
const run = async () => {
  await freshDatabase(PG, DB)
  blobDir = mkdtempSync(join(tmpdir(), "roda-bench-export-"))
  roda = core.makeRoda({
    database: { _tag: "Postgres", url: core.secret(DATABASE_URL) },
    options: core.defaultOptions({
      jwtSecret: core.secret(rodaEnv.JWT_SECRET),
      publicBaseUrl: "http://bench.test",
      sandboxWebhookSecret: core.secret(rodaEnv.SANDBOX_WEBHOOK_SECRET),
      blobStore: BLOB === "folder" ? { _tag: "Folder", dir: blobDir } : { _tag: "Database" }
    })
  })
  const call = async (method, path, { token, body } = {}) => {
    const headers = { "content-type": "application/json" }
    if (token) headers.authorization = `Bearer ${token}`
    const response = await roda.handler(
      new Request(`http://bench.test/api${path}`, {
        method,
        headers,
        body: body === undefined ? null : JSON.stringify(body)
      }),
      { clientAddress: "127.0.0.1" }
    )
    const json = await response.json()
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`)
    return json.data
  }

  // Through the API: the member and their community (they are its owner).
  const seedStarted = performance.now()
  const member = await call("POST", "/auth/register", {
    body: { fullName: "Bench Member", email: "export-member@bench.test", password: "Bench-Secret-123" }
  })
  const community = await call("POST", "/communities", { token: member.token, body: { name: "Export Bench" } })
  // With SQL: the posts, a year of them, each about 200 characters.
  const db = new pg.Client({ connectionString: DATABASE_URL })
  db.on("error", () => undefined)
  await db.connect()
  await db.query(
    `INSERT INTO status_posts (id, community_id, author_profile_id, body, created_at, updated_at)
    SELECT md5('export-post-' || k)::uuid, $1, $2,
      'Post ' || k || ': ' || repeat(md5(k::text) || ' ', 6),
      now() - (k || ' minutes')::interval, now() - (k || ' minutes')::interval
    FROM generate_series(1, ${POSTS}) k`,
    [community.id, community.profileId]
  )
  await db.query("ANALYZE")
  await db.end()
  const seedMs = performance.now() - seedStarted

  // The idle process, before the request.
  globalThis.gc?.()
  await sleep(500)
  const idle = process.memoryUsage()
  let peakRss = idle.rss
  let peakHeap = idle.heapUsed
  const sampler = setInterval(() => {
    const now = process.memoryUsage()
    peakRss = Math.max(peakRss, now.rss)
    peakHeap = Math.max(peakHeap, now.heapUsed)
  }, 50)

  const started = performance.now()
  const requested = await call("POST", "/account/export", { token: member.token })
  let status = requested
  while (status.status === "pending" || status.status === "running") {
    await sleep(50)
    status = await call("GET", `/account/exports/${requested.id}`, { token: member.token })
  }
  const exportMs = performance.now() - started
  clearInterval(sampler)
  if (status.status !== "ready") throw new Error(`export ${status.status}`)

  // After the measurement: the file is whole.
  const response = await roda.handler(new Request(status.downloadUrl), { clientAddress: "127.0.0.1" })
  const zip = new Uint8Array(await response.arrayBuffer())
  const entries = unzipSync(zip)
  const posts = entries["posts.json"] === undefined
    ? null
    : JSON.parse(new TextDecoder().decode(entries["posts.json"])).length
  if (posts === null) console.error("posts.json is not in the export (no feature exports posts yet)")
  else if (posts !== POSTS) throw new Error(`posts.json holds ${posts} posts, not ${POSTS}`)

  const result = {
    posts: POSTS,
    blobStore: BLOB,
    seedSeconds: Number((seedMs / 1000).toFixed(1)),
    exportSeconds: Number((exportMs / 1000).toFixed(2)),
    zipMB: mb(status.size),
    downloadedBytes: zip.length,
    files: Object.keys(entries),
    postsInZip: posts,
    idleRssMB: mb(idle.rss),
    peakRssMB: mb(peakRss),
    rssRiseMB: mb(peakRss - idle.rss),
    idleHeapMB: mb(idle.heapUsed),
    peakHeapMB: mb(peakHeap),
    heapRiseMB: mb(peakHeap - idle.heapUsed)
  }
  console.log(JSON.stringify(result, null, 2))
}

await runThenCleanUp(run, async () => {
  await roda?.dispose()
  if (blobDir) rmSync(blobDir, { recursive: true, force: true })
  if (!KEEP) await dropDatabase(PG, DB)
})
