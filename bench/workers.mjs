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
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { loadavg } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import {
  backendCpu,
  cpuMs,
  dropDatabase,
  freshDatabase,
  option,
  runThenCleanUp,
  startRoda,
  stop,
  wrk
} from "./harness.mjs"
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

/** The machine's busy and total CPU time so far (all cores, /proc/stat), in ticks. */
const machineTicks = () => {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number)
  const total = fields.reduce((a, b) => a + b, 0)
  return { busy: total - fields[3] - fields[4], total }
}
/** A process and its children (a primary and its workers), by pid. */
const processTree = (pid) => {
  const children = readdirSync("/proc").filter((name) => /^\d+$/.test(name)).filter((name) => {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8")
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid
    } catch {
      return false
    }
  })
  return [pid, ...children.map(Number)]
}
/** CPU (ms) this process has waited for in its children so far: wrk, run by execFileSync. */
const waitedChildrenMs = () => {
  const stat = readFileSync("/proc/self/stat", "utf8")
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (Number(f[13]) + Number(f[14])) * (1000 / 100)
}
/**
 * `run()` with where the machine's CPU went meanwhile, as shares of all its cores: busy, the server (its
 * workers included), PostgreSQL's backends of the database, and wrk.
 */
const accounted = async (server, run) => {
  const pids = processTree(server.pid)
  const server0 = pids.reduce((sum, pid) => sum + cpuMs(pid), 0)
  const pg0 = [...(await backendCpu(PG, DB)).values()].reduce((a, b) => a + b, 0)
  const wrk0 = waitedChildrenMs()
  const machine0 = machineTicks()
  const result = run()
  const machine1 = machineTicks()
  const wall = ((machine1.total - machine0.total) / 100) * 1000 // ms of all cores
  const share = (ms) => ms / wall
  return {
    ...result,
    busy: (machine1.busy - machine0.busy) / (machine1.total - machine0.total),
    serverShare: share(pids.reduce((sum, pid) => sum + cpuMs(pid), 0) - server0),
    pgShare: share([...(await backendCpu(PG, DB)).values()].reduce((a, b) => a + b, 0) - pg0),
    wrkShare: share(waitedChildrenMs() - wrk0)
  }
}
const pct = (x) => `${(x * 100).toFixed(0)}%`

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
    const results = {}
    for (const server of order) results[server.label] = await accounted(server, () => run(server, DURATION))
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
  const cpuTable = [
    "| round | workers | machine busy | server | PostgreSQL | wrk | server CPU ms / request |",
    "|---|---|---|---|---|---|---|",
    ...rounds.flatMap((r) =>
      [["1", r.one], ["2", r.two]].map(([n, x]) =>
        `| ${r.round} | ${n} | ${pct(x.busy)} | ${pct(x.serverShare)} | ${pct(x.pgShare)} | ${pct(x.wrkShare)} | ${
          ((x.serverShare * DURATION * 1000 * 2) / x.requests).toFixed(2)
        } |`
      )
    )
  ].join("\n")
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
  console.log(`\nWhere the CPU went (shares of both cores; server includes its workers):\n\n${cpuTable}`)
}

runThenCleanUp(main, async () => {
  for (const server of servers) await stop(server)
  if (!KEEP) await dropDatabase(PG, DB)
})
