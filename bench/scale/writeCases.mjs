// The write sweep's cases (writes.mjs): for each write a member makes most, the route and a pool of
// requests, each a real new write the API accepts (a post not reacted to yet, a course the caller is not
// enrolled in, an event the caller is not in, …), picked through the list routes before anything is timed.
// Also the set-up a checkout needs: business information and payout settings, submitted and approved.
import { createHash } from "node:crypto"

/** A CPF with valid check digits from nine digits. */
const cpf = (nine) => {
  const digits = [...nine].map(Number)
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((s, d, i) => s + d * (length + 1 - i), 0)
    digits.push(((sum * 10) % 11) % 10)
  }
  return digits.join("")
}

/** The seeded profile `k` of community `ci`: `md5('scale-prof-<ci>-<k>')::uuid` as seed.mjs makes it. */
const seededProfileId = (ci, k) => {
  const h = createHash("md5").update(`scale-prof-${ci}-${k}`).digest("hex")
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

const must = (what, { status, json }) => {
  if (status < 200 || status > 299) throw new Error(`${what}: ${status} ${JSON.stringify(json).slice(0, 300)}`)
  return json
}

/**
 * Business information and payout settings saved, submitted (as the community's `owner`) and approved
 * (the owner is the platform admin too), unless the prerequisites are empty already. Answers what it did.
 */
export const setUpSelling = async ({ call }, owner, communityId) => {
  const missing = must("prerequisites", await call(owner, "GET", "/api/payout-settings/prerequisites")).data
  if (missing.length === 0) return "already approved"
  must(
    "business information",
    await call(owner, "POST", "/api/business-information", {
      country: "BR",
      legalName: "Comunidade de Escala Ltda",
      taxId: cpf("529982247"),
      email: "financeiro@scale.test"
    })
  )
  must("business information submit", await call(owner, "POST", "/api/business-information/submit"))
  must(
    "payout settings",
    await call(owner, "POST", "/api/payout-settings", { method: "PIX", pixKey: "pix@scale.test" })
  )
  must("payout settings submit", await call(owner, "POST", "/api/payout-settings/submit"))
  const admin = `/api/admin/communities/${communityId}`
  must("approve business information", await call(owner, "POST", `${admin}/business-information/approve`))
  must("approve payout settings", await call(owner, "POST", `${admin}/payout-settings/approve`))
  const left = must("prerequisites", await call(owner, "GET", "/api/payout-settings/prerequisites")).data
  if (left.length > 0) throw new Error(`still missing: ${JSON.stringify(left)}`)
  return "business information and payout settings approved"
}

/** The items of a keyset list (pages of 100) until `enough(items)` or its end. */
const listWhile = async ({ call }, token, path, enough) => {
  const items = []
  let cursor
  for (;;) {
    const page = `${path}${path.includes("?") ? "&" : "?"}limit=100${
      cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""
    }`
    const { status, json } = await call(token, "GET", page)
    if (status !== 200) throw new Error(`GET ${page}: ${status}`)
    items.push(...json.data)
    cursor = json.pagination?.nextCursor
    if (!cursor || enough(items)) return items
  }
}

const take = (what, pool, count) => {
  if (pool.length < count) throw new Error(`${what}: only ${pool.length} of the ${count} new writes needed`)
  return pool.slice(0, count)
}

/**
 * The cases, each `{ name, method, route, requests }` with `count` requests `{ token, path, body }` and
 * `ok(status, json)`: 2xx and a new write. `tokens` has `member` (the seeded member), `memberId`
 * (its profile) and `owner`; `memberToken(k)` signs in `member-<communityIndex>-<k>`.
 */
export const writeCases = async (api, { tokens, memberToken, community, communityIndex, count }) => {
  const { call } = api
  const member = tokens.member
  const stamp = new Date().toISOString()
  const cases = []
  const created = (status) => status === 201

  cases.push({
    name: "create a status post",
    method: "POST",
    route: "/api/status",
    ok: created,
    requests: Array.from({ length: count }, (_, i) => ({
      token: member,
      path: "/api/status",
      body: { body: `Publicação do bench de escritas ${stamp} #${i}: como estão os cursos desta semana?` }
    }))
  })

  // Other members' posts (a comment or reaction on one's own post notifies nobody).
  const others = (items) => items.filter((p) => p.author.id !== tokens.memberId)
  const posts = others(await listWhile(api, member, "/api/status", (items) => others(items).length >= count))
  cases.push({
    name: "comment on a status post",
    method: "POST",
    route: "/api/status/{id}/comment",
    ok: created,
    requests: take("comment", posts, count).map((post, i) => ({
      token: member,
      path: `/api/status/${post.id}/comment`,
      body: { body: `Comentário do bench ${stamp} #${i}: concordo!` }
    }))
  })

  const unreacted = (items) => others(items).filter((p) => p.myReaction === null)
  const reactable = unreacted(await listWhile(api, member, "/api/status", (items) => unreacted(items).length >= count))
  cases.push({
    name: "react to a status post",
    method: "POST",
    route: "/api/status/{id}/react",
    ok: (status, json) => status === 200 && json.data?.reaction === "like",
    requests: take("react", reactable, count).map((post) => ({
      token: member,
      path: `/api/status/${post.id}/react`,
      body: { type: "like" }
    }))
  })

  // Courses: pairs of a plain member (profiles 20 on) and a published course it is not enrolled in.
  const courses = (await listWhile(api, member, "/api/courses?status=published", (items) => items.length >= 100))
    .filter((c) => c.status === "published")
  const enrollments = []
  for (let k = 20; enrollments.length < count && k < 20 + 4 * count; k++) {
    const token = await memberToken(k)
    for (const course of courses) {
      if (enrollments.length >= count) break
      const { status, json } = await call(token, "GET", `/api/courses/${course.id}`)
      if (status !== 200 || json.data.enrollment !== null) continue
      const lessons = json.data.modules.flatMap((m) => m.lessons).filter((l) => !l.locked)
      enrollments.push({ token, courseId: course.id, lessons })
    }
  }
  cases.push({
    name: "enroll in a course",
    method: "POST",
    route: "/api/courses/{courseId}/enroll",
    ok: (status, json) => status === 201 && json.data?.alreadyEnrolled === false,
    requests: take("enroll", enrollments, count).map((e) => ({
      token: e.token,
      path: `/api/courses/${e.courseId}/enroll`
    }))
  })

  // Progress on the enrolments just made: their first lessons, then their second ones, …
  const progress = []
  const longest = Math.max(0, ...enrollments.map((e) => e.lessons.length))
  for (let l = 0; l < longest; l++) {
    for (const e of enrollments) if (e.lessons[l]) progress.push({ ...e, lessonId: e.lessons[l].id })
  }
  cases.push({
    name: "record lesson progress",
    method: "POST",
    route: "/api/courses/{courseId}/lesson/{lessonId}/progress",
    ok: (status, json) => status === 200 && json.data !== undefined,
    requests: take("progress", progress, count).map((p) => ({
      token: p.token,
      path: `/api/courses/${p.courseId}/lesson/${p.lessonId}/progress`,
      body: { completed: true }
    }))
  })

  // Events and plain members (profiles 20 on, ten events each) not taking part in them yet; staff read
  // every status of the participants.
  const joins = []
  const events = await listWhile(api, member, "/api/events", (items) => items.length >= 3 * count)
  for (const event of events) {
    if (joins.length >= count) break
    const k = 20 + Math.floor(joins.length / 10)
    const { status, json } = await call(tokens.owner, "GET", `/api/events/${event.id}/participants?limit=100`)
    const profileId = seededProfileId(communityIndex, k)
    if (status === 200 && !json.data.some((p) => p.profileId === profileId)) {
      joins.push({ token: await memberToken(k), event })
    }
  }
  cases.push({
    name: "participate in an event",
    method: "POST",
    route: "/api/events/{id}/participate",
    ok: (status, json) => status === 200 && ["going", "waitlisted"].includes(json.data?.status),
    requests: take("participate", joins, count).map((j) => ({
      token: j.token,
      path: `/api/events/${j.event.id}/participate`
    }))
  })

  const products = (await listWhile(api, tokens.owner, "/api/products?type=ONE_TIME", () => true))
    .filter((p) => p.status === "ACTIVE" && p.allowedPaymentMethods.includes("CREDIT_CARD") && !p.hasStock)
  const productIds = products.length > 0 ? products.map((p) => p.id) : [community.productId]
  cases.push({
    name: "checkout (card)",
    method: "POST",
    route: "/api/checkout",
    ok: (status, json) => status === 201 && json.data?.status === "paid",
    requests: Array.from({ length: count }, (_, i) => ({
      token: member,
      path: "/api/checkout",
      body: {
        productId: productIds[i % productIds.length],
        paymentMethod: "CREDIT_CARD",
        installments: 1,
        cardToken: "tok_visa"
      }
    }))
  })
  return cases
}
