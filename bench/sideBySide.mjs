#!/usr/bin/env node
// `pnpm bench`: Roda side by side with bench/baseline.mjs (raw node:http + pg on the same tables, same JSON),
// route by route, in interleaved wrk rounds, so the noise of a shared machine falls on both. The static route is
// also measured on bench/floor.mjs (a bare `HttpApi`): the framework's own floor.
//
//   node bench/sideBySide.mjs [--posts 20000] [--duration 10] [--rounds 2] [--connections 64] [--warmup 5]
//                             [--pg postgres://postgres@127.0.0.1:5432] [--keep] [--dir /tmp/roda-bench]
//                             [--roda-main <a built packages/http-node/dist/main.js, e.g. of another checkout>]
//                             [--routes feed,static,staticApp,status,me,course (all by default)]
//                             [--roda-b <another build's main.js>: an A/B in the same rounds, on the same database]
//
// Needs a build (packages/http-node/dist/main.js: `pnpm build`), wrk on the PATH, and a PostgreSQL where the
// user may create databases. It creates roda_bench (dropped at the end unless --keep), uses ports 4301-4303 on
// 127.0.0.1 and stops only the processes it started.
import { execFileSync, spawn } from "node:child_process"
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs"
import { loadavg } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { backendCpu, cpuMs, option, runThenCleanUp, shebangFlags } from "./harness.mjs"
import { seed } from "./seed.mjs"

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, "..")
const opt = option(process.argv.slice(2))
const PG = String(opt("pg", "postgres://postgres@127.0.0.1:5432")).replace(/\/$/, "")
const DB = "roda_bench"
const DB_URL = `${PG}/${DB}`
const POSTS = Number(opt("posts", 20000))
const DURATION = Number(opt("duration", 10))
const ROUNDS = Number(opt("rounds", 2))
const CONNS = Number(opt("connections", 64))
// Each server's routes run this long before the rounds: Roda has far more code for V8 to optimize
// than the raw server, and with 2 s its first round of a route still ran partly unoptimized (CPU a
// request 20-50% above its later rounds).
const WARMUP = Number(opt("warmup", 5))
const KEEP = opt("keep", false) === true
const DIR = resolve(String(opt("dir", "/tmp/roda-bench")))
const JWT_SECRET = "bench-jwt-secret-bench-jwt-secret-0123456789"
const PORTS = { roda: 4301, raw: 4302, floor: 4303, rodaB: 4304 }
// A subset of the routes (keys of `routes` below) to study one of them; the idle RSS is read only when all run.
const ONLY = opt("routes", undefined) === undefined ? undefined : new Set(String(opt("routes")).split(","))
const measured = (key) => ONLY === undefined || ONLY.has(key)
const mainJs = resolve(String(opt("roda-main", join(root, "packages/http-node/dist/main.js"))))
/** A second build measured in the same rounds as Roda (A), on the database A migrated and seeded. */
const mainJsB = opt("roda-b", undefined) === undefined ? undefined : resolve(String(opt("roda-b")))
mkdirSync(DIR, { recursive: true })

const log = (...m) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...m)
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const median = (xs) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b)
  if (s.length === 0) return NaN
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

