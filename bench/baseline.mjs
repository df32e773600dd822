// The practical limit for bench/sideBySide.mjs: a raw node:http + pg server on Roda's own tables that
// answers the measured routes with the same JSON as Roda, with no framework and one prepared (named)
// statement per request. It implements only the path the bench takes (a plain member with a valid token);
// other callers get a bare error.
//
//   GET  /api/feed              token (HS256, node:crypto), then ONE statement: membership, readable spaces,
//                               pins (only when the community has any), the four item types merged, author
//                               names, reaction counts by type and comment counts: the first page (20).
//   GET  /api/spaces/modules    the module catalogue serialized per request (no SQL): Roda's answer, given
//                               at start as MODULES_JSON (the catalogue is code in Roda).
//   POST /api/status            token, body checks, ONE INSERT ... SELECT (membership) RETURNING the row and
//                               its author: the same 201 body as Roda.
//   GET  /api/auth/me           token, ONE SELECT of the account.
//   GET  /api/courses/:idOrSlug token, ONE statement: membership, the course, the space access decision,
//                               modules, lessons, enrollment and progress; the outline (drip, completion) in JS.
//   GET  /healthz
// Env: PORT, DATABASE_URL, JWT_SECRET, MODULES_JSON (file), POOL (default 10), POOL_IDLE_MS (default 300000, as
// Roda's pool: the connections live through the pauses between rounds), PLATFORM_ADMIN_EMAILS.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { readFileSync } from "node:fs"
import http from "node:http"
import pg from "pg"

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.POOL ?? 10),
  idleTimeoutMillis: Number(process.env.POOL_IDLE_MS ?? 300_000)
})
const key = Buffer.from(process.env.JWT_SECRET ?? "", "utf8")
const modules = process.env.MODULES_JSON ? JSON.parse(readFileSync(process.env.MODULES_JSON, "utf8")) : []
const admins = new Set(
  (process.env.PLATFORM_ADMIN_EMAILS ?? "").split(",").map((e) => e.trim().normalize("NFC").toLowerCase()).filter(
    Boolean
  )
)
const STAFF = new Set(["owner", "admin", "moderator"])
const DAY_MS = 24 * 60 * 60 * 1000
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The account id of a valid, unexpired HS256 token, or undefined. */
const accountOf = (header) => {
  const m = /^Bearer ([^\s]+)$/.exec(header ?? "")
  if (!m) return undefined
  const token = m[1]
  const dot = token.lastIndexOf(".")
  if (dot < 0) return undefined
  const expected = createHmac("sha256", key).update(token.slice(0, dot)).digest()
  const given = Buffer.from(token.slice(dot + 1), "base64url")
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
  let claims
  try {
    claims = JSON.parse(Buffer.from(token.slice(token.indexOf(".") + 1, dot), "base64url").toString("utf8"))
  } catch {
    return undefined
  }
  if (typeof claims?.sub !== "string" || typeof claims.exp !== "number" || claims.exp <= Date.now() / 1000) {
    return undefined
  }
  return claims.sub
}

const send = (res, status, body) => res.writeHead(status, { "content-type": "application/json" }).end(body)
const ok = (res, message, data, status = 200) => send(res, status, JSON.stringify({ success: true, message, data }))
const fail = (res, status, message) => send(res, status, JSON.stringify({ success: false, message }))
const iso = (v) => (v === null || v === undefined ? null : new Date(v).toISOString())

// ---- feed: one statement ---------------------------------------------------------------------------------
const cols = (type, time) =>
  `'${type}'::text AS type, t.id, ${time} AS created_at,
  to_char(${time} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_time`
