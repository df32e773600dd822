// The black-box sweep's world, made through the public API only: two communities, each with a member
// of every role and one resource of each kind a community can make without a platform operator.
// Every text the sweep writes carries its community's marker, so a leak shows in any answer.
import { send } from "./http.mjs"
import { uniqueTag } from "./variants.mjs"

export const ROLES = ["owner", "admin", "moderator", "finance", "member"]
const PASSWORD = "Sweep-Pass-9x"

const failIfNot = (reply, what) => {
  if (reply.status < 200 || reply.status > 202) {
    throw new Error(`seeding ${what}: ${reply.status} ${reply.text.slice(0, 300)}`)
  }
  return reply.body.data
}

const registerAccount = async (base, fullName) => {
  const email = `sweep-${uniqueTag()}@example.com`
  const reply = await send(base, {
    method: "POST",
    path: "/api/auth/register",
    json: { fullName, email, password: PASSWORD }
  })
  const data = failIfNot(reply, `the account of ${fullName}`)
  return { token: data.token, email, accountId: data.member?.id ?? data.id }
}

/** The certificate of a batch once the server's job has issued it (undefined after 30 s: left unseeded). */
const issued = async (base, as, batchId) => {
  for (let tries = 0; tries < 150; tries++) {
    const list = await send(base, { method: "GET", path: `/api/certificates?batchId=${batchId}&limit=1`, as })
    if (list.status === 200 && list.body.data.length > 0) return list.body.data[0]
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return undefined
}

/** One community (`label` A or B) and its world; `marker` is in every name and text it holds. */
const seedCommunity = async (base, label, confirmLink) => {
  const marker = `mark${label}${uniqueTag()}`
  const owner = await registerAccount(base, `Owner ${marker}`)
  // Inviting members needs a confirmed e-mail: the owner follows the link it was sent.
  if (confirmLink !== undefined) {
    const link = await confirmLink(owner.email)
    failIfNot(
      await send(base, {
        method: "POST",
        path: "/api/auth/confirm-email",
        json: { id: link.searchParams.get("id"), token: link.searchParams.get("token") }
      }),
      `the confirmation of ${owner.email}`
    )
  }
  const community = failIfNot(
    await send(base, {
      method: "POST",
      path: "/api/communities",
      as: owner,
      json: { name: `Community ${marker}` }
    }),
    `community ${label}`
  )
  const as = { token: owner.token, community: community.id }
  const post = async (path, json, caller = as) =>
    failIfNot(await send(base, { method: "POST", path, as: caller, json }), path)

  const callers = { owner: { ...as, profileId: community.profileId, email: owner.email } }
  for (const role of ROLES.slice(1)) {
    const account = await registerAccount(base, `${role} ${marker}`)
    const profile = await post("/api/profiles/create", { email: account.email, role })
    const caller = { token: account.token, community: community.id }
    if (profile.status === "invited") await post(`/api/profiles/${profile.id}/accept`, undefined, caller)
    callers[role] = { ...caller, profileId: profile.id, email: account.email }
  }
  // The profile the passes act on (role changes, tags, removal): not a caller, whose role must hold.
  const targetAccount = await registerAccount(base, `Target ${marker}`)
  const targetProfile = await post("/api/profiles/create", { email: targetAccount.email, role: "member" })
  if (targetProfile.status === "invited") {
    await post(`/api/profiles/${targetProfile.id}/accept`, undefined, {
      token: targetAccount.token,
      community: community.id
    })
  }
  const member = targetProfile.id

  // Private: a public section's content is any visitor's to read, and would look like a leak.
  const section = await post("/api/sections", { title: `Section ${marker}`, visibility: "private" })
  const space = (module) => post("/api/spaces", { sectionId: section.id, title: `${module} ${marker}`, module })
  const courses = await space("courses")
  const events = await space("events")
  const calls = await space("call4papers")
  const feed = await space("feed")
  const course = await post("/api/courses", { spaceId: courses.id, title: `Course ${marker}` })
  const module = await post("/api/courses/module", { courseId: course.id, title: `Module ${marker}` })
  const lesson = await post("/api/courses/lesson", {
    moduleId: module.id,
    title: `Lesson ${marker}`,
    type: "text",
    body: `Body ${marker}`
  })
  const event = await post("/api/events", {
    spaceId: events.id,
    title: `Event ${marker}`,
    type: "online",
    startTime: "2030-05-01T19:00:00Z",
    endTime: "2030-05-01T21:00:00Z",
    joinUrl: `https://meet.example.com/${marker}`
  })
  const status = await post("/api/status", { body: `Status ${marker}` })
  const content = await post("/api/content", { spaceId: feed.id, title: `Post ${marker}`, body: `Post ${marker}` })
  const tag = `tag-${marker.toLowerCase()}`
  await send(base, { method: "PUT", path: `/api/profiles/${member}/tags`, as, json: { tags: [tag] } })
  const comment = await post(`/api/status/${status.id}/comment`, { body: `Comment ${marker}` })
  const product = await post("/api/products", {
    type: "ONE_TIME",
    title: `Product ${marker}`,
    price: 4990,
    currency: "BRL"
  })
  const coupon = await post("/api/coupons", { code: `C${uniqueTag()}`.toUpperCase(), percentOff: 10, duration: "once" })
  const call = await post("/api/call4papers", { spaceId: calls.id, title: `Call ${marker}` })
  const track = await post(`/api/call4papers/${call.id}/tracks`, { name: `Track ${marker}` })
  await post(`/api/call4papers/${call.id}/publish`, undefined)
  const reviewer = await post(`/api/call4papers/tracks/${track.id}/reviewers`, { profileId: member })
  const callOwner = await post(`/api/call4papers/${call.id}/owners`, { profileId: member })
  const date = await post(`/api/call4papers/${call.id}/event-dates`, { date: "2030-12-01" })
  const submission = await post(`/api/call4papers/${call.id}/submissions`, {
    title: `Talk ${marker}`,
    abstract: `Abstract ${marker}`,
    trackId: track.id
  })
  const template = await post("/api/certificates/templates", {
    spaceId: courses.id,
    name: `Template ${marker}`,
    title: `Certificate ${marker}`,
    body: "Certificamos que {{name}} concluiu {{space}} em {{date}}. Código {{code}}.",
    fontId: "lora",
    orientation: "landscape",
    background: "#fdf6e3"
  })
  await post(`/api/certificates/templates/${template.id}/activate`, undefined)
  const batch = await post("/api/certificates", { templateId: template.id, spaceId: courses.id, profileIds: [member] })
  const certificate = await issued(base, as, batch.id)

  /** Real ids by `<segment>:<path parameter>` (see seedOf in variants.mjs). */
  const seeds = {
    "communities:id": community.id,
    "profiles:id": member,
    "sections:id": section.id,
    "spaces:id": courses.id,
    "courses:id": course.id,
    "courses:identifier": course.id,
    "courses:courseId": course.id,
    "courses:moduleId": module.id,
    "courses:lessonId": lesson.id,
    "events:id": event.id,
    "events:identifier": event.id,
    "status:id": status.id,
    "status:statusId": status.id,
    "status:commentId": comment.id,
    "feed:type": "status",
    "feed:id": status.id,
    "products:id": product.id,
    "coupons:id": coupon.id,
    "call4papers/spaces:spaceId": calls.id,
    "call4papers/spaces:slug": call.slug,
    "call4papers:id": call.id,
    "call4papers:trackId": track.id,
    "call4papers:reviewerId": reviewer.id,
    "call4papers:ownerId": callOwner.id,
    "call4papers:dateId": date.id,
    "call4papers:sid": submission.id,
    "certificates/templates:id": template.id,
    "certificates/batches:id": batch.id,
    ...(certificate === undefined ? {} : { "certificates:id": certificate.id, "certificates:code": certificate.code }),
    "content:id": content.id,
    "profiles:tag": tag,
    "admin:communityId": community.id,
    "*:profileId": member,
    "*:spaceId": courses.id,
    "*:sectionId": section.id,
    "*:courseId": course.id,
    "*:moduleId": module.id,
    "*:lessonId": lesson.id,
    "*:eventId": event.id,
    "*:statusId": status.id,
    "*:productId": product.id,
    "*:trackId": track.id,
    "*:templateId": template.id,
    "*:communityId": community.id
  }
  // Ids, and the slug, code and tag a client could find this community's resources by.
  const ids = new Set([
    ...Object.values(seeds).filter((value) => /^[0-9a-f]{8}-[0-9a-f]{4}-/.test(value)),
    call.slug,
    tag,
    ...(certificate === undefined ? [] : [certificate.code]),
    ...Object.values(callers).map((caller) => caller.profileId),
    ...[...Object.values(callers), owner].map((caller) => caller.email)
  ])
  return { label, marker, community: community.id, callers, seeds, ids }
}

/** Both communities, and an account that belongs to neither. */
/** `confirmLink(email)`: the confirmation link sent to `email` (a server given `--base-url` has none to read). */
export const seedWorld = async (base, confirmLink) => {
  const a = await seedCommunity(base, "A", confirmLink)
  const b = await seedCommunity(base, "B", confirmLink)
  const outsider = await registerAccount(base, "Outsider")
  return { a, b, outsider }
}
