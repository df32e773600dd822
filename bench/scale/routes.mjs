// The GET sweep's cases: every GET operation of the OpenAPI document, with its path filled from the
// seeded community (seeded.json, or the first item of a list the API answers), asked as each role that
// may ask it. A path whose resource the seed does not hold gets a made-up id: the table shows its answer
// (404), so nothing is silently left out.

const MADE_UP = "00000000-0000-7000-8000-000000000000"

/** The first item's `field` of a list the API answers `as` a role (undefined when empty or refused). */
const firstOf = (field) => async (get, path, as) => {
  const { status, json } = await get(as, path)
  return status === 200 && Array.isArray(json.data) && json.data.length > 0 ? json.data[0][field] : undefined
}
const idOf = firstOf("id")
/** The asker's own subscription (a subscriber's routes), else the seeded one. */
const ownSubscription = async (c, get, role) =>
  (role === "anonymous" ? undefined : await idOf(get, "/api/subscriptions/me", role)) ?? c.subscriptionId
/** The asker's own certificate (a member reads only theirs), else the seeded one. */
const ownCertificate = async (c, get, role) =>
  (role === "member" ? await idOf(get, "/api/certificates/mine", role) : undefined) ?? c.certificateId

/**
 * Each path template's values: a function of the seeded community and `lookup` (the API as staff),
 * answering `{ name: value }`. The templates not here take the community's id for `{communityId}` and
 * made-up ids for the rest.
 */
const pathValues = {
  "/api/communities/{id}/members": (c) => ({ id: c.id }),
  "/api/sections/{id}": async (c, get) => ({ id: await idOf(get, "/api/sections", "admin") }),
  "/api/spaces/{id}": (c) => ({ id: c.spaces.feed }),
  "/api/courses/{id}": (c) => ({ id: c.courseId }),
  "/api/events/{id}": (c) => ({ id: c.eventId }),
  "/api/events/{id}/participants": (c) => ({ id: c.eventId }),
  "/api/events/{id}/attendance": (c) => ({ id: c.eventId }),
  "/api/events/{id}/calendar.ics": (c) => ({ id: c.eventId }),
  "/api/status/{id}/comments": (c) => ({ id: c.statusPostId }),
  "/api/content/{id}": (c) => ({ id: c.contentPostId }),
  "/api/coupons/{id}": async (c, get) => ({ id: await idOf(get, "/api/coupons", "admin") }),
  "/api/coupons/{id}/usage": async (c, get) => ({ id: await idOf(get, "/api/coupons", "admin") }),
  "/api/checkout/charges/{chargeId}": (c) => ({ chargeId: c.chargeId }),
  "/api/products/{id}": (c) => ({ id: c.productId }),
  "/api/subscription-groups/{id}": (c) => ({ id: c.planId }),
  "/api/subscription-groups/{id}/products": (c) => ({ id: c.planId }),
  "/api/subscription-groups/{id}/downsell-offers": (c) => ({ id: c.planId }),
  "/api/subscription-groups/{id}/downsell-offers/{offerId}": async (c, get) => ({
    id: c.planId,
    offerId: await idOf(get, `/api/subscription-groups/${c.planId}/downsell-offers`, "admin")
  }),
  "/api/communities/plans/{id}": async (c, get) => ({ id: await idOf(get, "/api/communities/plans", "admin") }),
  "/api/payouts/{id}": async (c, get) => ({ id: await idOf(get, "/api/payouts", "admin") }),
  "/api/reports/members/{profileId}/activity": (c) => ({ profileId: c.member.id }),
  "/api/call4papers/spaces/{spaceId}": (c) => ({ spaceId: c.spaces.call4papers }),
  "/api/call4papers/spaces/{spaceId}/calls": (c) => ({ spaceId: c.spaces.call4papers }),
  "/api/call4papers/spaces/{spaceId}/calls/{slug}": async (c, get) => ({
    spaceId: c.spaces.call4papers,
    slug: await firstOf("slug")(get, `/api/call4papers/spaces/${c.spaces.call4papers}/calls`, "admin")
  }),
  "/api/call4papers/tracks/{trackId}/reviewers": async (c, get) => ({
    trackId: await idOf(get, `/api/call4papers/${c.callId}/tracks`, "owner")
  }),
  "/api/subscriptions/{id}": async (c, get, role) => ({ id: await ownSubscription(c, get, role) }),
  "/api/subscriptions/{id}/billings": async (c, get, role) => ({ id: await ownSubscription(c, get, role) }),
  "/api/subscriptions/{id}/scheduled-change": async (c, get, role) => ({ id: await ownSubscription(c, get, role) }),
  "/api/manage/subscriptions/{subscriptionId}": (c) => ({ subscriptionId: c.subscriptionId }),
  "/api/manage/subscriptions/{subscriptionId}/billings": (c) => ({ subscriptionId: c.subscriptionId }),
  "/api/webhooks/{id}": async (c, get) => ({ id: await idOf(get, "/api/webhooks", "admin") }),
  "/api/webhooks/{id}/deliveries": async (c, get) => ({ id: await idOf(get, "/api/webhooks", "admin") }),
  "/api/certificates/spaces/{spaceId}": (c) => ({ spaceId: c.spaces.certificates }),
  "/api/certificates/templates/{id}": async (c, get) => ({
    id: await idOf(get, "/api/certificates/templates", "admin")
  }),
  "/api/certificates/batches/{id}": async (c, get) => ({
    id: await firstOf("batchId")(get, "/api/certificates", "admin")
  })
}

