#!/usr/bin/env node
// Embedded (PGlite) against PostgreSQL: the same Roda build serves the feed's first page from each,
// on the same data shape (bench/seed.mjs), in interleaved wrk rounds; prints req/s, p99 and CPU per
// request of each and the ratio (issue 11's target: embedded ≥ 0.6x). Also times a fresh embedded
// start: a new data folder, from spawning the server to its first 200 on /readyz (target < 1.5 s).
//
//   node bench/embedded.mjs [--posts 20000] [--duration 10] [--rounds 2] [--connections 64]
//                           [--pg postgres://postgres@127.0.0.1:5432] [--dir /tmp/roda-bench-embedded]
//                           [--roda-main <a built packages/http-node/dist/main.js, e.g. of another checkout>]
//
// Needs a build (`pnpm build`), wrk, and a PostgreSQL user that may create databases (database
// roda_bench_embedded, dropped at the end). Ports 4311-4312 on 127.0.0.1.
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { dropDatabase, freshDatabase, lowerMedian as median, startRoda, stop, wrk as harnessWrk } from "./harness.mjs"
import { throughApi, throughSql } from "./seed.mjs"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const args = process.argv.slice(2)
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`)
  return i < 0 || args[i + 1] === undefined ? fallback : args[i + 1]
}
const PG = String(opt("pg", "postgres://postgres@127.0.0.1:5432")).replace(/\/$/, "")
const DB = "roda_bench_embedded"
const POSTS = Number(opt("posts", 20000))
const DURATION = Number(opt("duration", 10))
const ROUNDS = Number(opt("rounds", 2))
const CONNS = Number(opt("connections", 64))
const DIR = resolve(String(opt("dir", "/tmp/roda-bench-embedded")))
const DATA = join(DIR, "data")
const mainJs = resolve(String(opt("roda-main", join(root, "packages/http-node/dist/main.js"))))
const log = (...m) => console.error(`[embedded ${new Date().toISOString().slice(11, 19)}]`, ...m)
const start = (label, port, extra) => startRoda({ mainJs, dir: DIR, label, port, extra })
const wrk = (server, headers, seconds) =>
  harnessWrk({ server, path: "/api/feed", headers, seconds, connections: CONNS, lua: join(DIR, "wrk-feed.lua") })

/** The embedded data folder, seeded as the PostgreSQL one: the API through a server, the bulk in PGlite directly. */
const seedEmbedded = async () => {
  const first = await start("embedded-seed", 4312, { DATA_DIR: DATA })
  log(`fresh embedded start (new data folder, spawn to ready): ${first.readyMs.toFixed(0)} ms`)
  const ids = await throughApi(`http://127.0.0.1:${first.port}`)
  await stop(first)
  const coreRequire = createRequire(join(root, "packages/core/package.json"))
  const { PGlite } = await import(coreRequire.resolve("@electric-sql/pglite"))
  const { pg_trgm } = await import(coreRequire.resolve("@electric-sql/pglite/contrib/pg_trgm"))
  const { unaccent } = await import(coreRequire.resolve("@electric-sql/pglite/contrib/unaccent"))
  // Roda keeps the database in DATA_DIR/pg (stored files beside it).
  const db = new PGlite(join(DATA, "pg"), { extensions: { pg_trgm, unaccent } })
  try {
    await throughSql(async (text, values) => (await db.query(text, values)).rows, ids, POSTS)
  } finally {
    await db.close()
  }
  return { ids, freshStartMs: first.readyMs }
}

const seedPostgres = async () => {
  await freshDatabase(PG, DB)
  const server = await start("postgres-seed", 4311, { DATABASE_URL: `${PG}/${DB}` })
  const ids = await throughApi(`http://127.0.0.1:${server.port}`)
  await stop(server)
  const client = new pg.Client({ connectionString: `${PG}/${DB}` })
  await client.connect()
  try {
    await throughSql(async (text, values) => (await client.query(text, values)).rows, ids, POSTS)
  } finally {
    await client.end()
  }
  return ids
}

const main = async () => {
  rmSync(DIR, { recursive: true, force: true })
  mkdirSync(DIR, { recursive: true })
  log(`seeding ${POSTS} posts in PostgreSQL and in a PGlite folder (${DATA})`)
  const pgIds = await seedPostgres()
  const { freshStartMs, ids: embIds } = await seedEmbedded()
  const servers = [
    Object.assign(await start("postgres", 4311, { DATABASE_URL: `${PG}/${DB}` }), { ids: pgIds }),
    Object.assign(await start("embedded", 4312, { DATA_DIR: DATA }), { ids: embIds })
  ]
  const runs = { postgres: [], embedded: [] }
  const headersOf = (ids) => ({
    authorization: `Bearer ${ids.reader.token}`,
    "x-communityid": ids.communities[0].id
  })
  for (const s of servers) wrk(s, headersOf(s.ids), 2)
  for (let round = 1; round <= ROUNDS; round++) {
    for (const s of round % 2 ? servers : [...servers].reverse()) {
      const r = wrk(s, headersOf(s.ids), DURATION)
      runs[s.label].push(r)
      log(
        `r${round} ${s.label.padEnd(8)} ${r.rps.toFixed(0)} req/s  p99 ${r.p99.toFixed(1)} ms  cpu ${
          r.cpu.toFixed(3)
        } ms/req`
      )
    }
  }
  await Promise.all(servers.map(stop))
  await dropDatabase(PG, DB)
  const m = (label, key) => median(runs[label].map((r) => r[key]))
  const table = [
    `Feed first page (member), ${
      POSTS.toLocaleString("en-US")
    } posts, wrk -c${CONNS} -d${DURATION}s, ${ROUNDS} rounds (medians).`,
    "",
    "| database | req/s | p99 | CPU ms/req (Roda process; PGlite runs inside it) |",
    "|---|---|---|---|",
    ...["postgres", "embedded"].map((l) =>
      `| ${l === "postgres" ? "PostgreSQL" : "embedded (PGlite)"} | ${m(l, "rps").toFixed(0)} | ${
        m(l, "p99").toFixed(1)
      } ms | ${m(l, "cpu").toFixed(3)} |`
    ),
    "",
    `Embedded / PostgreSQL req/s: **${(m("embedded", "rps") / m("postgres", "rps")).toFixed(2)}x**. ` +
    `Fresh embedded start (new data folder, spawn to first ready): ${freshStartMs.toFixed(0)} ms.`
  ].join("\n")
  writeFileSync(join(DIR, "table.md"), table + "\n")
  console.log(table)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
