import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { c4pSetup, type Person, submitted } from "../call4papers/submissions-support"
import { planOf, shop } from "../commerce/checkout-support"
import { join } from "../notifications/setup"
import { as } from "../support/community"
import { type CourseCommunity, courseCommunity, publishedCourse } from "../support/courses"
import { expectCreated, expectOk } from "../support/envelope"
import { onlineEvent } from "../support/events"
import { client, register, startRoda, type TestUser } from "../support/harness"
import { query } from "../support/sql"
import { createSpace } from "../support/structure"
import { exportOf, ISO } from "./files-support"

/**
 * Members' data rights (issue 56, item 3): every feature's export files, read through `PersonalData`
 * as the export job reads them. The subject (Sam) and another member (Otto) share three communities;
 * each file holds Sam's records with their fields, none of Otto's, and no secret.
 */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let sam: TestUser
let otto: TestUser
let a: CourseCommunity
const ids: Record<string, string> = {}
let c4p: Awaited<ReturnType<typeof c4pSetup>>
let store: Awaited<ReturnType<typeof shop>>
let samIn: { a: string; b: string; c: string }
let ottoIn: { a: string; c: string }

beforeAll(async () => {
  sam = await register(api, "Samuel Sujeito")
  otto = await register(api, "Otto Outro")

  // Community A: social, courses, events, moderation, notifications, certificates
  a = await courseCommunity(api, "Dados A")
  const owner = as(a.owner, a.community)
  const samA = await join(api, a, sam)
  const ottoA = await join(api, a, otto)
  const asSam = as(sam, a.community)
  const asOtto = as(otto, a.community)
  ids.samPost = expectCreated(await api.post("/api/status", { body: "Post do Sam" }, asSam)).id
  ids.ottoPost = expectCreated(await api.post("/api/status", { body: "Post do Otto" }, asOtto)).id
  ids.deletedPost = expectCreated(await api.post("/api/status", { body: "Post apagado" }, asSam)).id
  expectOk(await api.del(`/api/status/${ids.deletedPost}`, asSam))
  ids.ottoComment = expectCreated(
    await api.post(`/api/status/${ids.samPost}/comment`, { body: "Comentário do Otto" }, asOtto)
  ).id
  ids.samComment = expectCreated(
    await api.post(`/api/status/${ids.ottoPost}/comment`, { body: "Comentário do Sam" }, asSam)
  ).id
  expectOk(await api.post(`/api/status/${ids.ottoPost}/react`, { type: "like" }, asSam))
  expectOk(await api.post(`/api/status/${ids.samPost}/react`, { type: "love" }, asOtto))
  expectCreated(
    await api.post(
      "/api/reports",
      { subjectType: "status", subjectId: ids.ottoPost, reason: "spam", note: "Spam" },
      asSam
    )
  )
  expectOk(await api.put("/api/notification-preferences", { reaction: { email: "weekly" } }, asSam))
  expectOk(await api.post(`/api/spaces/${a.space.id}/follow`, undefined, asSam))

  const course = await publishedCourse(api, a, { lessons: 2 })
  ids.course = course.id
  ids.lesson = course.modules[0]!.lessons[0]!.id
  expectCreated(await api.post(`/api/courses/${course.id}/enroll`, undefined, asSam))
  expectOk(await api.post(`/api/courses/${course.id}/lesson/${ids.lesson}/progress`, { completed: true }, asSam))
  expectCreated(await api.post(`/api/courses/${course.id}/enroll`, undefined, asOtto))

  const events = await createSpace(api, a, a.section.id, { visibility: "public", module: "events" })
  ids.event = expectCreated(await api.post("/api/events", onlineEvent(events.id), owner)).id
  expectOk(await api.post(`/api/events/${ids.event}/participate`, undefined, asSam))
  expectOk(await api.post(`/api/events/${ids.event}/participate`, undefined, asOtto))
  expectOk(await api.post(`/api/events/${ids.event}/check-in`, { profileId: samA.profileId }, owner))

  // certificates are issued by a renderer; their rows are what an export reads
  for (
    const [who, profileId, code] of [[sam, samA.profileId, "SAMCODE1"], [otto, ottoA.profileId, "OTTOCODE"]] as const
  ) {
    await query(
      roda,
      (sql) =>
        sql`INSERT INTO certificates (id, community_id, space_id, template_id, profile_id, account_id, recipient_name,
          recipient_email, space_title, code, status, issued_at, created_at, updated_at)
        VALUES (gen_random_uuid(), ${a.community.id}, ${a.space.id}, gen_random_uuid(), ${profileId}, ${who.id},
          ${who.fullName}, ${who.email}, 'Espaço', ${code}, 'issued', now(), now(), now())`
    )
  }

  // Community B: a call for papers; Sam proposes a talk, the track's reviewer reviews it
  c4p = await c4pSetup(api, "Dados B")
  const samB = await join(api, c4p, sam)
  const samPerson: Person = { token: sam.token, profileId: samB.profileId, email: sam.email, fullName: sam.fullName }
  ids.samSubmission = (await submitted(api, c4p, { title: "Palestra do Sam" }, samPerson)).id
  ids.otherSubmission = (await submitted(api, c4p, { title: "Palestra de outra pessoa" })).id
  expectOk(
    await api.put(
      `/api/call4papers/submissions/${ids.samSubmission}/review`,
      { score: 4, comment: "Boa proposta" },
      as(c4p.people.reviewerA, c4p.community)
    )
  )

  // Community C: a shop; Sam buys a product and subscribes to a plan, Otto buys too
  store = await shop(api)
  const { option, plan } = await planOf(api, store)
  const samC = await join(api, store, sam)
  const ottoC = await join(api, store, otto)
  const card = { paymentMethod: "CREDIT_CARD", cardToken: "tok_visa" }
  ids.samPurchase = expectOk(
    await api.post("/api/checkout", { productId: store.product.id, ...card }, as(sam, store.community)),
    201
  ).purchaseId
  ids.samSubscription = expectOk(
    await api.post(
      "/api/checkout",
      { productId: option.id, subscriptionGroupId: plan.id, ...card },
      as(sam, store.community)
    ),
    201
  ).subscriptionId
  ids.ottoPurchase = expectOk(
    await api.post("/api/checkout", { productId: store.product.id, ...card }, as(otto, store.community)),
    201
  ).purchaseId
  samIn = { a: samA.profileId, b: samB.profileId, c: samC.profileId }
  ottoIn = { a: ottoA.profileId, c: ottoC.profileId }
}, 240_000)

