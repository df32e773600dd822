#!/usr/bin/env node
// `pnpm bench:fresh`: how long a fresh embedded start takes (issue 11's target: < 1.5 s), from spawning the
// built server on a new data folder to its first 200 on /readyz: the template unpacked, PGlite opened in
// its worker thread, the server loaded. Several starts, each on a folder of its own; the median counts.
//
//   node bench/freshStart.mjs [--starts 9] [--dir /tmp/roda-bench-fresh] [--roda-main <a built main.js>]
//
// The folders are removed only after the last start. On ext4 without a journal (this project's machines),
// the inode allocator passes over inodes freed in the last 30 s to 5 min, one by one: a start right after
// removing the last one's ~800 files spent ~0.5 s more creating its own, which a first start does not.
import { mkdirSync, rmSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { lowerMedian as median, option, startRoda, stop } from "./harness.mjs"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const opt = option(process.argv.slice(2))
const STARTS = Number(opt("starts", 9))
const DIR = resolve(String(opt("dir", "/tmp/roda-bench-fresh")))
const mainJs = resolve(String(opt("roda-main", join(root, "packages/http-node/dist/main.js"))))

const main = async () => {
  rmSync(DIR, { recursive: true, force: true })
  const times = []
  try {
    for (let i = 0; i < STARTS; i++) {
      const dir = join(DIR, `start-${i}`)
      mkdirSync(dir, { recursive: true })
      const server = await startRoda({
        mainJs,
        dir,
        label: "server",
        port: 4331,
        extra: { DATA_DIR: join(dir, "data") }
      })
      times.push(server.readyMs)
      await stop(server)
    }
  } finally {
    rmSync(DIR, { recursive: true, force: true })
  }
  const sorted = [...times].sort((a, b) => a - b)
  console.log([
    `Fresh embedded start (new data folder, spawn to first 200 on /readyz), ${STARTS} starts:`,
    `median **${median(times).toFixed(0)} ms** (${sorted[0].toFixed(0)}-${sorted.at(-1).toFixed(0)}); each: ${
      times.map((t) => t.toFixed(0)).join(", ")
    } ms.`
  ].join("\n"))
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