const CALL = /^\/api\/call4papers\/(\{id\}|\{sid\}|submissions\/\{sid\})/
const CERTIFICATE = /^\/api\/certificates\/\{id\}/
const CODE = /\{code\}/

/** The value of every `{name}` of `template` for community `c`. */
export const resolvePath = async (template, c, get, { code, exportId }, role) => {
  const known = {
    ...(CERTIFICATE.test(template) ? { certificateId: await ownCertificate(c, get, role) } : {}),
    ...(pathValues[template] === undefined ? {} : await pathValues[template](c, get, role))
  }
  return template.replace(/\{(\w+)\}/g, (_, name) => {
    if (known[name] !== undefined) return encodeURIComponent(known[name])
    if (name === "communityId") return c.id
    if (CALL.test(template) && name === "id") return c.callId
    if (CALL.test(template) && name === "sid") return c.submissionId
    if (CERTIFICATE.test(template) && name === "id") return known.certificateId
    if (CODE.test(template) && name === "code" && code !== undefined) return code
    if (template.startsWith("/api/account/exports/{id}") && name === "id" && exportId !== undefined) return exportId
    return MADE_UP
  })
}

/** Query parameters a route needs to answer at all. */
export const requiredQuery = {
  "/api/profiles/autocomplete": { q: "mem" },
  "/api/search": { q: "scale" },
  "/api/oauth/authorize/info": { request_id: MADE_UP },
  "/api/notifications/unsubscribe": { token: "x" },
  "/api/account/exports/{id}/download": { token: "x" }
}

/** Never swept: a stream that stays open (measured by bench/notificationStreams.mjs). */
export const NOT_SWEPT = {
  "/api/notifications/stream": "an open SSE stream: bench/notificationStreams.mjs measures it"
}

/** The roles that ask `operation`: anonymous where Public, the member, staff, and the owner or platform admin where only they may. */
export const rolesOf = (path, operation) => {
  const roles = ["member", "admin"]
  if (operation.security?.length === 0) roles.unshift("anonymous")
  if (path.startsWith("/api/call4papers")) roles.push("owner")
  if (path.startsWith("/api/admin")) roles.push("owner")
  return roles
}

/** Whether the operation is a keyset list (`limit` and `cursor`). */
export const isList = (operation) => {
  const names = (operation.parameters ?? []).map((p) => p.name)
  return names.includes("limit") && names.includes("cursor")
}
