#!/usr/bin/env node
// Issue 58, item 3: the writes members make most (status post, comment, reaction, enrolment, lesson
// progress, event participation, card checkout) on the seeded community (bench/scale/seed.mjs).
//
// 0. Set-up through the API: business information and payout settings, submitted and approved (a
//    checkout refuses without them); the requests of every write picked from the list routes, each a
//    real new write (writeCases.mjs).
// 1. Latency: the built server (one process), one client, one request at a time: warm-ups, then
//    `--samples` writes: median, p99 and every status seen (each must be 2xx and a new write).
// 2. Statements and plans: one more of each write to Roda embedded in this process with a recording
//    node-postgres client (recorder.mjs): statements per request, each replayed under EXPLAIN (ANALYZE,
//    BUFFERS) in a rolled-back transaction, flagging any Seq Scan or Sort of more than 10,000 rows. The
//    write is committed before its replay, so an INSERT of the same key fails there (counted); plain
//    EXPLAIN of every statement (nothing runs) lists the Seq Scans planned, flagged on tables over 10,000 rows.
// Writes bench/results/write-sweep.json and the table bench/results/write-sweep.md.
//
//   node bench/scale/writes.mjs [--pg postgres://postgres@127.0.0.1:5432] [--community 0] [--port 4398]
//     [--dir /tmp/roda-scale] [--seeded bench/scale/seeded.json] [--samples 30] [--warmups 3]
//     [--out bench/results/write-sweep]
import { readFileSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { cpuMs, option, stop } from "../harness.mjs"
import { apiClient, headersOf, percentile, startScaleServer } from "./api.mjs"
import { explainClient, explainStatements, oneLine, startRecordingRoda } from "./recorder.mjs"
import { setUpSelling, writeCases } from "./writeCases.mjs"

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, "../..")
const opt = option(process.argv.slice(2))
const PG = String(opt("pg", "postgres://postgres@127.0.0.1:5432")).replace(/\/$/, "")
const PORT = Number(opt("port", 4398))
const dir = String(opt("dir", "/tmp/roda-scale"))
const SAMPLES = Number(opt("samples", 30))
const WARMUPS = Number(opt("warmups", 3))
const seeded = JSON.parse(readFileSync(String(opt("seeded", join(here, "seeded.json"))), "utf8"))
const communityIndex = Number(opt("community", 0))
const community = seeded.communities[communityIndex]
const databaseUrl = `${PG}/${seeded.database}`
const TARGET = { median: 25, p99: 60 }

const server = await startScaleServer({ root, dir, label: "scale-writes", port: PORT, databaseUrl, seeded })
const base = `http://127.0.0.1:${PORT}`
const api = apiClient(base, community.id)
const tokens = {
  member: await api.login(community.member.email, seeded.password),
  memberId: community.member.id,
  owner: await api.login(seeded.owner.email, seeded.password)
}
const memberTokens = new Map()
const memberToken = async (k) => {
  if (!memberTokens.has(k)) {
    memberTokens.set(k, await api.login(`member-${communityIndex}-${k}@scale.test`, seeded.password))
  }
  return memberTokens.get(k)
}

let cases
try {
  console.log(`set-up: ${await setUpSelling(api, tokens.owner, community.id)}`)
  // warm-ups + samples on the server, then one more for the recording library
  cases = await writeCases(api, { tokens, memberToken, community, communityIndex, count: WARMUPS + SAMPLES + 1 })
} catch (e) {
  await stop(server)
  throw e
}
console.log(`${cases.length} writes, ${WARMUPS} warm-ups and ${SAMPLES} samples each`)

