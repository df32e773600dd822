// Seeds a fresh Roda database for bench/sideBySide.mjs. The accounts, communities, spaces and one
// course go through Roda's own API (a server already running on `port`), so the rows are exactly what
// Roda writes; the bulk (authors, status posts, reactions, comments) goes in with SQL.
//
// Shape: 4 communities; the measured one (0) gets `posts / 2` status posts, the others share the rest;
// 100 author profiles per community; about a quarter of the posts carry 1-3 reactions, about a tenth
// 1-2 comments. The reader is a plain `member` of community 0 (reads) and community 1 (writes), enrolled
// in a published course of community 0 (3 modules x 4 lessons, one drip lesson, some progress).
import pg from "pg"

const COMMUNITIES = 4
const AUTHORS = 100

const call = async (base, method, path, { token, community, body } = {}) => {
  const headers = { "content-type": "application/json" }
  if (token) headers.authorization = `Bearer ${token}`
  if (community) headers["x-communityid"] = community
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const json = await res.json().catch(() => ({}))
  if (!res.ok || json.success !== true) {
    throw new Error(`seed: ${method} ${path} answered ${res.status} ${JSON.stringify(json)}`)
  }
  return json.data
}

/** Everything that goes through the API; `base` is Roda's address. */
export const throughApi = async (base) => {
  const owner = await call(base, "POST", "/auth/register", {
    body: { fullName: "Bench Owner", email: "bench-owner@bench.test", password: "Bench-Secret-123" }
  })
  const reader = await call(base, "POST", "/auth/register", {
    body: { fullName: "Bench Reader", email: "bench-reader@bench.test", password: "Bench-Secret-123" }
  })
  const communities = []
  for (let i = 0; i < COMMUNITIES; i++) {
    communities.push(
      await call(base, "POST", "/communities", {
        token: owner.token,
        body: { name: `Bench Community ${i}`, slug: `bench-community-${i}` }
      })
    )
  }
  const c0 = communities[0].id
  const staff = { token: owner.token, community: c0 }
  const section = await call(base, "POST", "/sections", { ...staff, body: { title: "Geral", visibility: "public" } })
  for (const title of ["Avisos", "Conversa"]) {
    await call(base, "POST", "/spaces", {
      ...staff,
      body: { sectionId: section.id, title, module: "feed", visibility: "public" }
    })
  }
  const coursesSpace = await call(base, "POST", "/spaces", {
    ...staff,
    body: { sectionId: section.id, title: "Cursos", module: "courses", visibility: "public" }
  })
  const course = await call(base, "POST", "/courses", {
    ...staff,
    body: {
      spaceId: coursesSpace.id,
      title: "Curso de Benchmark",
      description: "Um curso para medir a rota de detalhe.",
      level: "intermediate"
    }
  })
  const lessons = []
  for (let m = 0; m < 3; m++) {
    const module = await call(base, "POST", "/courses/module", {
      ...staff,
      body: { courseId: course.id, title: `Módulo ${m + 1}` }
    })
    for (let l = 0; l < 4; l++) {
      const drip = m === 2 && l === 3 ? { releaseAfterDays: 30 } : {}
      lessons.push(
        await call(base, "POST", "/courses/lesson", {
          ...staff,
          body: {
            moduleId: module.id,
            title: `Aula ${m + 1}.${l + 1}`,
            type: "text",
            body: `Conteúdo da aula ${m + 1}.${l + 1}. `.repeat(20),
            duration: 300 + l * 60,
            ...drip
          }
        })
      )
    }
  }
  await call(base, "PUT", `/courses/${course.id}`, { ...staff, body: { status: "published" } })
  return { owner, reader, communities, course, lessons }
}