const SOURCES = {
  status: [
    `SELECT ${
      cols("status", "t.created_at")
    }, NULL::text AS title, left(t.body, 280) AS excerpt, NULL::uuid AS space_id,
      t.author_profile_id FROM status_posts t`,
    `t.community_id = $1 AND t.deleted_at IS NULL`,
    "t.created_at"
  ],
  content: [
    `SELECT ${cols("content", "t.created_at")}, t.title, left(t.body, 280) AS excerpt, t.space_id, t.author_profile_id
      FROM content_posts t`,
    `t.community_id = $1 AND t.deleted_at IS NULL AND t.space_id IN (SELECT id FROM feed_spaces)`,
    "t.created_at"
  ],
  course: [
    `SELECT ${cols("course", "t.published_at")}, t.title, left(t.description, 280) AS excerpt, t.space_id,
      t.created_by AS author_profile_id FROM courses t`,
    `t.community_id = $1 AND t.status = 'published' AND t.published_at IS NOT NULL AND t.space_id IN (SELECT id FROM feed_spaces)`,
    "t.published_at"
  ],
  event: [
    `SELECT ${
      cols("event", "t.created_at")
    }, t.title, NULL::text AS excerpt, t.space_id, NULL::uuid AS author_profile_id
      FROM events t`,
    `t.community_id = $1 AND t.deleted_at IS NULL AND t.space_id IN (SELECT id FROM feed_spaces)`,
    "t.created_at"
  ]
}
const streamParts = Object.entries(SOURCES).map(([type, [select, where, time]]) =>
  `(${select} WHERE ${where}
    AND NOT EXISTS (SELECT 1 FROM pins pn WHERE pn.community_id = t.community_id AND pn.item_type = '${type}' AND pn.item_id = t.id)
    ORDER BY ${time} DESC, t.id DESC LIMIT 21)`
)
const pinnedParts = Object.entries(SOURCES).map(([type, [select, where]]) =>
  `(${select}
    JOIN pins pn ON pn.community_id = t.community_id AND pn.item_type = '${type}' AND pn.item_id = t.id WHERE ${where})`
)
const FEED = `WITH me AS (
    SELECT p.id, p.role FROM profiles p JOIN communities c ON c.id = p.community_id AND c.deleted_at IS NULL
    WHERE p.community_id = $1 AND p.account_id = $2 AND p.removed_at IS NULL AND p.status = 'active'),
  feed_spaces AS MATERIALIZED (
    SELECT s.id FROM spaces s JOIN sections sec ON sec.community_id = s.community_id AND sec.id = s.section_id, me
    WHERE s.community_id = $1 AND (me.role IN ('owner', 'admin', 'moderator')
      OR (s.visibility <> 'secret' AND sec.visibility <> 'secret' AND cardinality(s.access_subscription_group_ids) = 0
        AND cardinality(s.access_product_ids) = 0)
      OR EXISTS (SELECT 1 FROM entitlements e WHERE e.community_id = s.community_id AND e.profile_id = me.id
        AND (e.valid_until IS NULL OR e.valid_until > now())
        AND ((e.source_type = 'plan' AND e.source_id = ANY(s.access_subscription_group_ids))
          OR (e.source_type = 'product' AND e.source_id = ANY(s.access_product_ids)))))),
  items AS (
    SELECT y.*, TRUE AS pinned FROM (${pinnedParts.join(" UNION ALL ")}) y
      WHERE EXISTS (SELECT 1 FROM pins WHERE community_id = $1)
    UNION ALL
    SELECT s.*, FALSE AS pinned FROM (${streamParts.join(" UNION ALL ")}) s),
  page AS (SELECT * FROM items WHERE EXISTS (SELECT 1 FROM me)
    ORDER BY pinned DESC, created_at DESC, type DESC, id DESC LIMIT 21)
  SELECT x.*, p.full_name AS author_name,
    (SELECT json_object_agg(r.type, r.n ORDER BY r.type) FROM (SELECT rx.type, count(*)::int AS n FROM reactions rx
      WHERE rx.community_id = $1 AND rx.item_type = x.type AND rx.item_id = x.id GROUP BY rx.type) r) AS reactions,
    (SELECT count(*)::int FROM comments cm WHERE cm.community_id = $1 AND cm.item_type = x.type AND cm.item_id = x.id
      AND cm.deleted_at IS NULL) AS comment_count
  FROM page x LEFT JOIN profiles p ON p.community_id = $1 AND p.id = x.author_profile_id
  ORDER BY x.pinned DESC, x.created_at DESC, x.type DESC, x.id DESC`