// ---- processes (stopped by their own pid only) ---------------------------------------------------------------
const children = new Set()
// Every server runs with the Node flags Roda's binary sets for itself (its shebang): the same heap for all.
// A second build (--roda-b) runs with its own shebang's flags: it is measured as it shipped.
const nodeFlags = shebangFlags(mainJs)
const launch = (label, script, env, flags = nodeFlags) => {
  const out = openSync(join(DIR, `${label}.log`), "w")
  const child = spawn(process.execPath, [...flags, script], {
    env: { ...process.env, ...env },
    stdio: ["ignore", out, out]
  })
  child.label = label
  children.add(child)
  child.once("exit", () => children.delete(child))
  return child
}
const stop = async (child) => {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((r) => child.once("exit", r))
  child.kill("SIGTERM")
  const timer = setTimeout(() => child.kill("SIGKILL"), 15000)
  await exited
  clearTimeout(timer)
}
const waitReady = async (child, port, path) => {
  const deadline = Date.now() + 120000
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`${child.label} exited with ${child.exitCode}: see ${DIR}/${child.label}.log`)
    }
    try {
      if ((await fetch(`http://127.0.0.1:${port}${path}`)).status === 200) return
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${child.label} not ready on :${port}`)
    await sleep(50)
  }
}
const startRoda = async (label = "roda", script = mainJs) => {
  const child = launch(label, script, {
    PORT: String(PORTS[label]),
    HOST: "127.0.0.1",
    DATABASE_URL: DB_URL,
    JWT_SECRET,
    PAYMENT_GATEWAY: "sandbox",
    SANDBOX_WEBHOOK_SECRET: "bench-sandbox-webhook-secret-0123456789",
    // One member posts thousands of times a second here: the posting limit (20 a minute) would answer 429s
    // (the raw server has no limit). Off, it costs no statement; on, one upsert a post.
    RATE_LIMITS: JSON.stringify({ posting: 0 }),
    LOG_LEVEL: "warn",
    NODE_ENV: "production",
    // one process, as the raw server is (`WORKERS` defaults to the cores on PostgreSQL)
    WORKERS: "1"
  }, shebangFlags(script))
  child.port = PORTS[label]
  await waitReady(child, PORTS[label], "/readyz")
  return child
}
const startRaw = async (modulesFile) => {
  const child = launch("raw", join(here, "baseline.mjs"), {
    PORT: String(PORTS.raw),
    DATABASE_URL: DB_URL,
    JWT_SECRET,
    MODULES_JSON: modulesFile
  })
  child.port = PORTS.raw
  await waitReady(child, PORTS.raw, "/healthz")
  return child
}

/** bench/floor.mjs: the static route on a bare `HttpApi`, the most a route built on the framework can reach. */
const startFloor = async (modulesFile) => {
  const child = launch("floor", join(here, "floor.mjs"), { PORT: String(PORTS.floor), MODULES_JSON: modulesFile })
  child.port = PORTS.floor
  await waitReady(child, PORTS.floor, "/healthz")
  return child
}

// ---- /proc: CPU and RSS ------------------------------------------------------------------------------------
const rssMb = (pid) => {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024
  } catch {
    return NaN
  }
}
// ---- database ------------------------------------------------------------------------------------------------
const admin = async (sql) => {
  const client = new pg.Client({ connectionString: `${PG}/postgres` })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

// ---- wrk -----------------------------------------------------------------------------------------------------
const toMs = (v) => {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(v ?? "")
  return m ? Number(m[1]) * { us: 0.001, ms: 1, s: 1000, m: 60000 }[m[2]] : NaN
}
const luaFile = (route) => {
  const lines = [`wrk.method = "${route.method ?? "GET"}"`]
  if (route.body) lines.push(`wrk.body = ${JSON.stringify(route.body)}`)
  for (const [k, v] of Object.entries(route.headers ?? {})) lines.push(`wrk.headers["${k}"] = "${v}"`)
  const file = join(DIR, `wrk-${route.key}.lua`)
  writeFileSync(file, lines.join("\n") + "\n")
  return file
}
const wrk = async (route, server, seconds) => {
  const args = [
    "-t2",
    `-c${CONNS}`,
    `-d${seconds}s`,
    "--timeout",
    "10s",
    "--latency",
    "-s",
    luaFile(route),
    `http://127.0.0.1:${server.port}${route.path}`
  ]
  const cpu0 = cpuMs(server.pid)
  const db0 = await backendCpu(PG, DB)
  const out = await new Promise((res, rej) => {
    const p = spawn("wrk", args)
    let s = ""
    p.stdout.on("data", (d) => (s += d))
    p.stderr.on("data", (d) => (s += d))
    p.on("exit", () => res(s))
    p.on("error", rej)
  })
  const cpu = cpuMs(server.pid) - cpu0
  let db = 0
  for (const [pid, after] of await backendCpu(PG, DB)) db += after - (db0.get(pid) ?? 0)
  const requests = Number(/(\d+) requests in/.exec(out)?.[1])
  const bad = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0)
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)
  const errors = bad + (sock ? sock.slice(1).reduce((a, b) => a + Number(b), 0) : 0)
  if (!(requests > 0)) throw new Error(`wrk failed on ${route.key}: ${out}`)
  if (errors > 0) log(`  ! ${route.key} on ${server.label}: ${bad} non-2xx, socket errors ${errors - bad}`)
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]),
    p50: toMs(/^\s+50%\s+(\S+)/m.exec(out)?.[1]),
    p99: toMs(/^\s+99%\s+(\S+)/m.exec(out)?.[1]),
    cpu: cpu / requests,
    db: db / requests,
    // The machine's 1-minute load average at the end of the run: other work on a shared machine
    // inflates CPU per request (cold caches, preemption), the more so for the slower server.
    load: loadavg()[0],
    errors
  }
}

