#!/usr/bin/env node
// Webhook deliveries (issue 54, item 4): how many a second one process sends to a local receiver.
// A first process commits the events (no worker); a second one, started on the same database,
// delivers them all; the rate is counted from the first request the receiver gets to the last.
//
//   node bench/webhooks.mjs [--events 5000] [--endpoints 10] [--pg postgres://postgres@127.0.0.1:5432]
//   node bench/webhooks.mjs --embedded    (the embedded database in a temporary folder)
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { performance } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import pg from "pg"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const args = process.argv.slice(2)
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`)
  return i < 0 ? fallback : args[i + 1]
}
const EVENTS = Number(opt("events", 5000))
const ENDPOINTS = Number(opt("endpoints", 10))
const EMBEDDED = args.includes("--embedded")
const PG = String(opt("pg", "postgres://postgres@127.0.0.1:5432")).replace(/\/$/, "")
const DB = "roda_bench_webhooks"
const dir = mkdtempSync(join(tmpdir(), "roda-bench-webhooks-"))
const env = { ...process.env }
if (EMBEDDED) delete env.DATABASE_URL
else {
  const admin = new pg.Client({ connectionString: `${PG}/postgres` })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`)
  await admin.query(`CREATE DATABASE ${DB}`)
  await admin.end()
  env.DATABASE_URL = `${PG}/${DB}`
}

let received = 0
let first = 0
let last = 0
let finish
const done = new Promise((resolveDone) => (finish = resolveDone))
const receiver = createServer((request, response) => {
  request.resume()
  request.on("end", () => {
    received++
    last = performance.now()
    if (received === 1) first = last
    response.writeHead(200).end()
    if (received === EVENTS * ENDPOINTS) finish()
  })
})
await new Promise((ready) => receiver.listen(0, "127.0.0.1", ready))
const url = `http://127.0.0.1:${receiver.address().port}/hook`

const child = (phaseArgs) =>
  spawn(process.execPath, ["--import", "tsx", "test/webhooks/bench-child.ts", ...phaseArgs], {
    cwd: join(root, "packages/core"),
    env,
    stdio: ["ignore", "inherit", "inherit"]
  })
const exited = (process_) => new Promise((settle) => process_.on("exit", settle))

const seeding = child(["seed", join(dir, "db"), url, String(EVENTS), String(ENDPOINTS)])
if ((await exited(seeding)) !== 0) throw new Error("seeding failed")
const worker = child(["deliver", join(dir, "db")])
const timeout = setTimeout(() => finish(), 300_000)
await done
clearTimeout(timeout)
worker.kill("SIGTERM")
await exited(worker)
receiver.close()
rmSync(dir, { recursive: true, force: true })
const seconds = (last - first) / 1000
console.log(JSON.stringify({
  database: EMBEDDED ? "embedded" : "postgres",
  events: EVENTS,
  endpoints: ENDPOINTS,
  deliveries: received,
  seconds: Number(seconds.toFixed(2)),
  perSecond: Math.round((received - 1) / seconds)
}))
