#!/usr/bin/env node
// Does the feed's throughput stay flat as a community grows and as a reader pages deep? Issue 11's target:
// feed req/s flat (±20%) from 1k to 200k posts and from the first page to a page 5,000 rows deep.
// Measures, in interleaved wrk rounds, the member's feed: the first page of a community of `--small`
// posts, the first page of one of `--large` posts, and the page after `--depth` rows of the large one
// (the cursor found by paging through GET /api/feed); prints req/s, p99, CPU per request of the Roda
// process and of the PostgreSQL backends, and each row's req/s against the first row's.
//
//   node bench/feedFlatness.mjs [--small 1000] [--large 200000] [--depth 5000] [--duration 10] [--rounds 2]
//                               [--connections 64] [--pg postgres://postgres@127.0.0.1:5432] [--keep]
//                               [--dir /tmp/roda-bench-flatness]
//
// Needs a build (packages/http-node/dist/main.js), wrk, and a PostgreSQL user that may create databases.
// One database per size (roda_bench_flat_1k, roda_bench_flat_200k; dropped at the end unless --keep),
// seeded by bench/seed.mjs, whose measured community holds half the posts: the database gets twice the
// size, the other half spread over three other communities. Ports 4321-4322 on 127.0.0.1.
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { loadavg } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { backendCpu, dropDatabase, freshDatabase, option, runThenCleanUp, startRoda, stop, wrk } from "./harness.mjs"
import { seed } from "./seed.mjs"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const opt = option(process.argv.slice(2))
const PG = String(opt("pg", "postgres://postgres@127.0.0.1:5432")).replace(/\/$/, "")
const SMALL = Number(opt("small", 1000))
const LARGE = Number(opt("large", 200000))
const DEPTH = Number(opt("depth", 5000))
const DURATION = Number(opt("duration", 10))
const ROUNDS = Number(opt("rounds", 2))
const CONNS = Number(opt("connections", 64))
const KEEP = opt("keep", false) === true
const DIR = resolve(String(opt("dir", "/tmp/roda-bench-flatness")))
const mainJs = join(root, "packages/http-node/dist/main.js")
const PAGE_MAX = 100 // the API's largest `limit`

const log = (...m) => console.error(`[flatness ${new Date().toISOString().slice(11, 19)}]`, ...m)
const median = (xs) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b)
  if (s.length === 0) return NaN
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const f = (x, d = 0) =>
  Number.isFinite(x) ? x.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d }) : "-"
const short = (n) => (n % 1000 === 0 ? `${n / 1000}k` : String(n))

const sizes = [
  { key: "small", posts: SMALL, port: 4321, db: `roda_bench_flat_${short(SMALL)}` },
  { key: "large", posts: LARGE, port: 4322, db: `roda_bench_flat_${short(LARGE)}` }
]
const servers = []

/** A fresh database whose measured community holds `size.posts` posts; answers the reader's ids. */
const seedSize = async (size) => {
  await freshDatabase(PG, size.db)
  const server = await startRoda({
    mainJs,
    dir: DIR,
    label: `${size.key}-seed`,
    port: size.port,
    extra: { DATABASE_URL: `${PG}/${size.db}` }
  })
  servers.push(server)
  const s = await seed({
    rodaBase: `http://127.0.0.1:${size.port}`,
    databaseUrl: `${PG}/${size.db}`,
    posts: 2 * size.posts
  })
  await stop(server)
  if (s.counts.measured !== size.posts) {
    throw new Error(`${size.db}: the measured community holds ${s.counts.measured} posts, not ${size.posts}`)
  }
  log(`seeded ${size.db} in ${s.seconds}s: ${JSON.stringify(s.counts)}`)
  return s
}

const feed = async (size, query = "") => {
  const res = await fetch(`http://127.0.0.1:${size.port}/api/feed${query}`, { headers: size.headers })
  const json = await res.json()
  if (res.status !== 200) throw new Error(`GET /api/feed${query} on ${size.db}: ${res.status} ${JSON.stringify(json)}`)
  return json
}

/** The cursor after the first `depth` rows of the feed, paging with the largest page the API allows. */
const cursorAt = async (size, depth) => {
  let cursor
  for (let seen = 0; seen < depth;) {
    const limit = Math.min(PAGE_MAX, depth - seen)
    const page = await feed(size, `?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`)
    seen += page.data.length
    cursor = page.pagination.nextCursor
    if (!cursor && seen < depth) throw new Error(`${size.db}: the feed ends after ${seen} rows, before ${depth}`)
  }
  return cursor
}

const measure = async (row, seconds) => {
  const db0 = await backendCpu(PG, row.size.db)
  const r = wrk({
    server: row.server,
    path: row.path,
    headers: row.size.headers,
    seconds,
    connections: CONNS,
    lua: join(DIR, `wrk-${row.key}.lua`),
    timeout: "10s"
  })
  let db = 0
  for (const [pid, after] of await backendCpu(PG, row.size.db)) db += after - (db0.get(pid) ?? 0)
  return { ...r, db: db / r.requests, load: loadavg()[0] }
}

