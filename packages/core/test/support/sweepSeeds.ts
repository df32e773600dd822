import { type CallCommunity, publishedCall } from "../call4papers/calls-support"
import { type C4PSetup, type Person, submitted } from "../call4papers/submissions-support"
import { activeTemplate, type CertificateCommunity, issueAndWait } from "../certificates/support"
import { buyer, cardCheckout } from "../commerce/checkout-support"
import { uniqueTag } from "./envelope"
import { type CallOptions, type Client, register } from "./harness"
import { activePlanOption, activeProduct, approveBusiness, approvePayouts } from "./selling"

/**
 * Real resources for the robustness sweep's second pass (test/robustness-sweep.test.ts): one of each
 * kind in the sweep owner's community, so the query and body variants the schemas let through reach
 * the handlers' own rules instead of a 404 on a random id.
 */

/** Real ids by `<segment>:<path parameter>`, as `seedOf` (scripts/sweep/variants.mjs) reads them. */
export type Seeds = Readonly<Record<string, string>>

export { seedOf } from "../../../../scripts/sweep/variants.mjs"

/** The sweep's owner: its own password (not the document's examples') and community. */
export interface SweepOwner {
  readonly token: string
  readonly community: string
  readonly profileId: string
  readonly email: string
  readonly fullName: string
}

export interface SweepSeeds {
  /** For the owner's passes. */
  readonly seeds: Seeds
  /** For the platform operator's pass on /api/admin. */
  readonly operatorSeeds: Seeds
}

