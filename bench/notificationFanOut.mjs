#!/usr/bin/env node
// Issue 55, item 2: a post in a space of `--followers` (100,000) followers is accepted in the time of any
// other post, and its `space_post` notifications are written by jobs in batches.
//
// A fresh PostgreSQL database (`roda_bench_fanout`): the built server migrates it, and an owner, a community,
// a section and two feed spaces go through its API ("Seguida" and "Vazia", which nobody follows); the
// members and their follows of "Seguida" go in with SQL. Then:
//  1. the statements of `POST /api/content` in each space (a Roda process of its own with tracing on,
//     `packages/core/test/notifications/bench-child.ts count`);
//  2. the post's latency in each space, `--posts` (50) each, alternating, one client over keep-alive HTTP,
//     to a Roda process with no job runner (`bench-child.ts serve`): the fan-out jobs stay queued, so
//     what is measured is the request alone; the queued jobs are deleted afterwards;
//  3. the fan-out: the built server (jobs on, as it ships) takes one post in "Seguida"; the time from
//     sending it until all its `space_post` notifications are written (counted every 100 ms) and until
//     its last job is done, and the post's latency while nothing else runs.
//
//   node bench/notificationFanOut.mjs [--followers 100000] [--posts 50] [--timeout 1200] [--pg postgres://postgres@127.0.0.1:5432] [--keep]
import { spawn } from "node:child_process"
import { mkdirSync } from "node:fs"
import http from "node:http"
import { dirname, join, resolve } from "node:path"
import { performance } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { dropDatabase, freshDatabase, rodaEnv, runThenCleanUp, startRoda, stop } from "./harness.mjs"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const args = process.argv.slice(2)
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`)
  return i < 0 ? fallback : args[i + 1]
}
const FOLLOWERS = Number(opt("followers", 100000))
const POSTS = Number(opt("posts", 50))
const KEEP = args.includes("--keep")
const PG = String(opt("pg", "postgres://postgres@127.0.0.1:5432")).replace(/\/$/, "")
const DB = "roda_bench_fanout"
const DATABASE_URL = `${PG}/${DB}`
const dir = String(opt("dir", "/tmp/roda-bench-fanout"))
const mainJs = opt("roda-main", join(root, "packages/http-node/dist/main.js"))
mkdirSync(dir, { recursive: true })
const PORT = 4331
const CHILD_PORT = 4332
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
/** One request over the keep-alive agent: the answer's `data` and the time it took (ms). */
const call = (port, method, path, { token, community, body } = {}) =>
  new Promise((resolveCall, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const headers = { "content-type": "application/json" }
    if (payload !== undefined) headers["content-length"] = Buffer.byteLength(payload)
    if (token) headers.authorization = `Bearer ${token}`
    if (community) headers["x-communityid"] = community
    const began = performance.now()
    const request = http.request(
      { host: "127.0.0.1", port, method, path: `/api${path}`, headers, agent },
      (response) => {
        const chunks = []
        response.on("data", (c) => chunks.push(c))
        response.on("end", () => {
          const ms = performance.now() - began
          const json = JSON.parse(Buffer.concat(chunks).toString() || "{}")
          if (response.statusCode >= 300 || json.success !== true) {
            reject(new Error(`${method} ${path}: ${response.statusCode} ${JSON.stringify(json)}`))
          } else resolveCall({ data: json.data, ms })
        })
      }
    )
    request.on("error", reject)
    request.end(payload)
  })

const quantile = (xs, q) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]
}
const summary = (xs) => ({
  n: xs.length,
  median: Number(quantile(xs, 0.5).toFixed(2)),
  p99: Number(quantile(xs, 0.99).toFixed(2)),
  max: Number(Math.max(...xs).toFixed(2))
})

const child = (phaseArgs) =>
  spawn(process.execPath, ["--import", "tsx", "test/notifications/bench-child.ts", ...phaseArgs], {
    cwd: join(root, "packages/core"),
    env: { ...process.env, DATABASE_URL, JWT_SECRET: rodaEnv.JWT_SECRET, LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "inherit"]
  })
const output = (process_) =>
  new Promise((settle, reject) => {
    let text = ""
    process_.stdout.on("data", (c) => (text += c))
    process_.on("exit", (code) => (code === 0 ? settle(text) : reject(new Error(`child exited ${code}`))))
  })

let server
let serving
const run = async () => {
  await freshDatabase(PG, DB)
  const db = new pg.Client({ connectionString: DATABASE_URL })
  db.on("error", () => undefined)
  server = await startRoda({ mainJs, dir, label: "fanout", port: PORT, extra: { DATABASE_URL } })
  await db.connect()
  const q = async (text, values) => (await db.query(text, values)).rows

  // Through the API: the owner (who posts), the community, a section, the two feed spaces.
  const seedStarted = performance.now()
  const owner = (await call(PORT, "POST", "/auth/register", {
    body: { fullName: "Bench Owner", email: "fanout-owner@bench.test", password: "Bench-Secret-123" }
  })).data
  const community = (await call(PORT, "POST", "/communities", {
    token: owner.token,
    body: { name: "Fan-out Bench", slug: "fanout-bench" }
  })).data.id
  const staff = { token: owner.token, community }
  const section =
    (await call(PORT, "POST", "/sections", { ...staff, body: { title: "Geral", visibility: "public" } })).data
  const space = async (title) =>
    (await call(PORT, "POST", "/spaces", {
      ...staff,
      body: { sectionId: section.id, title, module: "feed", visibility: "public" }
    })).data.id
  const followed = await space("Seguida")
  const empty = await space("Vazia")
  // With SQL: the members (accounts and profiles as Roda makes them) and their follows of "Seguida".
  await q(`DELETE FROM space_follows WHERE space_id = $1`, [empty])
  await q(`INSERT INTO accounts (id, email, full_name, password_hash, created_at, updated_at)
    SELECT md5('fanout-acct-' || k)::uuid, 'follower-' || k || '@bench.test', 'Seguidor ' || k, NULL,
      now() - interval '1 year', now() - interval '1 year'
    FROM generate_series(1, ${FOLLOWERS}) k`)
  await q(
    `INSERT INTO profiles (id, community_id, account_id, role, full_name, created_at, updated_at)
    SELECT md5('fanout-prof-' || k)::uuid, $1, md5('fanout-acct-' || k)::uuid, 'member', 'Seguidor ' || k,
      now() - interval '1 year', now() - interval '1 year'
    FROM generate_series(1, ${FOLLOWERS}) k`,
    [community]
  )
  await q(
    `INSERT INTO space_follows (community_id, space_id, profile_id, created_at)
    SELECT $1, $2, md5('fanout-prof-' || k)::uuid, now() - interval '1 day' FROM generate_series(1, ${FOLLOWERS}) k`,
    [
      community,
      followed
    ]
  )
  await q(`VACUUM ANALYZE`)
  const seeded = (await q(
    `SELECT
      (SELECT count(*)::int FROM space_follows WHERE space_id = $1) AS followed,
      (SELECT count(*)::int FROM space_follows WHERE space_id = $2) AS empty`,
    [followed, empty]
  ))[0]
  const seedSeconds = (performance.now() - seedStarted) / 1000
  console.log(`seeded: ${JSON.stringify(seeded)} in ${seedSeconds.toFixed(1)} s`)
  await stop(server)

  // 1. Statements per post, with and without followers (no job runner).
  const countText = await output(child(["count", owner.token, community, followed, empty, "3"]))
  const counts = JSON.parse(/^RESULT (.*)$/m.exec(countText)[1])
  console.log(`statements: ${JSON.stringify(counts)}`)

  // 2. Latency, alternating the two spaces, one client, no job runner.
  serving = child(["serve", String(CHILD_PORT)])
  await new Promise((ready) => {
    let text = ""
    serving.stdout.on("data", (c) => {
      text += c
      if (/^SERVING$/m.test(text)) ready()
    })
  })
  const latency = { empty: [], followed: [] }
  for (let i = 0; i < 5; i++) {
    await call(CHILD_PORT, "POST", "/content", { ...staff, body: { spaceId: empty, title: `Aquece ${i}`, body: "." } })
  }
  for (let i = 0; i < POSTS; i++) {
    for (
      const [name, spaceId] of i % 2 === 0
        ? [["empty", empty], ["followed", followed]]
        : [["followed", followed], ["empty", empty]]
    ) {
      const { ms } = await call(CHILD_PORT, "POST", "/content", {
        ...staff,
        body: { spaceId, title: `Medida ${i}`, body: "Uma publicação para medir a latência." }
      })
      latency[name].push(ms)
    }
  }
  await stop(serving)
  const queued =
    (await q(`DELETE FROM jobs WHERE kind = 'notifications.spacePost' AND status = 'queued' RETURNING 1`)).length
  console.log(
    `latency: empty ${JSON.stringify(summary(latency.empty))}, followed ${
      JSON.stringify(summary(latency.followed))
    }; ${queued} queued fan-out jobs deleted`
  )

  // 3. The fan-out, in the built server with its job runner.
  server = await startRoda({ mainJs, dir, label: "fanout-jobs", port: PORT, extra: { DATABASE_URL } })
  for (let i = 0; i < 5; i++) {
    await call(PORT, "POST", "/content", { ...staff, body: { spaceId: empty, title: `Aquece ${i}`, body: "." } })
  }
  await sleep(2000)
  const began = performance.now()
  const postedWall = new Date()
  const { data: post, ms: postMs } = await call(PORT, "POST", "/content", {
    ...staff,
    body: { spaceId: followed, title: "A publicação de cem mil", body: "Para todos os seguidores." }
  })
  let written = 0
  let allWrittenMs
  let firstMs
  const deadline = began + Number(opt("timeout", 1200)) * 1000
  while (performance.now() < deadline) {
    written = (await q(`SELECT count(*)::int AS n FROM notifications WHERE subject_id = $1 AND kind = 'space_post'`, [
      post.id
    ]))[0].n
    if (written > 0 && firstMs === undefined) firstMs = performance.now() - began
    if (written >= FOLLOWERS) {
      allWrittenMs = performance.now() - began
      break
    }
    await sleep(100)
  }
  let jobsDoneMs
  while (performance.now() < deadline) {
    const open =
      (await q(`SELECT count(*)::int AS n FROM jobs WHERE kind = 'notifications.spacePost' AND status = 'queued'`))[0].n
    if (open === 0) {
      jobsDoneMs = performance.now() - began
      break
    }
    await sleep(100)
  }
  const jobs = (await q(
    `SELECT count(*)::int AS n, count(*) FILTER (WHERE status = 'done')::int AS done,
      sum(attempts)::int AS attempts, extract(epoch FROM max(finished_at) - min(created_at)) * 1000 AS span_ms
    FROM jobs WHERE kind = 'notifications.spacePost' AND payload->'subject'->>'id' = $1`,
    [post.id]
  ))[0]
  const timing = (await q(
    `SELECT extract(epoch FROM max(created_at) - min(created_at)) * 1000 AS ms
    FROM notifications WHERE subject_id = $1`,
    [post.id]
  ))[0]
  // Each batch's time: from the end of the batch before (sending the post, for the first) to its own
  // end (`finished_at`); a job's `created_at` is the start of the transaction that queued it, not its end.
  const batches = (await q(
    `SELECT extract(epoch FROM finished_at - coalesce(lag(finished_at) OVER (ORDER BY finished_at), $2)) * 1000 AS ms
    FROM jobs WHERE kind = 'notifications.spacePost' AND payload->'subject'->>'id' = $1 AND status = 'done'
    ORDER BY finished_at`,
    [post.id, postedWall]
  )).map((r) => Number(r.ms))
  const tenth = Math.max(1, Math.floor(batches.length / 10))
  const batchMs = {
    first: summary(batches.slice(0, tenth)),
    middle: summary(
      batches.slice(
        Math.floor(batches.length / 2) - Math.ceil(tenth / 2),
        Math.floor(batches.length / 2) + Math.ceil(tenth / 2)
      )
    ),
    last: summary(batches.slice(-tenth))
  }
  const plan = (await q(`SELECT reltuples::bigint AS tuples FROM pg_class WHERE relname = 'notifications'`))[0]
  await db.end()
  const result = {
    database: "postgres",
    followers: FOLLOWERS,
    statements: {
      empty: counts.empty.map((c) => c.n),
      followed: counts.followed.map((c) => c.n),
      notifyFollowers: { empty: counts.empty.map((c) => c.notify), followed: counts.followed.map((c) => c.notify) },
      transactions: {
        empty: counts.empty.map((c) => c.transactions),
        followed: counts.followed.map((c) => c.transactions)
      }
    },
    latencyMs: { empty: summary(latency.empty), followed: summary(latency.followed) },
    fanOut: {
      postMs: Number(postMs.toFixed(2)),
      written,
      firstWrittenMs: firstMs === undefined ? null : Math.round(firstMs),
      allWrittenMs: allWrittenMs === undefined ? null : Math.round(allWrittenMs),
      jobsDoneMs: jobsDoneMs === undefined ? null : Math.round(jobsDoneMs),
      perSecond: allWrittenMs === undefined ? null : Math.round(written / (allWrittenMs / 1000)),
      jobs: jobs.n,
      jobsDone: jobs.done,
      attempts: jobs.attempts,
      firstToLastBatchMs: Math.round(Number(timing.ms)),
      batchMs,
      notificationsTuplesInStats: Number(plan.tuples)
    },
    seedSeconds: Number(seedSeconds.toFixed(1))
  }
  console.log(JSON.stringify(result, null, 2))
}

await runThenCleanUp(run, async () => {
  if (serving) await stop(serving)
  if (server) await stop(server)
  if (!KEEP) await dropDatabase(PG, DB)
})
