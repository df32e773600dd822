// Helpers the wrk benchmarks share: Roda servers started from a build, wrk runs, CPU time from /proc,
// and throw-away databases. Processes are stopped by their own pid only.
import { execFileSync, spawn } from "node:child_process"
import { openSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import pg from "pg"

/** What every bench server runs with, besides PORT and its database. */
export const rodaEnv = {
  HOST: "127.0.0.1",
  JWT_SECRET: "bench-jwt-secret-bench-jwt-secret-0123456789",
  PAYMENT_GATEWAY: "sandbox",
  SANDBOX_WEBHOOK_SECRET: "bench-sandbox-webhook-secret-0123456789",
  // The benches post as one member far beyond the posting limit (20 a minute): off, as the raw servers have none.
  RATE_LIMITS: JSON.stringify({ posting: 0 }),
  LOG_LEVEL: "warn",
  NODE_ENV: "production",
  // One process, as the raw servers are and as every result before `WORKERS` was measured; a bench of
  // several (bench/workers.mjs) says so in its `extra`.
  WORKERS: "1"
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** The middle value (the lower of the two middle ones for an even count). */
export const lowerMedian = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]

/**
 * The Node flags a script's shebang asks for (`#!/usr/bin/env -S node --flag …`): servers are measured
 * as their binaries run them.
 */
export const shebangFlags = (script) => {
  const first = readFileSync(script, "utf8").split("\n", 1)[0]
  const flags = /^#!\/usr\/bin\/env -S node (.+)$/.exec(first)?.[1]
  return flags === undefined ? [] : flags.trim().split(/\s+/)
}

/**
 * Spawns `mainJs` (a built packages/http-node/dist/main.js) on `port` with `extra` env (its database),
 * logging to `dir/label.log`, and answers the child once /readyz is 200, with `port`, `label` and
 * `readyMs` (spawn to ready). A DATABASE_URL of the caller's environment is not passed on.
 */
export const startRoda = async ({ mainJs, dir, label, port, extra }) => {
  const out = openSync(join(dir, `${label}.log`), "w")
  const { DATABASE_URL: _ignored, ...inherited } = process.env
  const began = performance.now()
  const child = spawn(process.execPath, [...shebangFlags(mainJs), mainJs], {
    env: { ...inherited, ...rodaEnv, PORT: String(port), ...extra },
    stdio: ["ignore", out, out]
  })
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${label} exited: see ${dir}/${label}.log`)
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status === 200, () => false)
    if (ok) return Object.assign(child, { port, label, readyMs: performance.now() - began })
    await sleep(20)
  }
}

export const stop = (child) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((r) => (child.once("exit", r), child.kill("SIGTERM")))

const TICK_MS = 1000 / Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim() || 100)

/** User + system CPU time of a process so far, in ms; 0 once it is gone. */
export const cpuMs = (pid) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(f[11]) + Number(f[12])) * TICK_MS
  } catch {
    return 0
  }
}

/** CPU so far of each PostgreSQL backend connected to `database` (pg_stat_activity), by pid. */
export const backendCpu = async (pgBase, database) => {
  const client = new pg.Client({ connectionString: `${pgBase}/postgres` })
  await client.connect()
  try {
    const { rows } = await client.query("SELECT pid FROM pg_stat_activity WHERE datname = $1", [database])
    return new Map(rows.map((r) => [r.pid, cpuMs(r.pid)]))
  } finally {
    await client.end()
  }
}

const toMs = (value, unit) => Number(value) * { us: 0.001, ms: 1, s: 1000, m: 60000 }[unit]

/**
 * One wrk run of `path` on `server` with `headers` (written to the lua file `lua`): req/s, p99 (ms),
 * the server's CPU per request (ms), the request count and the non-2xx responses plus socket errors.
 * `timeout` is wrk's --timeout (its default, 2 s, when absent).
 */
export const wrk = ({ server, path, headers, seconds, connections, lua, timeout }) => {
  writeFileSync(lua, Object.entries(headers).map(([k, v]) => `wrk.headers["${k}"] = "${v}"`).join("\n"))
  const cpu0 = cpuMs(server.pid)
  const out = execFileSync("wrk", [
    "-t2",
    `-c${connections}`,
    `-d${seconds}s`,
    ...(timeout === undefined ? [] : ["--timeout", timeout]),
    "--latency",
    "-s",
    lua,
    `http://127.0.0.1:${server.port}${path}`
  ]).toString()
  const requests = Number(/(\d+) requests in/.exec(out)?.[1])
  if (!(requests > 0)) throw new Error(`wrk failed on ${path}: ${out}`)
  const p99 = /99%\s+([\d.]+)(us|ms|s|m)\b/.exec(out)
  const bad = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0)
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]),
    p99: toMs(p99[1], p99[2]),
    cpu: (cpuMs(server.pid) - cpu0) / requests,
    requests,
    errors: bad + (sock ? sock.slice(1).reduce((a, b) => a + Number(b), 0) : 0)
  }
}

const admin = async (pgBase, sql) => {
  const client = new pg.Client({ connectionString: `${pgBase}/postgres` })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/** Drops `database` if it exists (closing its connections). */
export const dropDatabase = (pgBase, database) => admin(pgBase, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)

/** A new, empty `database` (an old one of that name is dropped first). */
export const freshDatabase = async (pgBase, database) => {
  await dropDatabase(pgBase, database)
  await admin(pgBase, `CREATE DATABASE ${database}`)
}

/** Runs `run`, then `cleanUp`, also on Ctrl-C (then exits 130); a failure is printed and exits 1. */
export const runThenCleanUp = (run, cleanUp) => {
  let interrupted = false
  process.on("SIGINT", async () => {
    if (interrupted) return
    interrupted = true
    await cleanUp()
    process.exit(130)
  })
  return run()
    .catch((e) => {
      console.error(e instanceof Error ? e.message : e)
      process.exitCode = 1
    })
    .finally(() => (interrupted ? undefined : cleanUp()))
}

/** `--name value` from `args`, `fallback` when absent; a flag without a value is `true`. */
export const option = (args) => (name, fallback) => {
  const i = args.indexOf(`--${name}`)
  if (i < 0) return fallback
  const v = args[i + 1]
  return v === undefined || v.startsWith("--") ? true : v
}