// ---- equivalence ---------------------------------------------------------------------------------------------
/** Parsed JSON with object keys sorted, `ignore` keys (anywhere) blanked. */
const canonical = (value, ignore = new Set()) =>
  JSON.stringify(value, (k, v) => {
    if (ignore.has(k)) return undefined // left out of both, present or not
    return v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v
  })
const answer = async (server, route) => {
  // fetch sets Content-Length itself (wrk sends the route's as given).
  const { "content-length": _, ...headers } = route.headers ?? {}
  const res = await fetch(`http://127.0.0.1:${server.port}${route.path}`, {
    method: route.method ?? "GET",
    headers,
    body: route.body
  })
  return { status: res.status, json: await res.json() }
}
const firstDifference = (a, b, path = "") => {
  if (JSON.stringify(a) === JSON.stringify(b)) return undefined
  if (a && b && typeof a === "object" && typeof b === "object") {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference(a[k], b[k], `${path}.${k}`)
      if (d) return d
    }
  }
  return `${path || "."}: raw ${JSON.stringify(a)?.slice(0, 120)} / Roda ${JSON.stringify(b)?.slice(0, 120)}`
}

/**
 * RSS of each server once idle: sampled every 5 s from `IDLE_RSS_AFTER` seconds after the load (Roda
 * gives memory back after a minute without requests, then collects three times, 5 s apart:
 * http-node/src/idleCollection.ts) until no server's moved by more than 1 MB for three samples in a
 * row (at most 180 s), with the seconds it took.
 */
const IDLE_RSS_AFTER = 75
const settledRss = async (servers) => {
  const samples = []
  await sleep((IDLE_RSS_AFTER - 5) * 1000)
  for (let seconds = IDLE_RSS_AFTER; seconds <= 180; seconds += 5) {
    await sleep(5000)
    samples.push(Object.fromEntries(servers.map((x) => [x.label, rssMb(x.pid)])))
    const last = samples.slice(-4)
    const still = last.length === 4 &&
      servers.every(({ label }) => Math.max(...last.map((r) => r[label])) - Math.min(...last.map((r) => r[label])) <= 1)
    if (still || seconds === 180) return { ...samples.at(-1), seconds }
  }
}

// ---- the run -------------------------------------------------------------------------------------------------
/** The commit a build was made from, or its path outside a git checkout. */
const commitOf = (script) => {
  try {
    return execFileSync("git", ["-C", dirname(script), "log", "-1", "--format=%h"], {
      stdio: ["ignore", "pipe", "ignore"]
    }).toString().trim() || script
  } catch {
    return script
  }
}

const f = (
  x,
  d = 0
) => (Number.isFinite(x) ? x.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d }) : "-")

