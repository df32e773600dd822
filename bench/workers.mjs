#!/usr/bin/env node
// Issue 58 item 4: `roda-server` with WORKERS=1 and WORKERS=2 side by side on one seeded PostgreSQL database,
// the feed's first page (as a member) in interleaved wrk rounds; the ratio is the median of the rounds.
// Both servers share PGPOOL_MAX (10 by default): one worker holds all 10 connections, two hold 5 each.
//
//   node bench/workers.mjs [--posts 20000] [--duration 10] [--rounds 3] [--connections 64] [--warmup 5]
//                          [--pg postgres://postgres@127.0.0.1:5432] [--pool 10] [--keep] [--dir /tmp/roda-workers]
//
// Needs a build (packages/http-node/dist/main.js) and wrk. Creates roda_workers (dropped unless --keep), uses
// ports 4311-4312 on 127.0.0.1 and stops only the processes it started.
import { mkdirSync, writeFileSync } from "node:fs"
import { loadavg } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { dropDatabase, freshDatabase, option, runThenCleanUp, startRoda, stop, wrk } from "./harness.mjs"
import { seed } from "./seed.mjs"

const here = dirname(fileURLToPath(import.meta.url))
const opt = option(process.argv.slice(2))
const PG = String(opt("pg", "postgres://postgres@127.0.0.1:5432")).replace(/\/$/, "")
const DB = "roda_workers"
const POSTS = Number(opt("posts", 20000))
const DURATION = Number(opt("duration", 10))
const ROUNDS = Number(opt("rounds", 3))
const CONNS = Number(opt("connections", 64))
const WARMUP = Number(opt("warmup", 5))
const POOL = String(opt("pool", 10))
const KEEP = opt("keep", false) === true
const DIR = resolve(String(opt("dir", "/tmp/roda-workers")))
const mainJs = resolve(here, "../packages/http-node/dist/main.js")
mkdirSync(DIR, { recursive: true })

const log = (...m) => console.error(`[workers ${new Date().toISOString().slice(11, 19)}]`, ...m)
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const servers = []

const main = async () => {
  await freshDatabase(PG, DB)
  const extra = { DATABASE_URL: `${PG}/${DB}`, PGPOOL_MAX: POOL }
  const one = await startRoda({ mainJs, dir: DIR, label: "one", port: 4311, extra: { ...extra, WORKERS: "1" } })
  servers.push(one)
  log("seeding")
  const s = await seed({ rodaBase: "http://127.0.0.1:4311", databaseUrl: `${PG}/${DB}`, posts: POSTS })
  log(`seeded in ${s.seconds}s`)
  const two = await startRoda({ mainJs, dir: DIR, label: "two", port: 4312, extra: { ...extra, WORKERS: "2" } })
  servers.push(two)
  const headers = { authorization: `Bearer ${s.readerToken}`, "x-communityid": s.communityId }
  const run = (server, seconds) =>
    wrk({ server, path: "/api/feed", headers, seconds, connections: CONNS, lua: join(DIR, "headers.lua") })
  for (const server of [one, two]) run(server, WARMUP)
  const rounds = []
  for (let round = 1; round <= ROUNDS; round++) {
    // the order alternates, so that neither server always runs on the machine the other just left
    const order = round % 2 ? [one, two] : [two, one]
    const results = Object.fromEntries(order.map((server) => [server.label, run(server, DURATION)]))
    rounds.push({
      round,
      load: loadavg()[0],
      one: results.one,
      two: results.two,
      ratio: results.two.rps / results.one.rps
    })
    log(
      `round ${round}: one ${results.one.rps} req/s, two ${results.two.rps} req/s (${
        (results.two.rps / results.one.rps).toFixed(2)
      }x)`
    )
  }
  const table = [
    "| round | 1 worker req/s (p99 ms) | 2 workers req/s (p99 ms) | 2 / 1 | errors | load |",
    "|---|---|---|---|---|---|",
    ...rounds.map((r) =>
      `| ${r.round} | ${r.one.rps.toFixed(0)} (${r.one.p99.toFixed(1)}) | ${r.two.rps.toFixed(0)} (${
        r.two.p99.toFixed(1)
      }) | ${r.ratio.toFixed(2)} | ${r.one.errors + r.two.errors} | ${r.load.toFixed(1)} |`
    ),
    `| median | ${median(rounds.map((r) => r.one.rps)).toFixed(0)} | ${
      median(rounds.map((r) => r.two.rps)).toFixed(0)
    } | ${median(rounds.map((r) => r.ratio)).toFixed(2)} | | |`
  ].join("\n")
  writeFileSync(
    join(DIR, "workers.json"),
    JSON.stringify({ posts: POSTS, connections: CONNS, pool: POOL, rounds }, null, 2)
  )
  console.log(`\nGET /api/feed first page, ${CONNS} connections, ${DURATION} s rounds, PGPOOL_MAX ${POOL}\n\n${table}`)
}

runThenCleanUp(main, async () => {
  for (const server of servers) await stop(server)
  if (!KEEP) await dropDatabase(PG, DB)
})
