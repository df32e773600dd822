#!/usr/bin/env node
// An outside attacker's pass over a running Roda, driven only by its `GET /api/openapi.json`:
//   1. every operation with the other community's ids: never 2xx, never a mark of the other community;
//   2. every operation as every caller (anonymous, a non-member, owner, admin, moderator, finance,
//      member): no 2xx to a role the description refuses, and a refused write changes nothing;
//   3. malformed input on every operation: types, sizes, Unicode, ids, cursors, headers, bodies.
// Zero 5xx, zero cross-community reads, zero writes by a refused role; exits 1 on any finding.
//
//   node scripts/sweep.mjs [--quick] [--base-url http://host:port] [--width 4]
//
// Without --base-url it starts the built `roda-server` (`pnpm build` first) on a free port, on an
// embedded database in a temp folder, or on DATABASE_URL when that is set. It seeds through the public
// API only (accounts, two communities, a member of each role, one resource of each kind).
import { parseArgs } from "node:util"
import { describeFinding } from "./sweep/classify.mjs"
import { send } from "./sweep/http.mjs"
import { crossCommunityPass, malformedPass, newRun, rolePass } from "./sweep/passes.mjs"
import { seedWorld } from "./sweep/seed.mjs"
import { startServer } from "./sweep/server.mjs"
import { operationsOf } from "./sweep/variants.mjs"

const { values: flags } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    "base-url": { type: "string" },
    width: { type: "string", default: "4" }
  }
})

const log = (line) => process.stdout.write(`${line}\n`)
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`

const main = async () => {
  const started = performance.now()
  const server = flags["base-url"] === undefined
    ? await startServer({ databaseUrl: process.env.DATABASE_URL, log })
    : undefined
  const base = flags["base-url"] ?? server.base
  try {
    const document = await send(base, { method: "GET", path: "/api/openapi.json" })
    if (document.status !== 200) throw new Error(`GET /api/openapi.json answered ${document.status}`)
    const operations = operationsOf(document.body)
    log(`${operations.length} operations in the document (${seconds(started)})`)
    const world = await seedWorld(base, server?.confirmLink)
    log(`seeded two communities through the API (${seconds(started)})`)
    const run = newRun(base, { quick: flags.quick, width: Number(flags.width) })
    for (const [name, pass] of [["cross", crossCommunityPass], ["malformed", malformedPass], ["roles", rolePass]]) {
      const at = performance.now()
      await pass(run, operations, world)
      log(`pass ${name}: ${run.requests[name] ?? 0} requests in ${seconds(at)}`)
    }
    const total = Object.values(run.requests).reduce((a, b) => a + b, 0)
    log(`\n${flags.quick ? "quick" : "full"} sweep of ${base}: ${total} requests in ${seconds(started)}`)
    log(`requests per pass: ${JSON.stringify(run.requests)}`)
    log(`statuses: ${JSON.stringify(run.statuses)}`)
    for (const [note, count] of Object.entries(run.notes)) log(`${note}: ${count}`)
    const byReason = {}
    for (const f of run.findings) {
      const kind = f.reason.replace(/ [0-9a-f-]{36}.*| \d{3} .*|markB\w+|markA\w+/g, "")
      byReason[kind] = (byReason[kind] ?? 0) + 1
    }
    log(`findings: ${run.findings.length} ${JSON.stringify(byReason)}`)
    for (const f of run.findings) log(`  ${describeFinding(f)}`)
    if (server !== undefined && run.findings.some((f) => f.status >= 500)) {
      log(`\nthe server's output:\n${server.output().slice(-4000)}`)
    }
    return run.findings.length === 0 ? 0 : 1
  } finally {
    await server?.stop()
  }
}

main().then((code) => process.exit(code), (error) => {
  process.stderr.write(`the sweep could not run: ${error?.stack ?? error}\n`)
  process.exit(2)
})
