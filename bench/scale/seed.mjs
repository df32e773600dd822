#!/usr/bin/env node
// Issue 58, item 1: a community at scale, twice (so tenancy filters are measured).
//
//   node bench/scale/seed.mjs [--pg postgres://postgres@127.0.0.1:5432] [--db roda_scale] [--scale 1]
//     [--roda-main packages/http-node/dist/main.js] [--port 4395] [--dir /tmp/roda-scale]
//
// Drops and creates `--db`, lets the built server migrate it, then through Roda's API: the owner's account
// (its password hash is copied to every seeded account, so the sweep signs in as anyone with
// SCALE_PASSWORD), two communities, their sections and spaces (so the spaces' own rows are Roda's); then,
// with the server stopped, the bulk with set-based SQL (steps.mjs, commerce.mjs). Then ANALYZE, a table of
// row counts and step times, and bench/scale/seeded.json with the ids the GET sweep needs.
import { mkdirSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { performance } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { freshDatabase, option, startRoda, stop } from "../harness.mjs"
import { commerceSteps } from "./commerce.mjs"
import { steps } from "./steps.mjs"

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, "../..")
const opt = option(process.argv.slice(2))
const PG = String(opt("pg", "postgres://postgres@127.0.0.1:5432")).replace(/\/$/, "")
const DB = String(opt("db", "roda_scale"))
const SCALE = Number(opt("scale", 1))
const PORT = Number(opt("port", 4395))
const dir = String(opt("dir", "/tmp/roda-scale"))
const mainJs = String(opt("roda-main", join(root, "packages/http-node/dist/main.js")))
const out = String(opt("out", join(here, "seeded.json")))
const SCALE_PASSWORD = "Scale-Secret-123"
mkdirSync(dir, { recursive: true })

/** Per community, at --scale 1. */
const BASE = {
  members: 100000,
  spaces: 200,
  statusPosts: 400000,
  contentPosts: 200000,
  comments: 400000,
  courses: 1000,
  lessons: 20000,
  enrollments: 100000,
  events: 10000,
  participations: 200000,
  certificates: 50000,
  calls: 100,
  submissions: 5000,
  orders: 50000,
  subscriptions: 20000
}
const n = Object.fromEntries(Object.entries(BASE).map(([k, v]) => [k, Math.max(1, Math.round(v * SCALE))]))
n.members = Math.max(n.members, 50)
n.spaces = Math.max(n.spaces, 10)
/** Spaces per module: 60% feed, 15% courses, 10% events, 10% certificates, 5% calls (at least one each). */
const spacePlan = (() => {
  const share = { courses: 0.15, events: 0.1, certificates: 0.1, call4papers: 0.05 }
  const plan = Object.fromEntries(Object.entries(share).map(([m, s]) => [m, Math.max(1, Math.round(n.spaces * s))]))
  plan.feed = n.spaces - Object.values(plan).reduce((a, b) => a + b, 0)
  return plan
})()