export const seedSweep = async (api: Client, owner: SweepOwner): Promise<SweepSeeds> => {
  const scoped = { token: owner.token, community: owner.community }
  const community = { id: owner.community }
  const create = async (path: string, body: unknown, options: CallOptions = scoped) => {
    const reply = await api.post(path, body, options)
    if (reply.status !== 201 && reply.status !== 200) {
      throw new Error(`seeding ${path}: ${reply.status} ${JSON.stringify(reply.body)}`)
    }
    return reply.body.data as { id: string } & Record<string, any>
  }

  // Members, structure, courses, events, posts and the catalogue.
  const member = await register(api, "Sweep Member")
  const profile = await create("/api/profiles/create", { email: member.email, role: "member" })
  const asMember = { token: member.token, community: owner.community }
  await create(`/api/profiles/${profile.id}/accept`, undefined, asMember)
  const section = await create("/api/sections", { title: "Seção" })
  const courses = await create("/api/spaces", { sectionId: section.id, title: "Cursos", module: "courses" })
  const events = await create("/api/spaces", { sectionId: section.id, title: "Eventos", module: "events" })
  const calls = await create("/api/spaces", { sectionId: section.id, title: "Chamadas", module: "call4papers" })
  const course = await create("/api/courses", { spaceId: courses.id, title: "Curso" })
  const module = await create("/api/courses/module", { courseId: course.id, title: "Módulo" })
  const lesson = await create("/api/courses/lesson", { moduleId: module.id, title: "Aula", type: "text", body: "x" })
  const event = await create("/api/events", {
    spaceId: events.id,
    title: "Live",
    type: "online",
    startTime: "2030-05-01T19:00:00Z",
    endTime: "2030-05-01T21:00:00Z",
    joinUrl: "https://meet.example.com/abc"
  })
  const status = await create("/api/status", { body: "primeiro" })
  const comment = await create(`/api/status/${status.id}/comment`, { body: "comentário" })
  const product = await create("/api/products", { type: "ONE_TIME", title: "E-book", price: 4990, currency: "BRL" })
  const coupon = await create("/api/coupons", { code: `SWEEP${uniqueTag()}`, percentOff: 10, duration: "once" })

  // Selling (the sandbox gateway): a plan the owner and the member subscribe to by card, a PIX sale
  // paid (its money is available at once, so a payout can be asked) and a PIX charge left pending.
  await approveBusiness(api, owner, community)
  await approvePayouts(api, owner, community)
  const monthly = await activePlanOption(api, owner, community)
  const plan = await create("/api/subscription-groups", { name: "Plano", productIds: [monthly.id] })
  const subscribe = (as: CallOptions) =>
    create("/api/checkout", cardCheckout(monthly.id, { subscriptionGroupId: plan.id }), as)
  const ownSubscription = await subscribe(scoped)
  const memberSubscription = await subscribe(asMember)
  const ticket = await activeProduct(api, owner, community)
  const pix = () =>
    create("/api/checkout", { productId: ticket.id, paymentMethod: "PIX", buyer: buyer() }, { community: community.id })
  const sold = await pix()
  await create(`/api/checkout/sandbox/${sold.chargeId}/pay`, {})
  const sale = (await api.get(`/api/checkout/charges/${sold.chargeId}`, scoped)).body.data
  const pending = await pix()
  const payout = await create("/api/payouts", { amount: 1000 })

  // A published call with a track, a reviewer and a co-owner invited, an event date, and the owner's
  // own submission. The helpers take their suites' setups; they read only the fields given here.
  const callSetup = { community, owner, space: { id: calls.id } } as unknown as CallCommunity
  const call = await publishedCall(api, callSetup, { communityVoting: true })
  const track = await create(`/api/call4papers/${call.id}/tracks`, { name: "Trilha" })
  const reviewer = await create(`/api/call4papers/tracks/${track.id}/reviewers`, { profileId: profile.id })
  const callOwner = await create(`/api/call4papers/${call.id}/owners`, { profileId: profile.id })
  const date = await create(`/api/call4papers/${call.id}/event-dates`, { date: "2030-12-01" })
  const proposer: Person = {
    token: owner.token,
    profileId: owner.profileId,
    email: owner.email,
    fullName: owner.fullName
  }
  // no cast of people: nobody is named as a co-speaker
  const c4pSetup = { ...callSetup, call, trackA: track, people: {} } as unknown as C4PSetup
  const submission = await submitted(api, c4pSetup, {}, proposer)

  // A certificate issued to the member from an active template of the courses space, and the signed
  // link its PDF redirects to.
  const certificateSetup = { space: { id: courses.id }, owner: () => scoped } as unknown as CertificateCommunity
  const template = await activeTemplate(api, certificateSetup)
  const issued = await issueAndWait(api, certificateSetup, template.id, [profile.id])
  const certificate = issued.certificates[0]!
  const pdf = await api.get(`/api/certificates/${certificate.id}/pdf`, scoped)
  const location = pdf.headers.get("location")
  if (location === null) throw new Error(`seeding the certificate's file: ${pdf.status} without a location`)
  const fileToken = new URL(location).pathname.split("/").pop()!

  const seeds: Seeds = {
    "communities:id": owner.community,
    "profiles:id": profile.id,
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
    "subscription-groups:id": plan.id,
    "subscriptions:id": ownSubscription.subscriptionId,
    "manage/subscriptions:subscriptionId": memberSubscription.subscriptionId,
    "checkout:chargeId": pending.chargeId,
    "checkout:gateway": "sandbox",
    "manage/purchases:id": sale.purchaseId,
    "payouts:id": payout.id,
    "call4papers/spaces:spaceId": calls.id,
    "call4papers/spaces:slug": call.slug,
    "call4papers:id": call.id,
    "call4papers:trackId": track.id,
    "call4papers:reviewerId": reviewer.id,
    "call4papers:ownerId": callOwner.id,
    "call4papers:dateId": date.id,
    "call4papers:sid": submission.id,
    "certificates/templates:id": template.id,
    "certificates/batches:id": issued.batch.id,
    "certificates:id": certificate.id,
    "certificates:code": certificate.code,
    "certificates/files:token": fileToken,
    "*:profileId": profile.id,
    "*:spaceId": courses.id,
    "*:courseId": course.id,
    "*:statusId": status.id
  }
  return {
    seeds,
    operatorSeeds: { "admin:communityId": owner.community, "admin/communities:id": payout.id }
  }
}