describe("the export files of every feature (PersonalData.files)", () => {
  it("lists the files in the order of the design, each with a line for the README", async () => {
    const { files, subject } = await exportOf(roda, sam.id)
    expect(files.map(([name]) => name)).toEqual([
      "account.json",
      "sessions.json",
      "profiles.json",
      "posts.json",
      "comments.json",
      "reactions.json",
      "enrollments.json",
      "participations.json",
      "purchases.json",
      "subscriptions.json",
      "certificates.json",
      "submissions.json",
      "reviews.json",
      "votes.json",
      "notifications.json",
      "notification-preferences.json",
      "follows.json",
      "reports.json",
      "api-keys.json",
      "connected-apps.json"
    ])
    expect(subject.profiles.map((p) => p.profileId).sort()).toEqual([samIn.a, samIn.b, samIn.c].sort())
  })

  it("holds the subject's account, sessions and profiles in every community", async () => {
    const { byName } = await exportOf(roda, sam.id)
    expect(byName["account.json"]).toEqual([{
      id: sam.id,
      email: sam.email,
      fullName: "Samuel Sujeito",
      createdAt: expect.stringMatching(ISO),
      emailVerifiedAt: expect.stringMatching(ISO)
    }])
    expect(byName["sessions.json"]!.length).toBeGreaterThanOrEqual(1)
    expect(byName["sessions.json"]![0]).toMatchObject({
      id: expect.any(String),
      createdAt: expect.stringMatching(ISO),
      lastUsedAt: expect.stringMatching(ISO),
      endedAt: null
    })
    const profiles = byName["profiles.json"]!
    expect(profiles.map((p) => p.id).sort()).toEqual([samIn.a, samIn.b, samIn.c].sort())
    expect(profiles.find((p) => p.id === samIn.a)).toEqual({
      id: samIn.a,
      communityId: a.community.id,
      communityName: expect.stringContaining("Dados A"),
      role: "member",
      status: "active",
      fullName: "Samuel Sujeito",
      phone: null,
      bio: null,
      avatarUrl: null,
      tags: [],
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
      removedAt: null,
      suspendedUntil: null,
      bannedAt: null,
      banReason: null
    })
  })

  it("holds what the subject wrote and did, not what others wrote on it", async () => {
    const { byName } = await exportOf(roda, sam.id)
    expect(byName["posts.json"]).toEqual([{
      type: "status",
      id: ids.samPost,
      communityId: a.community.id,
      body: "Post do Sam",
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
      hiddenAt: null,
      heldAt: null
    }])
    expect(byName["comments.json"]).toEqual([{
      id: ids.samComment,
      communityId: a.community.id,
      itemType: "status",
      itemId: ids.ottoPost,
      parentId: null,
      body: "Comentário do Sam",
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
      hiddenAt: null,
      heldAt: null
    }])
    expect(byName["reactions.json"]).toEqual([{
      communityId: a.community.id,
      itemType: "status",
      itemId: ids.ottoPost,
      type: "like",
      createdAt: expect.stringMatching(ISO)
    }])
    expect(byName["reports.json"]).toEqual([{
      id: expect.any(String),
      communityId: a.community.id,
      subjectType: "status",
      subjectId: ids.ottoPost,
      reason: "spam",
      note: "Spam",
      createdAt: expect.stringMatching(ISO),
      caseStatus: "open",
      resolution: null,
      resolvedAt: null
    }])
    expect(byName["follows.json"]).toEqual([{
      communityId: a.community.id,
      spaceId: a.space.id,
      createdAt: expect.stringMatching(ISO)
    }])
    expect(byName["notification-preferences.json"]).toEqual([{
      communityId: a.community.id,
      kind: "reaction",
      inApp: true,
      email: "weekly",
      updatedAt: expect.stringMatching(ISO)
    }])
  })

  it("holds the enrollment with its lesson progress and the participation with its check-in", async () => {
    const { byName } = await exportOf(roda, sam.id)
    expect(byName["enrollments.json"]).toEqual([{
      id: expect.any(String),
      communityId: a.community.id,
      courseId: ids.course,
      courseTitle: "Curso",
      enrolledAt: expect.stringMatching(ISO),
      progress: [{
        lessonId: ids.lesson,
        lessonTitle: "Aula 1.1",
        completed: true,
        percent: 100,
        lastPositionSeconds: expect.any(Number),
        completedAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO)
      }]
    }])
    expect(byName["participations.json"]).toEqual([{
      eventId: ids.event,
      communityId: a.community.id,
      eventTitle: "Live de lançamento",
      eventStartsAt: "2030-05-01T19:00:00.000Z",
      status: "going",
      joinedAt: expect.stringMatching(ISO),
      ticketCode: expect.any(String),
      checkedInAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO)
    }])
  })

  it("holds the orders and subscriptions with money as strings of minor units and a currency", async () => {
    const { byName } = await exportOf(roda, sam.id)
    const purchases = byName["purchases.json"]!
    const sale = purchases.find((p) => p.purchaseId === ids.samPurchase)
    expect(sale).toEqual({
      id: expect.any(String),
      communityId: store.community.id,
      purchaseId: ids.samPurchase,
      productId: store.product.id,
      productTitle: "Ingresso",
      addOnProductIds: [],
      planId: null,
      status: "paid",
      paymentMethod: "CREDIT_CARD",
      installments: 1,
      currency: "BRL",
      listAmount: "10000",
      discount: "0",
      amount: "10000",
      interest: "0",
      total: "10000",
      refundedAmount: "0",
      failureReason: null,
      createdAt: expect.stringMatching(ISO),
      paidAt: expect.stringMatching(ISO),
      expiresAt: null,
      refunds: []
    })
    // the subscription's first charge is an order of Sam's too; Otto's is not
    expect(purchases.every((p) => p.communityId === store.community.id)).toBe(true)
    expect(purchases.map((p) => p.purchaseId)).not.toContain(ids.ottoPurchase)
    const mine = await query<{ id: string }>(
      roda,
      (sql) =>
        sql`SELECT id FROM charges WHERE community_id = ${store.community.id} AND profile_id = ${samIn.c} ORDER BY id`
    )
    expect(purchases.map((p) => p.id)).toEqual(mine.map((row) => row.id))

    const subscriptions = byName["subscriptions.json"]!
    expect(subscriptions).toHaveLength(1)
    expect(subscriptions[0]).toMatchObject({
      id: ids.samSubscription,
      communityId: store.community.id,
      productTitle: "Mensal",
      status: "active",
      price: "4990",
      currency: "BRL",
      paymentMethod: "CREDIT_CARD",
      cancelAtPeriodEnd: false,
      currentPeriodEnd: expect.stringMatching(ISO)
    })
    expect(subscriptions[0].cardToken).toBeUndefined()
    for (const billing of subscriptions[0].billings) {
      expect(billing).toMatchObject({ amount: expect.stringMatching(/^\d+$/), currency: "BRL" })
    }
  })

  it("holds the subject's certificates, submissions with versions, and notifications only", async () => {
    const { byName } = await exportOf(roda, sam.id)
    expect(byName["certificates.json"]).toEqual([expect.objectContaining({
      communityId: a.community.id,
      recipientName: "Samuel Sujeito",
      recipientEmail: sam.email,
      code: "SAMCODE1",
      status: "issued",
      issuedAt: expect.stringMatching(ISO),
      revokedAt: null
    })])
    expect(byName["certificates.json"]![0].pageKey).toBeUndefined()

    const submissions = byName["submissions.json"]!
    expect(submissions.map((s) => s.submissionId)).toEqual([ids.samSubmission])
    expect(submissions[0]).toMatchObject({
      communityId: c4p.community.id,
      callId: c4p.call.id,
      speakerRole: "proposer",
      title: "Palestra do Sam",
      status: "enviada",
      submittedAt: expect.stringMatching(ISO)
    })
    expect(submissions[0].versions).toEqual([
      expect.objectContaining({
        version: 1,
        title: "Palestra do Sam",
        writtenByYou: true,
        createdAt: expect.stringMatching(ISO)
      })
    ])
    // the review of Sam's talk is its reviewer's, in the reviewer's export
    expect(byName["reviews.json"]).toEqual([])
    const reviewer = await query<{ accountId: string }>(
      roda,
      (sql) => sql`SELECT account_id FROM profiles WHERE id = ${c4p.people.reviewerA.profileId}`
    )
    const reviews = (await exportOf(roda, reviewer[0]!.accountId)).byName["reviews.json"]!
    expect(reviews).toEqual([{
      submissionId: ids.samSubmission,
      communityId: c4p.community.id,
      submissionTitle: "Palestra do Sam",
      score: 4,
      comment: "Boa proposta",
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO)
    }])

    const notifications = byName["notifications.json"]!
    const inbox = await query<{ id: string }>(
      roda,
      (sql) =>
        sql`SELECT id FROM notifications WHERE recipient_profile_id IN (${samIn.a}, ${samIn.b}, ${samIn.c})
        ORDER BY created_at DESC, id DESC`
    )
    expect(inbox.length).toBeGreaterThan(0)
    expect(notifications.map((n) => n.id).sort()).toEqual(inbox.map((n) => n.id).sort())
    expect(notifications[0]).toEqual({
      id: expect.any(String),
      communityId: expect.any(String),
      kind: expect.any(String),
      subjectType: expect.any(String),
      subjectId: expect.any(String),
      subjectTitle: expect.any(String),
      inApp: expect.any(Boolean),
      createdAt: expect.stringMatching(ISO),
      readAt: null
    })
    const ottos = await query<{ id: string }>(
      roda,
      (sql) => sql`SELECT id FROM notifications WHERE recipient_profile_id IN (${ottoIn.a}, ${ottoIn.c})`
    )
    expect(ottos.length).toBeGreaterThan(0)
    expect(notifications.map((n) => n.id)).not.toEqual(expect.arrayContaining([ottos[0]!.id]))
  })

  it("writes JSON-ready records with no secret and nothing of the other member", async () => {
    const { byName } = await exportOf(roda, sam.id)
    const text = JSON.stringify(byName)
    expect(JSON.parse(text)).toEqual(byName)
    const [secrets] = await query<{ passwordHash: string; cardToken: string | null }>(
      roda,
      (sql) =>
        sql`SELECT a.password_hash, (SELECT card_token FROM subscriptions WHERE id = ${ids.samSubscription}) AS card_token
        FROM accounts a WHERE a.id = ${sam.id}`
    )
    expect(secrets!.passwordHash.length).toBeGreaterThan(10)
    expect(text).not.toContain(secrets!.passwordHash)
    if (secrets!.cardToken !== null) expect(text).not.toContain(secrets!.cardToken)
    expect(text).not.toContain(sam.token)
    expect(text).not.toMatch(/password|secret|hash/i)
    // nothing of Otto: not his e-mail, name, posts, comments, orders, certificate
    expect(text).not.toContain(otto.email)
    expect(text).not.toContain("Otto Outro")
    expect(text).not.toContain("Comentário do Otto")
    expect(text).not.toContain("OTTOCODE")
    expect(text).not.toContain(ids.ottoPurchase)
    expect(text).not.toContain(ottoIn.a)
    expect(text).not.toContain("Post apagado")
    expect(text).not.toContain("Palestra de outra pessoa")
  })
})