const call = async (method, path, { token, community, body } = {}) => {
  const headers = { "content-type": "application/json" }
  if (token) headers.authorization = `Bearer ${token}`
  if (community) headers["x-communityid"] = community
  const res = await fetch(`http://127.0.0.1:${PORT}/api${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const json = await res.json().catch(() => ({}))
  if (!res.ok || json.success !== true) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
  return json.data
}

const times = []
const timed = async (label, run) => {
  const began = performance.now()
  const out = await run()
  times.push([label, (performance.now() - began) / 1000])
  console.log(`  ${label}: ${((performance.now() - began) / 1000).toFixed(1)} s`)
  return out
}

/** The API part: owner, two communities, sections and spaces. */
const throughApi = async () => {
  const owner = await call("POST", "/auth/register", {
    body: { fullName: "Scale Owner", email: "scale-owner@scale.test", password: SCALE_PASSWORD }
  })
  const communities = []
  for (const ci of [0, 1]) {
    const community = await call("POST", "/communities", {
      token: owner.token,
      body: { name: `Scale Community ${ci}`, slug: `scale-community-${ci}` }
    })
    const staff = { token: owner.token, community: community.id }
    const spaces = []
    const sections = []
    for (let s = 0; s < Math.max(1, Math.round(n.spaces / 20)); s++) {
      sections.push(
        await call("POST", "/sections", { ...staff, body: { title: `Seção ${s + 1}`, visibility: "public" } })
      )
    }
    let k = 0
    for (const [module, count] of Object.entries(spacePlan)) {
      for (let i = 0; i < count; i++, k++) {
        const space = await call("POST", "/spaces", {
          ...staff,
          body: {
            sectionId: sections[k % sections.length].id,
            title: `${module} ${i + 1}`,
            module,
            visibility: "public"
          }
        })
        spaces.push({ module, i, id: space.id })
      }
    }
    communities.push({ ci, id: community.id, spaces })
  }
  return { owner, communities }
}

const run = async () => {
  const started = performance.now()
  console.log(`scale ${SCALE}: ${JSON.stringify(n)}`)
  await timed("database + migrations", () => freshDatabase(PG, DB))
  const server = await timed(
    "migrate (server start)",
    () => startRoda({ mainJs, dir, label: "scale-seed", port: PORT, extra: { DATABASE_URL: `${PG}/${DB}` } })
  )
  let api
  try {
    api = await timed("API: owner, communities, sections, spaces", throughApi)
  } finally {
    await stop(server)
  }
  const db = new pg.Client({ connectionString: `${PG}/${DB}` })
  await db.connect()
  const q = async (text, values) => (await db.query(text, values)).rows
  try {
    await q(`SET TimeZone = 'UTC'`)
    const [{ password_hash: hash }] = await q(`SELECT password_hash FROM accounts WHERE id = $1`, [api.owner.id])
    await q(`CREATE TEMP TABLE scale_c (community_id uuid PRIMARY KEY, ci int, owner_profile_id uuid)`)
    await q(`CREATE TEMP TABLE scale_spaces (ci int, module text, i int, space_id uuid, PRIMARY KEY (ci, module, i))`)
    for (const c of api.communities) {
      const [{ id: ownerProfile }] = await q(`SELECT id FROM profiles WHERE community_id = $1 AND account_id = $2`, [
        c.id,
        api.owner.id
      ])
      await q(`INSERT INTO scale_c VALUES ($1, $2, $3)`, [c.id, c.ci, ownerProfile])
      for (const s of c.spaces) await q(`INSERT INTO scale_spaces VALUES ($1, $2, $3, $4)`, [c.ci, s.module, s.i, s.id])
    }
    // How many spaces of each module a community has, looked up by key: counted inside a statement, the
    // count ran once per generated row (once per row and space in a join), and the seed grew with the
    // square of the scale.
    await q(
      `CREATE TEMP TABLE scale_space_counts AS SELECT ci, module, count(*)::int AS n FROM scale_spaces GROUP BY 1, 2`
    )
    await q(`ALTER TABLE scale_space_counts ADD PRIMARY KEY (ci, module)`)
    await q(`ANALYZE scale_c, scale_spaces, scale_space_counts`)
    const t0 = new Date(Math.floor(Date.now() / 60000) * 60000).toISOString()
    for (const [label, statements] of [...steps(n, t0), ...commerceSteps(n, t0)]) {
      await timed(label, async () => {
        await q("BEGIN")
        for (const text of statements) await q(text, text.includes("$1") ? [hash] : undefined)
        await q("COMMIT")
      })
    }
    // As autovacuum leaves a settled database (this machine's server runs without it): statistics, and
    // the visibility map that lets counts and lists read an index alone.
    await timed("VACUUM (ANALYZE)", () => q("VACUUM (ANALYZE)"))
    const seeded = await timed("seeded.json", () => idsForSweep(q, api))
    writeFileSync(out, `${JSON.stringify(seeded, null, 2)}\n`)
    await printCounts(q)
  } finally {
    await db.end()
  }
  console.log("\nstep | seconds\n--- | ---:")
  for (const [label, s] of times) console.log(`${label} | ${s.toFixed(1)}`)
  console.log(`total | ${((performance.now() - started) / 1000).toFixed(1)}`)
}

/** One id of each kind per community, and who to sign in as. */
const idsForSweep = async (q, api) => {
  const one = async (text, values) => (await q(text, values))[0]?.id ?? null
  const communities = []
  for (const c of api.communities) {
    const cid = c.id
    const member = await q(
      `SELECT p.id, a.email FROM profiles p JOIN accounts a ON a.id = p.account_id
      WHERE p.community_id = $1 AND p.role = 'member'
        AND EXISTS (SELECT 1 FROM status_posts s WHERE s.community_id = $1 AND s.author_profile_id = p.id)
        AND EXISTS (SELECT 1 FROM enrollments e WHERE e.community_id = $1 AND e.profile_id = p.id)
        AND EXISTS (SELECT 1 FROM event_participants e WHERE e.community_id = $1 AND e.profile_id = p.id)
      ORDER BY (EXISTS (SELECT 1 FROM purchases x WHERE x.community_id = $1 AND x.profile_id = p.id))::int
        + (EXISTS (SELECT 1 FROM subscriptions x WHERE x.community_id = $1 AND x.profile_id = p.id))::int
        + (EXISTS (SELECT 1 FROM certificates x WHERE x.community_id = $1 AND x.profile_id = p.id))::int DESC,
        p.created_at
      LIMIT 1`,
      [cid]
    )
    const admin = await q(
      `SELECT p.id, a.email FROM profiles p JOIN accounts a ON a.id = p.account_id
      WHERE p.community_id = $1 AND p.role = 'admin' ORDER BY p.created_at LIMIT 1`,
      [cid]
    )
    const moderator = await q(
      `SELECT p.id, a.email FROM profiles p JOIN accounts a ON a.id = p.account_id
      WHERE p.community_id = $1 AND p.role = 'moderator' ORDER BY p.created_at LIMIT 1`,
      [cid]
    )
    const byModule = Object.fromEntries(c.spaces.filter((s) => s.i === 0).map((s) => [s.module, s.id]))
    communities.push({
      id: cid,
      slug: `scale-community-${c.ci}`,
      ownerProfileId: await one(`SELECT id FROM profiles WHERE community_id = $1 AND role = 'owner'`, [cid]),
      admin: admin[0] ?? null,
      moderator: moderator[0] ?? null,
      member: member[0] ?? null,
      spaces: byModule,
      statusPostId: await one(`SELECT id FROM status_posts WHERE community_id = $1 ORDER BY id DESC LIMIT 1`, [cid]),
      contentPostId: await one(`SELECT id FROM content_posts WHERE community_id = $1 ORDER BY id DESC LIMIT 1`, [cid]),
      commentId: await one(`SELECT id FROM comments WHERE community_id = $1 ORDER BY id DESC LIMIT 1`, [cid]),
      courseId: await one(
        `SELECT id FROM courses WHERE community_id = $1 AND status = 'published' AND slug = 'curso-1'`,
        [cid]
      ),
      lessonId: await one(
        `SELECT l.id FROM lessons l JOIN courses c ON c.id = l.course_id WHERE c.community_id = $1 AND c.slug = 'curso-1'
        ORDER BY l.position LIMIT 1`,
        [cid]
      ),
      eventId: await one(`SELECT id FROM events WHERE community_id = $1 ORDER BY start_time DESC LIMIT 1`, [cid]),
      certificateId: await one(`SELECT id FROM certificates WHERE community_id = $1 LIMIT 1`, [cid]),
      callId: await one(`SELECT id FROM call4papers_calls WHERE community_id = $1 AND slug = 'chamada-1'`, [cid]),
      submissionId: await one(`SELECT id FROM call4papers_submissions WHERE community_id = $1 LIMIT 1`, [cid]),
      productId: await one(`SELECT id FROM products WHERE community_id = $1 AND type = 'ONE_TIME' LIMIT 1`, [cid]),
      chargeId: await one(`SELECT id FROM charges WHERE community_id = $1 LIMIT 1`, [cid]),
      purchaseId: await one(`SELECT id FROM purchases WHERE community_id = $1 LIMIT 1`, [cid]),
      subscriptionId: await one(`SELECT id FROM subscriptions WHERE community_id = $1 ORDER BY id DESC LIMIT 1`, [cid]),
      planId: await one(`SELECT id FROM subscription_groups WHERE community_id = $1 LIMIT 1`, [cid])
    })
  }
  return {
    database: DB,
    scale: SCALE,
    counts: n,
    password: SCALE_PASSWORD,
    owner: { accountId: api.owner.id, email: "scale-owner@scale.test" },
    communities
  }
}

const printCounts = async (q) => {
  const tables = await q(`SELECT relname FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace
    AND reltuples > 0 ORDER BY relname`)
  console.log("\ntable | rows\n--- | ---:")
  for (const { relname } of tables) {
    const [{ n: count }] = await q(`SELECT count(*)::int AS n FROM "${relname}"`)
    console.log(`${relname} | ${count}`)
  }
}

run().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