const feed = async (req, res, community, account) => {
  if (req.url.includes("?")) return fail(res, 400, "the baseline serves the first page only")
  const { rows } = await pool.query({ name: "feed", text: FEED, values: [community, account] })
  const items = rows.slice(0, 20)
  const last = items.at(-1)
  send(
    res,
    200,
    JSON.stringify({
      success: true,
      message: "Feed carregado.",
      data: items.map((row) => {
        const reactions = row.reactions ?? {}
        let reactionCount = 0
        for (const k in reactions) reactionCount += reactions[k]
        return {
          type: row.type,
          id: row.id,
          title: row.title,
          excerpt: row.excerpt,
          spaceId: row.space_id,
          author: row.author_profile_id === null
            ? null
            : { profileId: row.author_profile_id, fullName: row.author_name },
          createdAt: row.created_at.toISOString(),
          pinned: row.pinned,
          reactions,
          reactionCount,
          commentCount: row.comment_count
        }
      }),
      pagination: {
        limit: 20,
        nextCursor: rows.length > 20 && last
          ? Buffer.from(JSON.stringify([last.pinned ? 1 : 0, last.cursor_time, last.type, last.id])).toString(
            "base64url"
          )
          : null
      }
    })
  )
}

// ---- POST /api/status: one statement ---------------------------------------------------------------------
const uuidV7 = () => {
  const b = randomBytes(16)
  b.writeUIntBE(Date.now(), 0, 6)
  b[6] = 0x70 | (b[6] & 0x0f)
  b[8] = 0x80 | (b[8] & 0x3f)
  const h = b.toString("hex")
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}
const INSERT_STATUS = `WITH t AS (
    INSERT INTO status_posts (id, community_id, author_profile_id, body)
    SELECT $1, $2, p.id, $4 FROM profiles p JOIN communities c ON c.id = p.community_id AND c.deleted_at IS NULL
    WHERE p.community_id = $2 AND p.account_id = $3 AND p.removed_at IS NULL AND p.status = 'active'
    RETURNING *)
  SELECT t.id, t.author_profile_id, t.body, t.created_at, t.updated_at, a.full_name AS author_name, a.avatar_url AS author_avatar_url
  FROM t JOIN profiles a ON a.community_id = t.community_id AND a.id = t.author_profile_id`
const readBody = (req) =>
  new Promise((resolve, reject) => {
    const chunks = []
    let size = 0
    req.on("data", (c) => {
      size += c.length
      if (size <= 1 << 20) chunks.push(c)
    })
    req.on("end", () => resolve(size > 1 << 20 ? undefined : Buffer.concat(chunks)))
    req.on("error", reject)
  })
const createStatus = async (req, res, community, account) => {
  const raw = await readBody(req)
  if (raw === undefined) return fail(res, 413, "Payload too large")
  let payload
  try {
    payload = JSON.parse(raw.toString("utf8"))
  } catch {
    return fail(res, 400, "JSON inválido.")
  }
  if (payload === null || typeof payload !== "object" || Object.keys(payload).some((k) => k !== "body")) {
    return fail(res, 400, "campos")
  }
  const body = typeof payload.body === "string" ? payload.body.trim() : ""
  if (body.length === 0 || body.length > 5000) return fail(res, 400, "body")
  if (body.includes("@")) return fail(res, 400, "the baseline does not write mentions")
  const { rows } = await pool.query({
    name: "status-insert",
    text: INSERT_STATUS,
    values: [uuidV7(), community, account, body]
  })
  if (rows.length === 0) return fail(res, 403, "Você não é membro desta comunidade.")
  const r = rows[0]
  ok(res, "Publicação criada com sucesso.", {
    id: r.id,
    author: { id: r.author_profile_id, fullName: r.author_name, avatarUrl: r.author_avatar_url },
    body: r.body,
    mentions: [],
    reactions: { like: 0, love: 0, celebrate: 0, insightful: 0, funny: 0 },
    reactionCount: 0,
    myReaction: null,
    commentCount: 0,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString()
  }, 201)
}

// ---- GET /api/auth/me: one statement ---------------------------------------------------------------------
const ME = `SELECT id, email, full_name, email_verified_at, created_at FROM accounts WHERE id = $1`
const me = async (req, res, account) => {
  const { rows } = await pool.query({ name: "me", text: ME, values: [account] })
  const a = rows[0]
  if (a === undefined) return fail(res, 401, "Token inválido ou expirado.")
  ok(res, "Conta encontrada.", {
    id: a.id,
    email: a.email,
    fullName: a.full_name,
    isPlatformAdmin: a.email_verified_at !== null && admins.has(a.email.trim().normalize("NFC").toLowerCase()),
    emailVerified: a.email_verified_at !== null,
    createdAt: a.created_at.toISOString()
  })
}