const run = async () => {
  if (!existsSync(mainJs)) throw new Error(`${mainJs} is missing: run \`pnpm build\` first`)
  if (!(DEPTH > 0 && DEPTH < LARGE)) throw new Error(`--depth ${DEPTH} must be between 1 and --large ${LARGE}`)
  mkdirSync(DIR, { recursive: true })
  log(`databases ${sizes.map((s) => s.db).join(", ")}; results in ${DIR}`)
  for (const size of sizes) {
    const s = await seedSize(size)
    size.counts = s.counts
    size.headers = { authorization: `Bearer ${s.readerToken}`, "x-communityid": s.communityId }
  }
  // Fresh servers on the seeded databases.
  for (const size of sizes) {
    size.server = await startRoda({
      mainJs,
      dir: DIR,
      label: size.key,
      port: size.port,
      extra: { DATABASE_URL: `${PG}/${size.db}` }
    })
    servers.push(size.server)
  }
  const [small, large] = sizes

  // Before any load: same first page size on both, and a deep page that holds rows older than the first page.
  const firstSmall = (await feed(small)).data
  const firstLarge = (await feed(large)).data
  if (firstSmall.length === 0 || firstSmall.length !== firstLarge.length) {
    throw new Error(
      `first pages differ in size: ${firstSmall.length} (${small.db}) / ${firstLarge.length} (${large.db})`
    )
  }
  const cursor = await cursorAt(large, DEPTH)
  const deep = (await feed(large, `?cursor=${cursor}`)).data
  if (deep.length === 0) throw new Error(`the page after ${DEPTH} rows of ${large.db} is empty`)
  const firstIds = new Set(firstLarge.map((i) => i.id))
  if (deep.some((i) => firstIds.has(i.id)) || deep[0].createdAt >= firstLarge.at(-1).createdAt) {
    throw new Error("the deep page repeats or precedes the first page: the cursor was not followed")
  }
  log(
    `first pages: ${firstSmall.length} items each; page after ${DEPTH} rows: ${deep.length} items, from ${
      deep[0].createdAt
    }`
  )

  const rows = [
    { key: "small-first", size: small, server: small.server, depth: 0, path: "/api/feed" },
    { key: "large-first", size: large, server: large.server, depth: 0, path: "/api/feed" },
    { key: "large-deep", size: large, server: large.server, depth: DEPTH, path: `/api/feed?cursor=${cursor}` }
  ]
  log(`warm-up (${CONNS} connections, 2 s per row)`)
  for (const row of rows) await measure(row, 2)
  const runs = Object.fromEntries(rows.map((r) => [r.key, []]))
  for (let round = 1; round <= ROUNDS; round++) {
    for (const row of round % 2 ? rows : [...rows].reverse()) {
      const r = await measure(row, DURATION)
      runs[row.key].push(r)
      log(
        `  r${round} ${row.key.padEnd(11)} ${f(r.rps).padStart(6)} req/s  p99 ${f(r.p99, 1)} ms  cpu ${
          f(r.cpu, 3)
        } + pg ${f(r.db, 3)} ms/req  load ${f(r.load, 1)}${
          r.errors > 0 ? `  ! ${r.errors} non-2xx or socket errors` : ""
        }`
      )
    }
  }

  const m = (key, field) => median(runs[key].map((r) => r[field]))
  const first = runs[rows[0].key]
  // Per round against the first row of that round, then the median: drift of a shared machine cancels out.
  const ratio = (key) => median(runs[key].map((r, i) => r.rps / first[i].rps))
  const ratios = rows.map((row) => ratio(row.key))
  const worst = ratios.reduce((a, b) => (Math.abs(b - 1) > Math.abs(a - 1) ? b : a), 1)
  const loads = Object.values(runs).flat().map((r) => r.load)
  const errors = Object.values(runs).flat().reduce((n, r) => n + r.errors, 0)
  const lines = [
    `Feed (member, default page size ${firstSmall.length}), wrk -t2 -c${CONNS} -d${DURATION}s, ${ROUNDS} interleaved rounds (medians), node ${process.version}. ` +
    `posts: of the measured community (its database holds as many again in three other communities); depth: rows before the page.`,
    "",
    "| posts | depth | req/s | p99 | CPU ms/req Roda | CPU ms/req PostgreSQL | req/s vs first row |",
    "|---|---|---|---|---|---|---|",
    ...rows.map((row, i) =>
      `| ${f(row.size.counts.measured)} | ${f(row.depth)} | ${f(m(row.key, "rps"))} | ${f(m(row.key, "p99"), 1)} ms | ${
        f(m(row.key, "cpu"), 3)
      } | ${f(m(row.key, "db"), 3)} | **${f(ratios[i], 2)}x** |`
    ),
    "",
    `Flat (±20%): **${Math.abs(worst - 1) <= 0.2 ? "yes" : "no"}** (furthest row ${f(worst, 2)}x). ` +
    `Machine load (1-minute average, ${execFileSync("nproc").toString().trim()} CPUs) during the runs: ${
      f(Math.min(...loads), 1)
    } to ${f(Math.max(...loads), 1)}.`,
    ...(errors > 0
      ? [`Warning: ${errors} non-2xx responses or socket errors during the runs (see the log above).`]
      : [])
  ]
  const table = lines.join("\n")
  writeFileSync(join(DIR, "table.md"), table + "\n")
  writeFileSync(join(DIR, "runs.json"), JSON.stringify({ runs, counts: sizes.map((s) => s.counts) }, null, 2))
  console.log(table)
}

const cleanUp = async () => {
  await Promise.all(servers.map(stop))
  if (KEEP) return
  for (const size of sizes) {
    await dropDatabase(PG, size.db).catch((e) => log(`could not drop ${size.db}: ${e.message}`))
  }
}
runThenCleanUp(run, cleanUp)
