#!/usr/bin/env node
// Certificates (issue 13): how long a batch of 1,000 recipients takes to issue, PDFs included, on a fresh
// PostgreSQL database, with one or two server processes sharing the work (a 2-core machine runs two).
//
//   node bench/certificates.mjs [--recipients 1000] [--workers 2] [--pg postgres://postgres@127.0.0.1:5432]
//
// It drives packages/core/test/certificates/batch-child.ts (the kill-and-resume test's process): the first
// process sets the community and template up and issues the batch; the others join its job worker.
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
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
const RECIPIENTS = Number(opt("recipients", 1000))
const WORKERS = Number(opt("workers", 2))
const PG = String(opt("pg", "postgres://postgres@127.0.0.1:5432")).replace(/\/$/, "")
const DB = "roda_bench_certificates"
const admin = new pg.Client({ connectionString: `${PG}/postgres` })
await admin.connect()
await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`)
await admin.query(`CREATE DATABASE ${DB}`)
const dir = mkdtempSync(join(tmpdir(), "roda-bench-certs-"))
const env = { ...process.env, DATABASE_URL: `${PG}/${DB}` }
const child = (phase, extra = []) =>
  spawn(process.execPath, [
    "--import",
    "tsx",
    "test/certificates/batch-child.ts",
    phase,
    join(dir, "db"),
    join(dir, "blobs"),
    ...extra
  ], {
    cwd: join(root, "packages/core"),
    env,
    stdio: ["ignore", "pipe", "inherit"]
  })

const first = child("setup", [String(RECIPIENTS)])
const helpers = []
let started = 0
const finished = await new Promise((resolveDone) => {
  let buffer = ""
  first.stdout.on("data", (chunk) => {
    buffer += chunk.toString()
    let index
    while ((index = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, index)
      buffer = buffer.slice(index + 1)
      if (line.startsWith("batch ")) {
        started = performance.now()
        for (let i = 1; i < WORKERS; i++) helpers.push(child("resume", ["0", line.slice(6)]))
      }
      if (line.startsWith("progress ") && Number(line.slice(9)) >= RECIPIENTS) resolveDone(performance.now())
    }
  })
})
const seconds = (finished - started) / 1000
for (const running of [first, ...helpers]) running.kill("SIGKILL")
rmSync(dir, { recursive: true, force: true })
await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`)
await admin.end()
console.log(
  `certificates: ${RECIPIENTS} issued with their PDFs in ${seconds.toFixed(1)} s ` +
    `(${WORKERS} process${WORKERS > 1 ? "es" : ""}; ${
      (RECIPIENTS / seconds).toFixed(1)
    } per second; target: under 60 s)`
)