// ---- GET /api/courses/:identifier: one statement ---------------------------------------------------------
const COURSE = `WITH me AS (
    SELECT p.id, p.role FROM profiles p JOIN communities c ON c.id = p.community_id AND c.deleted_at IS NULL
    WHERE p.community_id = $1 AND p.account_id = $2 AND p.removed_at IS NULL AND p.status = 'active'),
  co AS (
    SELECT id, community_id, space_id, title, slug, description, level, status, cover_url, created_at, updated_at, published_at
    FROM courses WHERE community_id = $1 AND (id = $4::uuid OR slug = $3) ORDER BY (slug = $3) LIMIT 1)
  SELECT co.*, me.id AS profile_id, me.role,
    (me.role IN ('owner', 'admin', 'moderator') OR EXISTS (SELECT 1 FROM spaces s
      JOIN sections sec ON sec.community_id = s.community_id AND sec.id = s.section_id
      WHERE s.community_id = $1 AND s.id = co.space_id
        AND ((s.visibility <> 'secret' AND sec.visibility <> 'secret' AND cardinality(s.access_subscription_group_ids) = 0
          AND cardinality(s.access_product_ids) = 0)
        OR EXISTS (SELECT 1 FROM entitlements e WHERE e.community_id = s.community_id AND e.profile_id = me.id
          AND (e.valid_until IS NULL OR e.valid_until > now())
          AND ((e.source_type = 'plan' AND e.source_id = ANY(s.access_subscription_group_ids))
            OR (e.source_type = 'product' AND e.source_id = ANY(s.access_product_ids))))))) AS can_read,
    (SELECT json_agg(m ORDER BY m.position, m.id) FROM (SELECT id, course_id, title, position, created_at, updated_at
      FROM course_modules WHERE community_id = $1 AND course_id = co.id) m) AS modules,
    (SELECT json_agg(l ORDER BY l.module_id, l.position, l.id) FROM (SELECT id, course_id, module_id, title, type, body,
      image_url, video_url, url, duration_seconds, position, release_after_days, created_at, updated_at
      FROM lessons WHERE community_id = $1 AND course_id = co.id) l) AS lessons,
    (SELECT row_to_json(e) FROM (SELECT id, course_id, profile_id, enrolled_at FROM enrollments
      WHERE community_id = $1 AND course_id = co.id AND profile_id = me.id) e) AS enrollment,
    (SELECT json_agg(g) FROM (SELECT lesson_id, completed, percent, last_position_seconds, completed_at, updated_at
      FROM lesson_progress WHERE community_id = $1 AND course_id = co.id AND profile_id = me.id) g) AS progress
  FROM co JOIN me ON TRUE`
