#!/usr/bin/env node
// Issue 58, item 2: every GET operation of /api/openapi.json on the seeded community (bench/scale/seed.mjs),
// as each role that may ask it (anonymous where Public, a member, an admin, and the owner where only an
// owner or platform admin may), on the first page and on a page 1,000 rows deep for lists.
//
// 1. Latency: the built server (one process), one client, one request at a time: median and p99.
// 2. Statements and plans: the same requests to Roda embedded in this process with a recording
//    node-postgres client (recorder.mjs): statements per request (and at limit=100 for lists, which must
//    be the same number), each replayed under EXPLAIN (ANALYZE, BUFFERS) in a rolled-back transaction,
//    flagging any Seq Scan or Sort of more than 10,000 rows.
// Writes bench/results/get-sweep.json and the table bench/results/get-sweep.md.
//
//   node bench/scale/sweep.mjs [--pg postgres://postgres@127.0.0.1:5432] [--community 0] [--port 4397]
//     [--seeded bench/scale/seeded.json] [--only <part of a path>] [--out bench/results/get-sweep]
import { readFileSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath, URLSearchParams } from "node:url"
import { option, stop } from "../harness.mjs"
import { apiClient, headersOf, percentile, startScaleServer } from "./api.mjs"
import { explainClient, explainStatements, startRecordingRoda } from "./recorder.mjs"
import { isList, NOT_SWEPT, requiredQuery, resolvePath, rolesOf } from "./routes.mjs"
import { markdownTable } from "./sweepReport.mjs"
import { prepareSweep } from "./sweepSetup.mjs"

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, "../..")
const opt = option(process.argv.slice(2))
const PG = String(opt("pg", "postgres://postgres@127.0.0.1:5432")).replace(/\/$/, "")
const PORT = Number(opt("port", 4397))
const dir = String(opt("dir", "/tmp/roda-scale"))
const only = opt("only", "")
const seeded = JSON.parse(readFileSync(String(opt("seeded", join(here, "seeded.json"))), "utf8"))
const community = seeded.communities[Number(opt("community", 0))]
const databaseUrl = `${PG}/${seeded.database}`
const DEEP_ROWS = 1000

const server = await startScaleServer({ root, dir, label: "scale-sweep", port: PORT, databaseUrl, seeded })
const api = apiClient(`http://127.0.0.1:${PORT}`, community.id)
const tokens = {
  member: await api.login(community.member.email, seeded.password),
  admin: await api.login(community.admin.email, seeded.password),
  owner: await api.login(seeded.owner.email, seeded.password)
}
const tokenOf = (role) => (role === "anonymous" ? undefined : tokens[role])
const get = (role, path) => api.call(tokenOf(role), "GET", path)
const post = (role, path, body) => api.call(tokenOf(role), "POST", path, body)
const prepared = await prepareSweep(community, get, post)
console.log(`made through the API: ${prepared.made.join(", ")}`)
const certificate = await get("admin", `/api/certificates/${community.certificateId}`)
const code = certificate.json.data?.code ?? certificate.json.data?.verificationCode

/** A cursor `DEEP_ROWS` rows into the list at `path` as `role` (pages of 100), when it is that long. */
const deepCursor = async (role, path) => {
  let cursor
  for (let rows = 0; rows < DEEP_ROWS; rows += 100) {
    const { status, json } = await get(role, withQuery(path, { limit: 100, ...(cursor ? { cursor } : {}) }))
    cursor = status === 200 ? json.pagination?.nextCursor : undefined
    if (!cursor) return undefined
  }
  return cursor
}
const withQuery = (path, query) => {
  const entries = Object.entries(query)
  if (entries.length === 0) return path
  return `${path}${path.includes("?") ? "&" : "?"}${new URLSearchParams(entries.map(([k, v]) => [k, String(v)]))}`
}

const document = (await api.call(undefined, "GET", "/api/openapi.json")).json
const cases = []
for (const [template, operations] of Object.entries(document.paths)) {
  const operation = operations.get
  if (operation === undefined || (only && !template.includes(only))) continue
  if (NOT_SWEPT[template]) {
    cases.push({ template, role: "-", page: "-", skipped: NOT_SWEPT[template] })
    continue
  }
  const known = { code, exportId: prepared.exportId }
  for (const role of rolesOf(template, operation)) {
    const path = withQuery(await resolvePath(template, community, get, known, role), requiredQuery[template] ?? {})
    cases.push({ template, role, page: "first", url: path })
    if (!isList(operation)) continue
    cases.push({ template, role, page: "limit 100", url: withQuery(path, { limit: 100 }), countOnly: true })
    const cursor = await deepCursor(role, path)
    if (cursor) cases.push({ template, role, page: `${DEEP_ROWS} deep`, url: withQuery(path, { cursor }) })
  }
}
console.log(`${cases.length} cases over ${new Set(cases.map((c) => c.template)).size} GET operations`)

// 1. Latency on the built server.
for (const c of cases) {
  if (c.skipped || c.countOnly) continue
  const first = await get(c.role, c.url)
  for (let i = 0; i < 2; i++) await get(c.role, c.url)
  const samples = []
  const count = first.ms < 20 ? 60 : first.ms < 100 ? 30 : 10
  for (let i = 0; i < count; i++) samples.push((await get(c.role, c.url)).ms)
  samples.sort((a, b) => a - b)
  Object.assign(c, {
    status: first.status,
    samples: count,
    median: percentile(samples, 50),
    p99: percentile(samples, 99)
  })
}
await stop(server)

// 2. Statements and plans, Roda embedded with the recording client.
const recording = await startRecordingRoda(databaseUrl)
const explainer = await explainClient(databaseUrl)
try {
  for (const c of cases) {
    if (c.skipped) continue
    const request = () =>
      new globalThis.Request(`http://localhost${c.url}`, { headers: headersOf(community.id, tokenOf(c.role)) })
    await recording.answer(request())
    const { status, statements } = await recording.answer(request())
    c.statusEmbedded = status
    c.statements = statements.length
    if (c.countOnly) continue
    Object.assign(c, await explainStatements(explainer, statements))
  }
} finally {
  await explainer.end()
  await recording.dispose()
}

const out = String(opt("out", join(root, "bench/results/get-sweep")))
writeFileSync(`${out}.json`, JSON.stringify({ seeded: seeded.counts, community: community.slug, cases }, null, 1))
writeFileSync(`${out}.md`, markdownTable(cases, seeded))
console.log(readFileSync(`${out}.md`, "utf8"))
process.exit(0)