// 1. Latency on the built server.
const send = ({ token, path, body }, method) => api.call(token, method, path, body)
const tally = (statuses) =>
  Object.entries(statuses.reduce((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {})).map(([s, n]) => `${s}×${n}`).join(
    ", "
  )

try {
  for (const c of cases) {
    const statuses = []
    const samples = []
    const refused = []
    let cpu = 0
    for (const [i, request] of c.requests.slice(0, WARMUPS + SAMPLES).entries()) {
      const cpu0 = cpuMs(server.pid)
      const { status, ms, json } = await send(request, c.method)
      if (i >= WARMUPS) cpu += cpuMs(server.pid) - cpu0
      if (!c.ok(status, json)) refused.push({ i, status, body: JSON.stringify(json).slice(0, 300) })
      if (i < WARMUPS) continue
      statuses.push(status)
      samples.push(ms)
    }
    samples.sort((a, b) => a - b)
    Object.assign(c, {
      status: tally(statuses),
      samples: samples.length,
      median: percentile(samples, 50),
      p99: percentile(samples, 99),
      cpu: cpu / samples.length,
      refused
    })
    console.log(
      `${c.name}: ${c.status}, median ${c.median.toFixed(1)} ms, p99 ${c.p99.toFixed(1)} ms, server CPU ${
        c.cpu.toFixed(1)
      } ms`
    )
    for (const r of refused) console.log(`  not a new write (#${r.i}): ${r.status} ${r.body}`)
  }
} finally {
  await stop(server)
}

/**
 * Seq Scans in plain EXPLAIN of `statements` (nothing runs, so the committed write's own INSERTs, which
 * the replay cannot run again, are planned too): `{ relation, rows, text }`, rows as pg_class counts them.
 */
const plannedScans = async (client, statements) => {
  const scans = new Map()
  for (const { text, values } of statements) {
    if (!/^\s*(SELECT|WITH|INSERT|UPDATE|DELETE)\b/i.test(text)) continue
    let plan
    try {
      plan = (await client.query(`EXPLAIN (FORMAT JSON) ${text}`, values)).rows[0]["QUERY PLAN"][0].Plan
    } catch {
      continue
    }
    const walk = (node) => {
      const relation = node["Relation Name"]
      if (node["Node Type"] === "Seq Scan" && !scans.has(relation)) scans.set(relation, oneLine(text).slice(0, 100))
      for (const child of node.Plans ?? []) walk(child)
    }
    walk(plan)
  }
  if (scans.size === 0) return []
  const { rows } = await client.query(
    "SELECT relname, greatest(reltuples, 0)::bigint AS n FROM pg_class WHERE relkind = 'r' AND relname = ANY($1)",
    [[...scans.keys()]]
  )
  return rows.map((r) => ({ relation: r.relname, rows: Number(r.n), text: scans.get(r.relname) }))
}

// 2. Statements and plans, Roda embedded with the recording client.
const recording = await startRecordingRoda(databaseUrl)
const explainer = await explainClient(databaseUrl)
try {
  for (const c of cases) {
    const { token, path, body } = c.requests[WARMUPS + SAMPLES]
    const request = new globalThis.Request(`http://localhost${path}`, {
      method: c.method,
      headers: headersOf(community.id, token, body),
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const { status, body: answer, statements } = await recording.answer(request)
    let json = {}
    try {
      json = JSON.parse(Buffer.from(answer).toString("utf8"))
    } catch {
      // not JSON: {}
    }
    c.statusEmbedded = status
    if (!c.ok(status, json)) c.refused.push({ i: "embedded", status, body: JSON.stringify(json).slice(0, 300) })
    c.statements = statements.length
    c.statementTexts = statements.map((s) => s.text.replace(/\s+/g, " ").trim().slice(0, 160))
    Object.assign(c, await explainStatements(explainer, statements))
    c.seqScans = await plannedScans(explainer, statements)
  }
} finally {
  await explainer.end()
  await recording.dispose()
}

const ms = (value) => (value === undefined ? "-" : value.toFixed(1))
const row = (cells) => `| ${cells.join(" | ")} |`
const findingsOf = (c) => [
  ...(c.median > TARGET.median ? [`median > ${TARGET.median} ms`] : []),
  ...(c.p99 > TARGET.p99 ? [`p99 > ${TARGET.p99} ms`] : []),
  ...(c.refused.length > 0 ? [`${c.refused.length} not a new 2xx write`] : []),
  ...c.findings,
  ...c.seqScans.filter((s) => s.rows > 10_000).map((s) =>
    `planned Seq Scan on ${s.relation} (${s.rows} rows) [${s.text}]`
  ),
  ...(c.failures > 0 ? [`${c.failures} not replayable (the write is committed)`] : [])
]
const lines = [
  `Seeded: ${
    Object.entries(seeded.counts).map(([k, v]) => `${k} ${v.toLocaleString("en")}`).join(", ")
  } (per community, two communities); \`${community.slug}\`.`,
  "",
  `Median and p99 of one client on the built server (one process), ${SAMPLES} new writes each after ${WARMUPS} warm-ups`,
  "(status: every answer of the samples); statements of one more write to the embedded library with a recording",
  "client (its status in brackets), the slowest statement's execution time and any Seq Scan or Sort of more",
  `than 10,000 rows in \`EXPLAIN (ANALYZE, BUFFERS)\` of them. Target: ≤ ${TARGET.median} ms median, ≤ ${TARGET.p99} ms p99.`,
  "",
  row(["write", "route", "status", "median ms", "p99 ms", "statements", "slowest statement ms", "findings"]),
  row(["---", "---", "---", "---:", "---:", "---:", "---:", "---"])
]
for (const c of cases) {
  lines.push(row([
    c.name,
    `\`${c.method} ${c.route}\``,
    `${c.status} (${c.statusEmbedded})`,
    ms(c.median),
    ms(c.p99),
    String(c.statements),
    ms(c.slowest?.ms),
    findingsOf(c).join("; ") || "-"
  ]))
}
const watch = cases.flatMap((c) =>
  c.seqScans.filter((s) => s.rows >= 1000 && s.rows <= 10_000).map((s) =>
    `${c.name}: ${s.relation} (${s.rows} rows) [${s.text}]`
  )
)
if (watch.length > 0) {
  lines.push(
    "",
    `Planned Seq Scans of tables of 1,000 to 10,000 rows (to watch at a larger scale): ${watch.join("; ")}.`
  )
}
lines.push(
  "",
  `Server CPU per write (ms, /proc ticks): ${cases.map((c) => `${c.name} ${c.cpu.toFixed(1)}`).join("; ")}.`
)
lines.push("", "Slowest statement of each write:", "")
for (const c of cases) lines.push(`- ${c.name}: ${ms(c.slowest?.ms)} ms \`${(c.slowest?.text ?? "").slice(0, 160)}\``)
const missing = cases.filter((c) => findingsOf(c).some((f) => !f.includes("not replayable")))
lines.push("", `${cases.length} writes measured; ${missing.length} miss a target or were refused.`, "")

const out = String(opt("out", join(root, "bench/results/write-sweep")))
const saved = cases.map(({ requests, ok: _ok, ...c }) => ({
  ...c,
  example: requests[WARMUPS + SAMPLES] && { ...requests[WARMUPS + SAMPLES], token: undefined }
}))
writeFileSync(
  `${out}.json`,
  JSON.stringify({ seeded: seeded.counts, community: community.slug, samples: SAMPLES, cases: saved }, null, 1)
)
writeFileSync(`${out}.md`, lines.join("\n"))
console.log(lines.join("\n"))
process.exit(0)
