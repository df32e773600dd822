#!/usr/bin/env node
// Issue 55, item 3: `--streams` (2,000) open notification streams (`GET /api/notifications/stream`) on one
// server process, each receiving its notification within 1 s of the write, written by another process
// (PostgreSQL: `pg_notify` in the writer's transaction, one `LISTEN` connection in the streams' process);
// and idle streams cost no statement.
//
// A fresh PostgreSQL database (`roda_bench_streams`). Built server A (port 4341) migrates it; an owner,
// a community, a section and a feed space go through its API; `--members` members (as many as streams
// unless given: each member then holds streams / members streams), their sign-in sessions and their follows
// of the space go in with SQL, and their tokens are signed here with the servers' JWT secret (HS256,
// as Roda signs them: `sub`, `email`, `sid`, `iat`, `exp`). Built server B (port 4342) on the same
// database is the writer. Then:
//  1. idle: `pg_stat_database` (transactions committed, rows returned) and the scans of the
//     `notifications` table over `--idle` (30) seconds with no stream open, then again with all open
//     (each window starts 11 s after the last change, all streams answered: PostgreSQL flushes an idle
//     backend's counters at most every 10 s; Roda sends a stream's head with its first bytes, the
//     first heartbeat when nothing is written);
//  2. mentions: the owner posts on B `POST /api/status` naming 50 members each (the most a post notifies
//     by mention) until every member is named once, one post after the other; each stream's delay is from
//     sending the post that named its member to the event's arrival;
//  3. fan-out: one `POST /api/content` on B in the space every member follows; B's jobs write the
//     `space_post` notifications in batches of 1,000 (each batch wakes every stream of the community);
//     each stream's delay is from sending the post, and from the notification's `createdAt`.
// Every stream must receive exactly its own notifications; node's `http` client, one socket a stream.
//
//   node bench/notificationStreams.mjs [--streams 2000] [--members 2000] [--idle 30] [--history 20] [--pg postgres://postgres@127.0.0.1:5432] [--keep]
import { createHmac } from "node:crypto"
import { mkdirSync } from "node:fs"
import http from "node:http"
import { dirname, join, resolve } from "node:path"
import { performance } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { backendCpu, cpuMs, dropDatabase, freshDatabase, rodaEnv, runThenCleanUp, startRoda, stop } from "./harness.mjs"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const args = process.argv.slice(2)
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`)
  return i < 0 ? fallback : args[i + 1]
}
const STREAMS = Number(opt("streams", 2000))
const MEMBERS = Number(opt("members", STREAMS))
const IDLE = Number(opt("idle", 30))
const KEEP = args.includes("--keep")
/** Past (read) notifications in each member's inbox before the run. */
const HISTORY = Number(opt("history", 20))
const PG = String(opt("pg", "postgres://postgres@127.0.0.1:5432")).replace(/\/$/, "")
const DB = "roda_bench_streams"
const DATABASE_URL = `${PG}/${DB}`
const dir = String(opt("dir", "/tmp/roda-bench-streams"))
const mainJs = opt("roda-main", join(root, "packages/http-node/dist/main.js"))
mkdirSync(dir, { recursive: true })
const PORT_A = 4341
const PORT_B = 4342
const MENTIONS = 50
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
/** CPU (ms) the database's backends spent since `before` (a `backendCpu` reading), the gone ones not counted. */
const backendsSince = async (before) => {
  const after = await backendCpu(PG, DB)
  let ms = 0
  for (const [pid, cpu] of after) ms += cpu - (before.get(pid) ?? 0)
  return Math.round(ms)
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 })
/** One JSON request: the answer's `data`, when it was sent and when answered (performance.now()). */
const call = (port, method, path, { token, community, body } = {}) =>
  new Promise((resolveCall, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const headers = { "content-type": "application/json" }
    if (payload !== undefined) headers["content-length"] = Buffer.byteLength(payload)
    if (token) headers.authorization = `Bearer ${token}`
    if (community) headers["x-communityid"] = community
    const sentAt = performance.now()
    const request = http.request(
      { host: "127.0.0.1", port, method, path: `/api${path}`, headers, agent },
      (response) => {
        const chunks = []
        response.on("data", (c) => chunks.push(c))
        response.on("end", () => {
          const json = JSON.parse(Buffer.concat(chunks).toString() || "{}")
          if (response.statusCode >= 300 || json.success !== true) {
            reject(new Error(`${method} ${path}: ${response.statusCode} ${JSON.stringify(json)}`))
          } else resolveCall({ data: json.data, sentAt, answeredAt: performance.now() })
        })
      }
    )
    request.on("error", reject)
    request.end(payload)
  })

const b64 = (value) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url")
/** An HS256 token as Roda issues it at sign-in. */
const sign = (claims) => {
  const head = `${b64({ alg: "HS256", typ: "JWT" })}.${b64(claims)}`
  return `${head}.${createHmac("sha256", rodaEnv.JWT_SECRET).update(head).digest("base64url")}`
}

const quantile = (xs, q) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]
}
const summary = (xs) =>
  xs.length === 0 ? { n: 0 } : {
    n: xs.length,
    median: Math.round(quantile(xs, 0.5)),
    p99: Math.round(quantile(xs, 0.99)),
    max: Math.round(Math.max(...xs)),
    within1s: xs.filter((x) => x <= 1000).length
  }

/**
 * Opens one stream; its events (`notification`: the parsed item and the arrival time) and heartbeats
 * are recorded on the answered object. The wall clock (`Date.now()`) is kept with each arrival, to
 * compare with the notification's `createdAt`.
 */
const streamAgent = new http.Agent({ keepAlive: true, maxSockets: Infinity })
const open = (member) =>
  new Promise((opened, reject) => {
    const stream = { member, events: [], heartbeats: 0, ended: false, status: 0, sentAt: 0, headersMs: undefined }
    const request = http.request({
      host: "127.0.0.1",
      port: PORT_A,
      method: "GET",
      path: "/api/notifications/stream",
      agent: streamAgent,
      headers: {
        authorization: `Bearer ${member.token}`,
        "x-communityid": member.community,
        accept: "text/event-stream"
      }
    }, (response) => {
      stream.status = response.statusCode
      stream.headersMs = performance.now() - stream.sentAt
      if (response.statusCode !== 200) return response.resume()
      let buffer = ""
      response.setEncoding("utf8")
      response.on("data", (text) => {
        const arrivedAt = performance.now()
        const wall = Date.now()
        buffer += text
        let end
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          if (block.startsWith(":")) {
            stream.heartbeats++
            continue
          }
          const data = block.split("\n").find((line) => line.startsWith("data: "))
          if (data) stream.events.push({ item: JSON.parse(data.slice(6)), arrivedAt, wall })
        }
      })
      response.on("end", () => (stream.ended = true))
      response.on("error", () => (stream.ended = true))
    })
    stream.close = () => request.destroy()
    // Answered once the request is sent: Roda sends the answer's head with its first bytes (a
    // notification or the first heartbeat), so waiting for it would wait for the heartbeat.
    request.on("finish", () => opened(stream))
    request.on("error", (e) => (stream.sentAt ? (stream.ended = true) : reject(e)))
    stream.sentAt = performance.now()
    request.end()
  })

let serverA
let serverB
let streams = []
const run = async () => {
  await freshDatabase(PG, DB)
  const db = new pg.Client({ connectionString: DATABASE_URL })
  db.on("error", () => undefined)
  serverA = await startRoda({ mainJs, dir, label: "streams-a", port: PORT_A, extra: { DATABASE_URL } })
  await db.connect()
  const q = async (text, values) => (await db.query(text, values)).rows

  const owner = (await call(PORT_A, "POST", "/auth/register", {
    body: { fullName: "Bench Owner", email: "streams-owner@bench.test", password: "Bench-Secret-123" }
  })).data
  const community = (await call(PORT_A, "POST", "/communities", {
    token: owner.token,
    body: { name: "Streams Bench", slug: "streams-bench" }
  })).data.id
  const staff = { token: owner.token, community }
  const section =
    (await call(PORT_A, "POST", "/sections", { ...staff, body: { title: "Geral", visibility: "public" } })).data
  const space = (await call(PORT_A, "POST", "/spaces", {
    ...staff,
    body: { sectionId: section.id, title: "Avisos", module: "feed", visibility: "public" }
  })).data.id
  await q(`INSERT INTO accounts (id, email, full_name, password_hash, created_at, updated_at)
    SELECT md5('streams-acct-' || k)::uuid, 'member-' || k || '@bench.test', 'Membro ' || k, NULL, now(), now()
    FROM generate_series(1, ${MEMBERS}) k`)
  await q(
    `INSERT INTO auth_sessions (id, account_id) SELECT md5('streams-session-' || k)::uuid, md5('streams-acct-' || k)::uuid
    FROM generate_series(1, ${MEMBERS}) k`
  )
  await q(
    `INSERT INTO profiles (id, community_id, account_id, role, full_name, created_at, updated_at)
    SELECT md5('streams-prof-' || k)::uuid, $1, md5('streams-acct-' || k)::uuid, 'member', 'Membro ' || k, now(), now()
    FROM generate_series(1, ${MEMBERS}) k`,
    [community]
  )
  const rows = await q(`SELECT md5('streams-prof-' || k) AS profile, md5('streams-acct-' || k) AS account,
      'member-' || k || '@bench.test' AS email, md5('streams-session-' || k) AS sid
    FROM generate_series(1, ${MEMBERS}) k ORDER BY k`)
  await q(
    `INSERT INTO space_follows (community_id, space_id, profile_id, created_at)
    SELECT $1, $2, md5('streams-prof-' || k)::uuid, now() - interval '1 day' FROM generate_series(1, ${MEMBERS}) k`,
    [
      community,
      space
    ]
  )
  // A community that lives has a history: each member's inbox holds `--history` read notifications of
  // the past hours, so that the table and its statistics look like production's (an empty, never
  // analysed table made every stream's read a sequential scan, which no real inbox pays).
  await q(
    `INSERT INTO notifications (id, community_id, recipient_profile_id, kind, subject_type, subject_id, subject_title,
      created_at, read_at, in_app)
    SELECT gen_random_uuid(), $1, md5('streams-prof-' || k)::uuid, 'mention', 'status', gen_random_uuid(), 'Antes',
      now() - (h || ' hours')::interval, now() - (h || ' hours')::interval, true
    FROM generate_series(1, ${MEMBERS}) k, generate_series(1, ${HISTORY}) h`,
    [community]
  )
  await q(`VACUUM ANALYZE`)
  const now = Math.floor(Date.now() / 1000)
  const uuid = (hex) =>
    `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
  const members = rows.map((row) => ({
    profile: uuid(row.profile),
    community,
    token: sign({ sub: uuid(row.account), email: row.email, sid: uuid(row.sid), iat: now, exp: now + 3600 })
  }))
  await call(PORT_A, "GET", "/auth/me", { token: members[0].token })
  serverB = await startRoda({ mainJs, dir, label: "streams-b", port: PORT_B, extra: { DATABASE_URL } })
  console.log(`seeded ${MEMBERS} members; servers A (streams) ${serverA.pid}, B (writer) ${serverB.pid}`)

  // 1. Idle: no stream, then every stream open.
  const stats = async () => {
    const d = (await q(
      `SELECT xact_commit::bigint AS xact, tup_returned::bigint AS returned, tup_fetched::bigint AS fetched
      FROM pg_stat_database WHERE datname = $1`,
      [DB]
    ))[0]
    const t = (await q(
      `SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0) AS scans FROM pg_stat_user_tables WHERE relname = 'notifications'`
    ))[0]
    return {
      xact: Number(d.xact),
      returned: Number(d.returned),
      fetched: Number(d.fetched),
      scans: Number(t.scans),
      cpuA: cpuMs(serverA.pid)
    }
  }
  const window = async (label) => {
    await sleep(11_000)
    const before = await stats()
    await sleep(IDLE * 1000)
    const after = await stats()
    const heartbeats = streams.reduce((n, s) => n + s.heartbeats, 0)
    const delta = {
      label,
      seconds: IDLE,
      transactions: after.xact - before.xact,
      rowsReturned: after.returned - before.returned,
      rowsFetched: after.fetched - before.fetched,
      notificationScans: after.scans - before.scans,
      cpuAms: Math.round(after.cpuA - before.cpuA),
      heartbeatsSoFar: heartbeats
    }
    console.log(`idle ${JSON.stringify(delta)}`)
    return delta
  }
  const idle = [await window("no streams")]

  const openStarted = performance.now()
  for (let i = 0; i < STREAMS; i += 50) {
    streams.push(
      ...await Promise.all(
        Array.from({ length: Math.min(50, STREAMS - i) }, (_, k) => open(members[(i + k) % MEMBERS]))
      )
    )
  }
  const openSeconds = (performance.now() - openStarted) / 1000
  // Every stream is subscribed once its head came (with its first heartbeat): then the window starts.
  const headsBy = performance.now() + 120_000
  while (streams.some((s) => s.status === 0) && performance.now() < headsBy) await sleep(250)
  console.log(
    `${streams.length} stream requests sent in ${openSeconds.toFixed(1)} s, all answered ${
      ((performance.now() - openStarted) / 1000).toFixed(1)
    } s after the first`
  )
  idle.push(await window(`${STREAMS} streams`))

  // 2. Mentions, written by B, one post after the other.
  const mentionCpu0 = cpuMs(serverA.pid)
  const mentionBackends0 = await backendCpu(PG, DB)
  const mentionStarted = performance.now()
  const posts = []
  for (let i = 0; i < MEMBERS; i += MENTIONS) {
    const named = members.slice(i, i + MENTIONS)
    const body = `Aviso ${i / MENTIONS}: ${named.map((m, k) => `@[Membro ${i + k + 1}](${m.profile})`).join(" ")}`
    const answer = await call(PORT_B, "POST", "/status", { ...staff, body: { body } })
    posts.push({
      id: answer.data.id,
      sentAt: answer.sentAt,
      answeredAt: answer.answeredAt,
      named: new Set(named.map((m) => m.profile))
    })
  }
  const mentionsBy = performance.now() + 60_000
  while (streams.some((s) => !s.events.some((e) => e.item.kind === "mention")) && performance.now() < mentionsBy) {
    await sleep(100)
  }
  const mentionCpuA = Math.round(cpuMs(serverA.pid) - mentionCpu0)
  const mentionBackends = await backendsSince(mentionBackends0)
  const mentionSeconds = (performance.now() - mentionStarted) / 1000
  await sleep(1000)
  const byPost = new Map(posts.map((p) => [p.id, p]))
  const mentionDelays = []
  const mentionAnswered = []
  let mentionWrong = 0
  let mentionMissing = 0
  for (const stream of streams) {
    const got = stream.events.filter((e) => e.item.kind === "mention")
    const mine = got.filter((e) => byPost.get(e.item.subject.id)?.named.has(stream.member.profile))
    mentionWrong += got.length - mine.length
    if (mine.length !== 1) mentionMissing += mine.length === 0 ? 1 : 0
    for (const e of mine) {
      const post = byPost.get(e.item.subject.id)
      mentionDelays.push(e.arrivedAt - post.sentAt)
      mentionAnswered.push(e.arrivedAt - post.answeredAt)
    }
  }
  const postMs = posts.map((p) => p.answeredAt - p.sentAt)
  console.log(`mentions: ${JSON.stringify(summary(mentionDelays))}, missing ${mentionMissing}, wrong ${mentionWrong}`)

  // 3. Fan-out: one post in the space every member follows, written by B's jobs.
  const fanOutCpu0 = cpuMs(serverA.pid)
  const fanOutBackends0 = await backendCpu(PG, DB)
  const fanOutStarted = performance.now()
  const post = await call(PORT_B, "POST", "/content", {
    ...staff,
    body: { spaceId: space, title: "Para todos", body: "Uma publicação para todos os seguidores." }
  })
  const deadline = performance.now() + 60_000
  const received = () => streams.filter((s) => s.events.some((e) => e.item.subject.id === post.data.id)).length
  while (received() < streams.length && performance.now() < deadline) await sleep(100)
  const fanOutCpuA = Math.round(cpuMs(serverA.pid) - fanOutCpu0)
  const fanOutBackends = await backendsSince(fanOutBackends0)
  const fanOutSeconds = (performance.now() - fanOutStarted) / 1000
  await sleep(1000)
  const fanOutDelays = []
  const fanOutFromWrite = []
  let fanOutWrong = 0
  for (const stream of streams) {
    const got = stream.events.filter((e) => e.item.kind === "space_post")
    fanOutWrong += got.filter((e) => e.item.subject.id !== post.data.id).length
    for (const e of got.filter((e) => e.item.subject.id === post.data.id)) {
      fanOutDelays.push(e.arrivedAt - post.sentAt)
      fanOutFromWrite.push(e.wall - Date.parse(e.item.createdAt))
    }
  }
  const duplicates = streams.filter((s) => new Set(s.events.map((e) => e.item.id)).size !== s.events.length).length
  const ended = streams.filter((s) => s.ended).length
  const notOk = streams.filter((s) => s.status !== 200).length
  const headersMs = summary(streams.filter((s) => s.headersMs !== undefined).map((s) => s.headersMs))
  console.log(
    `fan-out: ${JSON.stringify(summary(fanOutDelays))}, from createdAt ${JSON.stringify(summary(fanOutFromWrite))}`
  )
  const scans =
    (await q(`SELECT seq_scan, seq_tup_read, idx_scan FROM pg_stat_user_tables WHERE relname = 'notifications'`))[0]
  await db.end()
  const result = {
    notificationsTable: {
      seqScans: Number(scans.seq_scan),
      seqRowsRead: Number(scans.seq_tup_read),
      indexScans: Number(scans.idx_scan)
    },
    database: "postgres",
    streams: streams.length,
    members: MEMBERS,
    openSeconds: Number(openSeconds.toFixed(1)),
    idle,
    mentions: {
      posts: posts.length,
      postMs: summary(postMs),
      fromSendMs: summary(mentionDelays),
      fromAnswerMs: summary(mentionAnswered),
      missing: mentionMissing,
      wrong: mentionWrong,
      cpuAms: mentionCpuA,
      cpuBackendsMs: mentionBackends,
      seconds: Number(mentionSeconds.toFixed(1))
    },
    fanOut: {
      postMs: Math.round(post.answeredAt - post.sentAt),
      fromSendMs: summary(fanOutDelays),
      fromCreatedAtMs: summary(fanOutFromWrite),
      missing: streams.length - fanOutDelays.length,
      wrong: fanOutWrong,
      cpuAms: fanOutCpuA,
      cpuBackendsMs: fanOutBackends,
      seconds: Number(fanOutSeconds.toFixed(1))
    },
    duplicates,
    streamsEnded: ended,
    streamsNot200: notOk,
    headersMs
  }
  console.log(JSON.stringify(result, null, 2))
}

await runThenCleanUp(run, async () => {
  for (const stream of streams) stream.close?.()
  streamAgent.destroy()
  agent.destroy()
  if (serverB) await stop(serverB)
  if (serverA) await stop(serverA)
  if (!KEEP) await dropDatabase(PG, DB)
})