/** Memberships of the reader, then the bulk rows; `q(text, values)` runs one statement. */
export const throughSql = async (q, ids, posts) => {
  const communityIds = ids.communities.map((c) => c.id)
  const readerProfiles = []
  for (const ci of [0, 1]) {
    const rows = await q(
      `INSERT INTO profiles (id, community_id, account_id, role, full_name) VALUES (gen_random_uuid(), $1, $2, 'member', 'Bench Reader') RETURNING id`,
      [communityIds[ci], ids.reader.id]
    )
    readerProfiles.push(rows[0].id)
  }
  await q(`CREATE TEMP TABLE bench_c (community_id uuid PRIMARY KEY, ci int, n int)`)
  const measured = Math.ceil(posts / 2)
  const rest = Math.floor((posts - measured) / (COMMUNITIES - 1))
  for (const [ci, id] of communityIds.entries()) {
    await q(`INSERT INTO bench_c VALUES ($1, $2, $3)`, [id, ci, ci === 0 ? measured : rest])
  }
  await q(`INSERT INTO accounts (id, email, full_name, password_hash, created_at, updated_at)
    SELECT md5('bench-acct-' || c.ci || '-' || k)::uuid, 'author-' || c.ci || '-' || k || '@bench.test', 'Autor ' || c.ci || '-' || k,
      NULL, now() - interval '2 years', now() - interval '2 years'
    FROM bench_c c CROSS JOIN generate_series(0, ${AUTHORS - 1}) k`)
  await q(`INSERT INTO profiles (id, community_id, account_id, role, full_name, created_at, updated_at)
    SELECT md5('bench-prof-' || c.ci || '-' || k)::uuid, c.community_id, md5('bench-acct-' || c.ci || '-' || k)::uuid, 'member',
      'Autor ' || c.ci || '-' || k, now() - interval '2 years', now() - interval '2 years'
    FROM bench_c c CROSS JOIN generate_series(0, ${AUTHORS - 1}) k`)
  // Newest first over the last 365 days; ids shaped like UUIDv7 from the time, as Roda makes them.
  await q(`INSERT INTO status_posts (id, community_id, author_profile_id, body, created_at, updated_at)
    SELECT (lpad(to_hex((extract(epoch FROM s.at) * 1000)::bigint), 12, '0') || '7' || substr(s.h, 1, 3) || 'a' || substr(s.h, 4, 15))::uuid,
      c.community_id, md5('bench-prof-' || c.ci || '-' || ((g.i * 31 + c.ci) % ${AUTHORS}))::uuid,
      'Publicação ' || g.i || ' da comunidade ' || c.ci || '. ' ||
        left(repeat('Texto de exemplo para medir o feed com algum volume de conteúdo real. ', 10), 40 + (g.i * 37) % 500),
      s.at, s.at
    FROM bench_c c
    CROSS JOIN LATERAL generate_series(0, c.n - 1) g(i)
    CROSS JOIN LATERAL (SELECT now() - make_interval(secs => 60 + g.i::float8 * 31536000 / greatest(c.n, 1)) AS at,
      md5('bench-post-' || c.ci || '-' || g.i) AS h) s`)
  const withHash =
    `(SELECT community_id, id, created_at, ('x' || substr(md5(id::text), 1, 7))::bit(28)::int AS h FROM status_posts) p`
  await q(`INSERT INTO reactions (community_id, item_type, item_id, profile_id, type, created_at)
    SELECT p.community_id, 'status', p.id, md5('bench-prof-' || c.ci || '-' || ((p.h + g.k * 17) % ${AUTHORS}))::uuid,
      (ARRAY['like','love','celebrate','insightful','funny'])[1 + (p.h + g.k) % 5], p.created_at + make_interval(secs => g.k * 30)
    FROM ${withHash} JOIN bench_c c ON c.community_id = p.community_id CROSS JOIN generate_series(1, 3) g(k)
    WHERE p.h % 4 = 0 AND g.k <= 1 + p.h % 3`)
  await q(
    `INSERT INTO comments (id, community_id, item_type, item_id, parent_id, author_profile_id, body, created_at, updated_at)
    SELECT md5('bench-comment-' || p.id || '-' || g.k)::uuid, p.community_id, 'status', p.id, NULL,
      md5('bench-prof-' || c.ci || '-' || ((p.h + g.k * 29) % ${AUTHORS}))::uuid, 'Comentário ' || g.k,
      p.created_at + make_interval(secs => g.k * 45), p.created_at + make_interval(secs => g.k * 45)
    FROM ${withHash} JOIN bench_c c ON c.community_id = p.community_id CROSS JOIN generate_series(1, 2) g(k)
    WHERE p.h % 10 = 1 AND g.k <= 1 + (p.h / 10) % 2`
  )
  await q(`DROP TABLE bench_c`)
  await q(`VACUUM ANALYZE`)
  const counts = (await q(
    `SELECT (SELECT count(*)::int FROM status_posts) AS posts,
    (SELECT count(*)::int FROM status_posts WHERE community_id = $1) AS measured,
    (SELECT count(*)::int FROM reactions) AS reactions, (SELECT count(*)::int FROM comments) AS comments`,
    [communityIds[0]]
  ))[0]
  return { readerProfiles, counts }
}

/**
 * Seeds `databaseUrl` (already migrated by the Roda server at `rodaBase`, which stays up while the
 * reader enrolls). Answers the ids and tokens the runs need.
 */
export const seed = async ({ rodaBase, databaseUrl, posts }) => {
  const started = Date.now()
  const ids = await throughApi(rodaBase)
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  let sqlInfo
  try {
    sqlInfo = await throughSql(async (text, values) => (await client.query(text, values)).rows, ids, posts)
  } finally {
    await client.end()
  }
  const c0 = ids.communities[0].id
  const reader = { token: ids.reader.token, community: c0 }
  await call(rodaBase, "POST", `/courses/${ids.course.id}/enroll`, reader)
  for (const lesson of ids.lessons.slice(0, 5)) {
    await call(rodaBase, "POST", `/courses/${ids.course.id}/lesson/${lesson.id}/progress`, {
      ...reader,
      body: { completed: true }
    })
  }
  await call(rodaBase, "POST", `/courses/${ids.course.id}/lesson/${ids.lessons[5].id}/progress`, {
    ...reader,
    body: { percent: 40, lastPositionSeconds: 120 }
  })
  return {
    communityId: c0,
    writeCommunityId: ids.communities[1].id,
    readerToken: ids.reader.token,
    readerAccountId: ids.reader.id,
    courseId: ids.course.id,
    courseSlug: ids.course.slug,
    counts: sqlInfo.counts,
    seconds: (Date.now() - started) / 1000
  }
}