const CONTENT_FIELD = { text: "body", image: "image_url", video: "video_url", link: "url" }
const course = async (req, res, community, account, identifier) => {
  const value = decodeURIComponent(identifier).trim().toLowerCase()
  const { rows } = await pool.query({
    name: "course",
    text: COURSE,
    values: [community, account, value, UUID.test(value) ? value : null]
  })
  const c = rows[0]
  const staff = c !== undefined && STAFF.has(c.role)
  if (c === undefined || (c.status !== "published" && !staff)) return fail(res, 404, "Curso não encontrado.")
  if (!c.can_read) return fail(res, 403, "Sem acesso ao conteúdo deste espaço.")
  const now = Date.now()
  const enrolledAt = c.enrollment === null ? undefined : new Date(c.enrollment.enrolled_at)
  const progress = new Map((c.progress ?? []).map((p) => [p.lesson_id, p]))
  const lessons = c.lessons ?? []
  const byModule = new Map()
  for (const l of lessons) {
    const list = byModule.get(l.module_id) ?? []
    list.push(l)
    byModule.set(l.module_id, list)
  }
  const lessonOf = (l) => {
    let locked = false
    let availableAt = null
    if (l.release_after_days !== null) {
      if (enrolledAt === undefined) locked = !staff && l.release_after_days > 0
      else {
        availableAt = new Date(enrolledAt.getTime() + l.release_after_days * DAY_MS)
        locked = !staff && now < availableAt.getTime()
      }
    }
    const p = progress.get(l.id)
    return {
      id: l.id,
      courseId: l.course_id,
      moduleId: l.module_id,
      title: l.title,
      type: l.type,
      body: locked ? null : l.body,
      imageUrl: locked ? null : l.image_url,
      videoUrl: locked ? null : l.video_url,
      url: locked ? null : l.url,
      durationSeconds: l.duration_seconds,
      duration: l.duration_seconds,
      position: l.position,
      order: l.position,
      hasContent: l[CONTENT_FIELD[l.type]] !== null,
      releaseAfterDays: l.release_after_days,
      createdAt: iso(l.created_at),
      updatedAt: iso(l.updated_at),
      locked,
      availableAt: iso(availableAt),
      progress: p === undefined ? null : {
        completed: p.completed,
        percent: p.percent,
        lastPositionSeconds: p.last_position_seconds,
        completedAt: iso(p.completed_at),
        updatedAt: iso(p.updated_at)
      }
    }
  }
  const completed = lessons.filter((l) => progress.get(l.id)?.completed === true).length
  ok(res, "Curso encontrado.", {
    id: c.id,
    communityId: c.community_id,
    spaceId: c.space_id,
    title: c.title,
    slug: c.slug,
    description: c.description,
    level: c.level,
    status: c.status,
    coverUrl: c.cover_url,
    createdAt: c.created_at.toISOString(),
    updatedAt: c.updated_at.toISOString(),
    publishedAt: iso(c.published_at),
    lessonCount: lessons.length,
    modules: (c.modules ?? []).map((m) => ({
      id: m.id,
      courseId: m.course_id,
      title: m.title,
      position: m.position,
      order: m.position,
      createdAt: iso(m.created_at),
      updatedAt: iso(m.updated_at),
      lessons: (byModule.get(m.id) ?? []).sort((a, b) => a.position - b.position || a.id.localeCompare(b.id)).map(
        lessonOf
      )
    })),
    enrollment: c.enrollment === null
      ? null
      : {
        id: c.enrollment.id,
        courseId: c.enrollment.course_id,
        profileId: c.enrollment.profile_id,
        enrolledAt: iso(c.enrollment.enrolled_at)
      },
    completion: {
      completedLessons: completed,
      totalLessons: lessons.length,
      percent: lessons.length === 0 ? 0 : Math.floor((completed * 100) / lessons.length)
    }
  })
}

// ---- routing -----------------------------------------------------------------------------------------------
const scoped = (handler) => (req, res, ...rest) => {
  const community = req.headers["x-communityid"]?.trim()
  if (!community || !UUID.test(community)) return fail(res, 400, "X-CommunityId")
  const account = accountOf(req.headers.authorization)
  if (account === undefined) return fail(res, 401, "Token inválido ou expirado.")
  return handler(req, res, community.toLowerCase(), account, ...rest)
}
const routes = {
  "GET /api/feed": scoped(feed),
  "POST /api/status": scoped(createStatus),
  "GET /api/spaces/modules": (req, res) => ok(res, "Módulos de espaço disponíveis.", modules),
  "GET /api/auth/me": (req, res) => {
    const account = accountOf(req.headers.authorization)
    return account === undefined ? fail(res, 401, "Token inválido ou expirado.") : me(req, res, account)
  },
  "GET /healthz": (req, res) => send(res, 200, "{\"status\":\"ok\"}")
}
const courseRoute = scoped(course)
http.createServer(async (req, res) => {
  const q = req.url.indexOf("?")
  const path = q < 0 ? req.url : req.url.slice(0, q)
  const route = routes[`${req.method} ${path}`]
  try {
    if (route) await route(req, res)
    else if (req.method === "GET" && path.startsWith("/api/courses/") && path.indexOf("/", 13) < 0) {
      await courseRoute(req, res, path.slice(13))
    } else send(res, 404, "{\"success\":false}")
  } catch (error) {
    console.error(error)
    if (!res.headersSent) fail(res, 500, "Internal server error.")
  }
}).listen(Number(process.env.PORT ?? 4201), "127.0.0.1")
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => pool.end().finally(() => process.exit(0)))