const run = async () => {
  if (!existsSync(mainJs)) throw new Error(`${mainJs} is missing: run \`pnpm build\` first`)
  try {
    execFileSync("sh", ["-c", "command -v wrk"], { stdio: "ignore" })
  } catch {
    throw new Error("wrk is not on the PATH (apt-get install wrk)")
  }
  log(`database ${DB}, ${POSTS} posts; results in ${DIR}`)
  await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`)
  await admin(`CREATE DATABASE ${DB}`)
  let roda = await startRoda()
  log("seeding")
  const s = await seed({ rodaBase: `http://127.0.0.1:${PORTS.roda}`, databaseUrl: DB_URL, posts: POSTS })
  log(`seeded in ${s.seconds}s: ${JSON.stringify(s.counts)}`)
  writeFileSync(join(DIR, "seed.json"), JSON.stringify(s, null, 2))
  // A fresh Roda process on the seeded database: RSS "before" is an idle server that has served nothing yet.
  await stop(roda)
  roda = await startRoda()
  const reader = { authorization: `Bearer ${s.readerToken}`, "x-communityid": s.communityId }
  const modules =
    (await answer(roda, { path: "/api/spaces/modules", headers: { "x-communityid": s.communityId } })).json.data
  const modulesFile = join(DIR, "modules.json")
  writeFileSync(modulesFile, JSON.stringify(modules))
  const raw = await startRaw(modulesFile)
  const floor = measured("staticApp") ? await startFloor(modulesFile) : undefined
  const rodaB = mainJsB === undefined ? undefined : await startRoda("rodaB", mainJsB)
  const servers = rodaB === undefined ? [raw, roda] : [raw, roda, rodaB]
  /** The servers a route is measured on: the static one through the app also on the framework floor. */
  const serversOf = (route) => (route.key === "staticApp" ? [...servers, floor] : servers)

  const allRoutes = [
    { key: "feed", label: "`GET /api/feed` first page (member)", path: "/api/feed", headers: reader },
    {
      key: "static",
      label: "`GET /api/spaces/modules` (static)",
      path: "/api/spaces/modules",
      headers: { "x-communityid": s.communityId }
    },
    {
      // The same request with an empty body declared: Roda answers it through the app (its fiber,
      // routing and middleware), not at once as the row above (packages/core/src/app/answerAtOnce.ts).
      key: "staticApp",
      label: "`GET /api/spaces/modules` through the app (`Content-Length: 0`)",
      path: "/api/spaces/modules",
      headers: { "x-communityid": s.communityId, "content-length": "0" }
    },
    {
      key: "status",
      label: "`POST /api/status`",
      path: "/api/status",
      method: "POST",
      body: JSON.stringify({ body: "Uma publicação escrita pelo teste de carga, com algumas palavras a mais." }),
      headers: { ...reader, "x-communityid": s.writeCommunityId, "content-type": "application/json" }
    },
    { key: "me", label: "`GET /api/auth/me`", path: "/api/auth/me", headers: { authorization: reader.authorization } },
    {
      key: "course",
      label: "`GET /api/courses/:slug` (detail, enrolled)",
      path: `/api/courses/${s.courseSlug}`,
      headers: reader
    }
  ]
  const routes = allRoutes.filter((route) => measured(route.key))
  if (routes.length === 0) throw new Error(`--routes names none of ${allRoutes.map((r) => r.key).join(",")}`)

  // Same answer from both, before any load: parsed JSON compared with keys sorted.
  // A new post's `hidden` and `pending` (moderation, issue 56) are newer than the baseline and than builds before it.
  const ignoreFor = { status: new Set(["id", "createdAt", "updatedAt", "hidden", "pending"]) }
  let same = true
  for (const route of routes) {
    const ignore = ignoreFor[route.key] ?? new Set()
    const [a, ...others] = await Promise.all(serversOf(route).map((server) => answer(server, route)))
    const differs = (o) => a.status !== o.status || canonical(a.json, ignore) !== canonical(o.json, ignore)
    const b = others.find(differs) ?? others[0]
    const equal = !others.some(differs)
    log(
      `  same answer ${route.key}: ${
        equal
          ? "yes"
          : `NO (${a.status} / ${b.status}) ${
            firstDifference(JSON.parse(canonical(a.json, ignore)), JSON.parse(canonical(b.json, ignore)))
          }`
      }`
    )
    same &&= equal
  }
  if (!same) throw new Error("the baseline and Roda answer differently: fix before measuring")

  await sleep(1000)
  const rssBefore = Object.fromEntries(servers.map((x) => [x.label, rssMb(x.pid)]))
  log(`warm-up (${CONNS} connections, ${WARMUP} s per route and server)`)
  for (const route of routes) for (const server of serversOf(route)) await wrk(route, server, WARMUP)
  const runs = Object.fromEntries(routes.map((r) => [r.key, { raw: [], roda: [], floor: [], rodaB: [] }]))
  for (let round = 1; round <= ROUNDS; round++) {
    for (const route of routes) {
      for (const server of round % 2 ? serversOf(route) : [...serversOf(route)].reverse()) {
        const r = await wrk(route, server, DURATION)
        runs[route.key][server.label].push(r)
        log(
          `  r${round} ${route.key.padEnd(6)} ${server.label.padEnd(5)} ${f(r.rps).padStart(7)} req/s  p50 ${
            f(r.p50, 1)
          } ms  p99 ${f(r.p99, 1)} ms  cpu ${f(r.cpu, 3)} + pg ${f(r.db, 3)} ms/req  load ${f(r.load, 1)}`
        )
      }
    }
  }
  await sleep(3000)
  const rssAfter = Object.fromEntries(servers.map((x) => [x.label, rssMb(x.pid)]))
  let rssIdle
  if (ONLY === undefined) {
    log(
      `idle after the load: RSS from ${IDLE_RSS_AFTER} s on, until it holds still (Roda collects after 60 s without a request)`
    )
    rssIdle = await settledRss(servers)
  }

  const lines = []
  const commit = commitOf(mainJs)
  lines.push(
    `Roda ${commit} vs bench/baseline.mjs: ${s.counts.posts.toLocaleString("en-US")} posts (${
      s.counts.measured.toLocaleString("en-US")
    } in the measured community), wrk -t2 -c${CONNS} -d${DURATION}s, ${ROUNDS} interleaved rounds (medians; ratios per round, then the median), node ${process.version}.`
  )
  lines.push("")
  lines.push(
    "| route | raw req/s | Roda req/s | ratio | raw p99 | Roda p99 | p99 ratio | p50 ratio | CPU ms/req raw → Roda (node + PostgreSQL) |"
  )
  lines.push("|---|---|---|---|---|---|---|---|---|")
  for (const route of routes) {
    const { raw: a, roda: b } = runs[route.key]
    const ratio = median(b.map((x, i) => x.rps / a[i].rps))
    const p99Ratio = median(b.map((x, i) => x.p99 / a[i].p99))
    const p50Ratio = median(b.map((x, i) => x.p50 / a[i].p50))
    const m = (xs, k) => median(xs.map((x) => x[k]))
    lines.push(
      `| ${route.label} | ${f(m(a, "rps"))} | ${f(m(b, "rps"))} | **${f(ratio, 2)}x** | ${f(m(a, "p99"), 1)} ms | ${
        f(m(b, "p99"), 1)
      } ms | ${f(p99Ratio, 2)}x | ${f(p50Ratio, 2)}x | ${f(m(a, "cpu"), 3)} + ${f(m(a, "db"), 3)} → ${
        f(m(b, "cpu"), 3)
      } + ${f(m(b, "db"), 3)} |`
    )
  }
  if (rodaB !== undefined) {
    lines.push("")
    lines.push(
      `A/B in the same rounds: A = ${commit}, B = ${commitOf(mainJsB)} (B/A: the median of the rounds' ratios).`
    )
    lines.push("")
    lines.push(
      "| route | A req/s | B req/s | B/A req/s | A/raw → B/raw | B/A p99 | CPU ms/req A → B (node) | B/A CPU |"
    )
    lines.push("|---|---|---|---|---|---|---|---|")
    for (const route of routes) {
      const { raw: r, roda: a, rodaB: b } = runs[route.key]
      const per = (k) => median(b.map((x, i) => x[k] / a[i][k]))
      const m = (xs, k) => median(xs.map((x) => x[k]))
      lines.push(
        `| ${route.label} | ${f(m(a, "rps"))} | ${f(m(b, "rps"))} | **${f(per("rps"), 3)}** | ${
          f(median(a.map((x, i) => x.rps / r[i].rps)), 2)
        }x → ${f(median(b.map((x, i) => x.rps / r[i].rps)), 2)}x | ${f(per("p99"), 2)} | ${f(m(a, "cpu"), 3)} → ${
          f(m(b, "cpu"), 3)
        } | ${f(per("cpu"), 3)} |`
      )
    }
  }
  if (runs.staticApp !== undefined) {
    const { raw: rawStatic, roda: rodaStatic, floor: floorStatic } = runs.staticApp
    const rpsOf = (xs) => median(xs.map((x) => x.rps))
    lines.push("")
    lines.push(
      `Framework floor (\`bench/floor.mjs\`: the static route on a bare \`HttpApi\`, the same JSON, nothing of Roda): ` +
        `${f(rpsOf(floorStatic))} req/s, ${f(median(floorStatic.map((x, i) => x.rps / rawStatic[i].rps)), 2)}x raw, ` +
        `p99 ${f(median(floorStatic.map((x) => x.p99)), 1)} ms, CPU ${
          f(median(floorStatic.map((x) => x.cpu)), 3)
        } ms/req; ` +
        `Roda's static route through the app reaches ${
          f(median(rodaStatic.map((x, i) => x.rps / floorStatic[i].rps)), 2)
        }x of it.`
    )
  }
  lines.push("")
  if (rssIdle !== undefined) {
    lines.push(
      `RSS (MB), idle before the load → 3 s after it → idle after it (held still for 15 s, ${rssIdle.seconds} s after): ` +
        `raw ${f(rssBefore.raw)} → ${f(rssAfter.raw)} → ${f(rssIdle.raw)}, ` +
        `Roda ${f(rssBefore.roda)} → ${f(rssAfter.roda)} → ${f(rssIdle.roda)} ` +
        `(${f(rssIdle.roda / rssBefore.roda, 2)}x its idle RSS before the load).`
    )
  }
  const loads = Object.values(runs).flatMap((r) => [...r.raw, ...r.roda, ...r.floor, ...r.rodaB]).map((r) => r.load)
  lines.push(
    `Machine load (1-minute average, ${execFileSync("nproc").toString().trim()} CPUs) during the runs: ${
      f(Math.min(...loads), 1)
    } to ${f(Math.max(...loads), 1)}, median ${f(median(loads), 1)}.`
  )
  const errors = Object.values(runs).flatMap((r) => [...r.raw, ...r.roda, ...r.floor, ...r.rodaB]).reduce(
    (n, r) => n + r.errors,
    0
  )
  if (errors > 0) {
    lines.push(`Warning: ${errors} non-2xx responses or socket errors during the runs (see the log above).`)
  }
  const table = lines.join("\n")
  writeFileSync(join(DIR, "table.md"), table + "\n")
  writeFileSync(join(DIR, "runs.json"), JSON.stringify({ runs, rssBefore, rssAfter, rssIdle, seed: s }, null, 2))
  console.log(table)
}

const cleanUp = async () => {
  for (const c of [...children]) await stop(c)
  if (!KEEP) {
    await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`).catch((e) => log(`could not drop ${DB}: ${e.message}`))
  }
}
runThenCleanUp(run, cleanUp)
