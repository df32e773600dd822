#!/usr/bin/env node
// Checks a database seeded by bench/scale/seed.mjs: starts the built server on it, signs in as the seeded
// member, an admin and the owner (the password in seeded.json), and calls GET routes of each community,
// printing status, latency and how many items each answered. Exits 1 when one is not 200 or comes back
// empty where the seed put data, or when the ledger does not add up (each balance the sum of its entries and
// the running `balance_after` of its last one).
//
//   node bench/scale/verify.mjs [--pg postgres://postgres@127.0.0.1:5432] [--port 4396] [--dir /tmp/roda-scale]
import { readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { performance } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { option, startRoda, stop } from "../harness.mjs"

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, "../..")
const opt = option(process.argv.slice(2))
const PG = String(opt("pg", "postgres://postgres@127.0.0.1:5432")).replace(/\/$/, "")
const PORT = Number(opt("port", 4396))
const dir = String(opt("dir", "/tmp/roda-scale"))
const mainJs = String(opt("roda-main", join(root, "packages/http-node/dist/main.js")))
const seeded = JSON.parse(readFileSync(join(here, "seeded.json"), "utf8"))

const request = async (method, path, { token, community, body } = {}) => {
  const headers = { "content-type": "application/json" }
  if (token) headers.authorization = `Bearer ${token}`
  if (community) headers["x-communityid"] = community
  const began = performance.now()
  const res = await fetch(`http://127.0.0.1:${PORT}/api${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const json = await res.json().catch(() => ({}))
  return { status: res.status, json, ms: performance.now() - began }
}
const login = async (email) => {
  const { status, json } = await request("POST", "/auth/login", { body: { email, password: seeded.password } })
  if (status !== 200) throw new Error(`login ${email}: ${status} ${JSON.stringify(json)}`)
  return json.data.token
}
/** How many items an answer holds: `data`'s length when a list (a page), else 1 (a detail). */
const itemsOf = (data) => {
  if (Array.isArray(data)) return data.length
  return data && typeof data === "object" ? 1 : 0
}

const server = await startRoda({
  mainJs,
  dir,
  label: "scale-verify",
  port: PORT,
  extra: { DATABASE_URL: `${PG}/${seeded.database}` }
})
let failed = 0
try {
  const owner = await login(seeded.owner.email)
  for (const c of seeded.communities) {
    const member = await login(c.member.email)
    const admin = await login(c.admin.email)
    const as = { member, admin, owner }
    const checks = [
      ["member", "/feed"],
      ["member", "/status"],
      ["member", `/status/${c.statusPostId}/comments`],
      ["member", `/content/${c.contentPostId}`],
      ["member", `/spaces`],
      ["member", `/courses?spaceId=${c.spaces.courses}`],
      ["member", `/courses/${c.courseId}`],
      ["member", `/events?spaceId=${c.spaces.events}`],
      ["member", `/events/${c.eventId}`],
      ["member", `/communities/${c.id}/members`],
      ["member", "/profiles/list"],
      ["member", "/certificates/mine"],
      ["member", "/purchases/me"],
      ["member", "/subscriptions/me"],
      ["admin", "/products"],
      ["admin", "/manage/subscriptions"],
      ["admin", `/manage/subscriptions/${c.subscriptionId}/billings`],
      ["admin", "/manage/purchases"],
      ["admin", "/ledger/balance"],
      ["admin", "/ledger/entries"],
      ["admin", "/certificates"],
      ["owner", `/call4papers/${c.callId}/submissions`],
      ["owner", `/call4papers/submissions/${c.submissionId}/reviews`]
    ]
    for (const [who, path] of checks) {
      const { status, json, ms } = await request("GET", path, { token: as[who], community: c.id })
      const items = status === 200 ? itemsOf(json.data) : 0
      const ok = status === 200 && items > 0
      if (!ok) failed++
      console.log(
        `${ok ? "ok  " : "FAIL"} ${c.slug} ${who.padEnd(6)} GET ${path} → ${status}, ${items} items, ${
          ms.toFixed(1)
        } ms${ok ? "" : ` ${JSON.stringify(json).slice(0, 200)}`}`
      )
    }
  }
} finally {
  await stop(server)
}
const db = new pg.Client({ connectionString: `${PG}/${seeded.database}` })
await db.connect()
const ledger = (await db.query(`SELECT
  (SELECT count(*)::int FROM ledger_balances b
    WHERE b.balance <> (SELECT coalesce(sum(amount), 0) FROM ledger_entries e
        WHERE e.community_id = b.community_id AND e.account = b.account AND e.currency = b.currency)
      OR b.balance <> (SELECT balance_after FROM ledger_entries e
        WHERE e.community_id = b.community_id AND e.account = b.account AND e.currency = b.currency
        ORDER BY seq DESC LIMIT 1)) AS bad_balances,
  (SELECT count(*)::int FROM (SELECT balance_after, sum(amount) OVER (PARTITION BY community_id, account, currency
    ORDER BY seq) AS running FROM ledger_entries) x WHERE balance_after <> running) AS bad_running,
  (SELECT count(*)::int FROM (SELECT 1 FROM ledger_entries GROUP BY community_id, transaction_id, currency
    HAVING sum(amount) <> 0) x) AS unbalanced,
  (SELECT count(*)::int FROM ledger_entries) AS entries`)).rows[0]
await db.end()
const ledgerOk = ledger.bad_balances === 0 && ledger.bad_running === 0 && ledger.unbalanced === 0
if (!ledgerOk) failed++
console.log(`${ledgerOk ? "ok  " : "FAIL"} ledger: ${JSON.stringify(ledger)}`)
console.log(failed === 0 ? "all answered 200 with data; the ledger adds up" : `${failed} failed`)
process.exitCode = failed === 0 ? 0 : 1
