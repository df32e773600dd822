import { afterAll, describe, expect, it } from "vitest"
import { asIn, c4pSetup, draft, submitted } from "../call4papers/submissions-support"
import { activeTemplate, certificateCommunity } from "../certificates/support"
import { runJobs, setCard, signIn, subscribed } from "../commerce/subscriptions-support"
import { moderationCommunity } from "../moderation/setup"
import { recordSale } from "../money/ledger-support"
import { as } from "../support/community"
import { expectCreated, expectOk } from "../support/envelope"
import { platformAdmin, sellingCommunity } from "../support/selling"
import { query } from "../support/sql"
import { emailOff, inboxOf, mailsOf, startAccountRoda } from "./account-setup"

/**
 * Issue 55: the producers of what concerns a member's account and work: certificates, submissions,
 * invitations, payments, payouts and moderation. Each is read in the recipient's inbox; those whose
 * feature sends its own e-mail send it only to members who want that kind by e-mail.
 */
const DAY = 24 * 60 * 60 * 1000
const T0 = Date.UTC(2030, 0, 31, 12, 0, 0)
const { api, roda, time } = startAccountRoda(T0)
afterAll(() => roda.dispose())

describe("certificate_issued", () => {
  it("tells the holder once generated, no actor; e-mail off: the notification without the certificate's e-mail", async () => {
    const setup = await certificateCommunity(api, "Certificados avisados")
    const template = await activeTemplate(api, setup)
    await emailOff(api, setup, setup.ana, "certificate_issued")
    const batch = expectOk(
      await api.post("/api/certificates", {
        templateId: template.id,
        spaceId: setup.space.id,
        profileIds: [setup.ana.profileId, setup.bruno.profileId]
      }, setup.owner()),
      202
    )
    expect(await inboxOf(api, setup, setup.bruno, "certificate_issued")).toEqual([])
    await runJobs(roda)
    const issued = expectOk(await api.get(`/api/certificates?batchId=${batch.id}`, setup.owner())) as Array<any>
    const idOf = (profileId: string) => issued.find((row) => row.profileId === profileId)?.id
    for (const holder of [setup.ana, setup.bruno]) {
      expect(await inboxOf(api, setup, holder, "certificate_issued")).toEqual([
        expect.objectContaining({
          actor: null,
          subject: { type: "certificate", id: idOf(holder.profileId), title: "Certificado de Conclusão" },
          text: "Seu certificado de “Certificado de Conclusão” foi emitido."
        })
      ])
    }
    expect(await mailsOf(roda, setup.bruno.email, "certificate-issued")).toHaveLength(1)
    expect(await mailsOf(roda, setup.ana.email, "certificate-issued")).toEqual([])
    expect(await inboxOf(api, setup, setup.ownerUser, "certificate_issued")).toEqual([])
  })
})

describe("submission_update and invitation (call for papers)", () => {
  it("a decision tells every speaker but the organiser who made it; a co-speaker with e-mail off gets no e-mail", async () => {
    const setup = await c4pSetup(api, "C4P avisos")
    const { callOwner, coSpeaker, proposer, reviewerA, staff } = setup.people
    // The cast was invited while the call was set up: the owner of the call and a track's reviewer.
    expect(await inboxOf(api, setup, callOwner, "invitation")).toEqual([
      expect.objectContaining({
        actor: { profileId: staff.profileId, fullName: expect.any(String) },
        subject: { type: "call", id: setup.call.id, title: setup.call.title }
      })
    ])
    expect((await inboxOf(api, setup, reviewerA, "invitation"))[0].subject).toEqual({
      type: "track",
      id: setup.trackA.id,
      title: `${setup.call.title}: Backend`
    })

    await emailOff(api, setup, coSpeaker, "submission_update")
    const proposal = await submitted(api, setup, { coSpeakers: [coSpeaker.profileId] })
    expect((await inboxOf(api, setup, coSpeaker, "invitation"))[0]).toMatchObject({
      actor: { profileId: proposer.profileId, fullName: "Paula Proposer" },
      subject: { type: "submission", id: proposal.id, title: "Effect na prática" },
      text: "Paula Proposer convidou você para “Effect na prática”."
    })
    // The co-speaker's acceptance tells the proposer (a speaker), not the co-speaker who acted.
    expect((await inboxOf(api, setup, proposer, "submission_update")).map((n) => n.actor.fullName)).toEqual([
      "Caio Co-Speaker"
    ])
    expect(await inboxOf(api, setup, coSpeaker, "submission_update")).toEqual([])

    time.advance(1000)
    expectOk(
      await api.post(
        `/api/call4papers/submissions/${proposal.id}/decide`,
        { decision: "accept" },
        asIn(setup, staff)
      )
    )
    for (const speaker of [proposer, coSpeaker]) {
      expect((await inboxOf(api, setup, speaker, "submission_update"))[0]).toMatchObject({
        actor: { profileId: staff.profileId },
        subject: { type: "submission", id: proposal.id, title: "Effect na prática" },
        text: "Sua proposta “Effect na prática” foi atualizada."
      })
    }
    expect(await inboxOf(api, setup, staff, "submission_update")).toEqual([])
    expect(await mailsOf(roda, proposer.email, "call4papers.accepted")).toHaveLength(1)
    expect(await mailsOf(roda, coSpeaker.email, "call4papers.accepted")).toEqual([])

    // Confirmed on the agenda by an organiser: the speakers again; by the proposer: the organisation, by e-mail only.
    time.advance(1000)
    expectOk(await api.post(`/api/call4papers/submissions/${proposal.id}/confirm`, undefined, asIn(setup, staff)))
    expect(await inboxOf(api, setup, coSpeaker, "submission_update")).toHaveLength(2)
    expect(await mailsOf(roda, proposer.email, "call4papers.confirmed")).toHaveLength(1)
  })

  it("a counter-offer tells the proposer; the speaker's counter tells no one in the app; a bank invitation", async () => {
    const setup = await c4pSetup(api, "C4P contraproposta")
    const { proposer, staff, callOwner } = setup.people
    const proposal = await draft(api, setup)
    expectOk(await api.post(`/api/call4papers/submissions/${proposal.id}/submit`, undefined, asIn(setup, proposer)))
    expectOk(
      await api.post(
        `/api/call4papers/submissions/${proposal.id}/counter-offer`,
        { format: "workshop", durationMinutes: 90 },
        asIn(setup, callOwner)
      )
    )
    expect((await inboxOf(api, setup, proposer, "submission_update")).map((n) => n.actor.profileId)).toEqual([
      callOwner.profileId
    ])
    expectOk(
      await api.post(
        `/api/call4papers/submissions/${proposal.id}/speaker-counter`,
        { durationMinutes: 60 },
        asIn(setup, proposer)
      )
    )
    expect(await inboxOf(api, setup, staff, "submission_update")).toEqual([])
    expect(await inboxOf(api, setup, callOwner, "submission_update")).toEqual([])
    expect(await inboxOf(api, setup, proposer, "submission_update")).toHaveLength(1)

    // A speaker of the bank invited to submit: an `invitation` to the call.
    expectOk(
      await api.post(
        `/api/call4papers/${setup.call.id}/invite-speaker`,
        { profileId: proposer.profileId },
        asIn(setup, staff)
      ),
      201
    )
    expect((await inboxOf(api, setup, proposer, "invitation")).map((n) => n.subject)).toEqual([
      { type: "call", id: setup.call.id, title: setup.call.title }
    ])
  })
})

describe("payout_update", () => {
  it("each move tells the profile who asked, with the amount; their own cancellation does not", async () => {
    const shop = await sellingCommunity(api, "Saques avisados")
    await recordSale(roda, shop.community.id, { method: "PIX", amount: 10000 })
    const owner = as(shop.owner, shop.community)
    const payout = expectOk(await api.post("/api/payouts", { amount: 5000 }, owner), 201)
    const operator = await platformAdmin(api)
    const base = `/api/admin/communities/${shop.community.id}/payouts/${payout.id}`
    expectOk(await api.post(`${base}/in-transit`, {}, { token: operator }))
    expectOk(await api.post(`${base}/paid`, {}, { token: operator }))
    const told = await inboxOf(api, shop, shop.owner, "payout_update")
    expect(told).toHaveLength(2)
    expect(told[0]).toMatchObject({
      actor: null,
      subject: { type: "payout", id: payout.id, title: "50.00 BRL" },
      text: "Seu saque 50.00 BRL foi atualizado."
    })

    const own = expectOk(await api.post("/api/payouts", { amount: 1000 }, owner), 201)
    expectOk(await api.post(`/api/payouts/${own.id}/cancel`, undefined, owner))
    expect(await inboxOf(api, shop, shop.owner, "payout_update")).toHaveLength(2)
    // Canceled by an admin: the owner who asked is told.
    const admin = await shop.addMember("admin", "Ada Admin")
    const third = expectOk(await api.post("/api/payouts", { amount: 1000 }, owner), 201)
    expectOk(await api.post(`/api/payouts/${third.id}/cancel`, undefined, as(admin, shop.community)))
    const last = await inboxOf(api, shop, shop.owner, "payout_update")
    expect(last.map((n) => n.subject.title)).toContain("10.00 BRL")
    expect(last).toHaveLength(3)
    expect(await inboxOf(api, shop, admin, "payout_update")).toEqual([])
  })
})

describe("moderation", () => {
  it("hiding or removing tells the author, dismissing does not; a suspension and its end tell the member; no moderator named", async () => {
    const setup = await moderationCommunity(api, "Moderação avisada")
    const { alice, bruno, carla, moderator } = setup
    const hidden = await setup.status(alice, "Compre já, promoção imperdível")
    const kept = await setup.status(alice, "Bom dia a todos")
    for (const subject of [hidden, kept]) expectCreated(await setup.report(bruno, "status", subject.id))
    const cases = expectOk(await api.get("/api/moderation/cases?status=open", setup.in(moderator))) as Array<any>
    const caseOf = (id: string) => cases.find((c) => c.subject.id === id).id
    const resolve = (id: string, action: string) =>
      api.post(`/api/moderation/cases/${caseOf(id)}/resolve`, { action }, setup.in(moderator))
    expectOk(await resolve(kept.id, "dismiss"))
    expect(await inboxOf(api, setup, alice, "moderation")).toEqual([])
    expectOk(await resolve(hidden.id, "hide"))
    expect(await inboxOf(api, setup, alice, "moderation")).toEqual([
      expect.objectContaining({
        actor: null,
        subject: { type: "status", id: hidden.id, title: "Compre já, promoção imperdível" },
        text: "A moderação agiu sobre “Compre já, promoção imperdível”."
      })
    ])

    const members = `/api/moderation/members/${carla.profileId}`
    expectOk(await api.post(`${members}/suspend`, { days: 3, reason: "Spam repetido" }, setup.in(moderator)))
    expectOk(await api.post(`${members}/unsuspend`, undefined, setup.in(moderator)))
    const told = await inboxOf(api, setup, carla, "moderation")
    expect(told.map((n) => [n.actor, n.subject])).toEqual([
      [null, { type: "profile", id: carla.profileId, title: "Carla Costa" }],
      [null, { type: "profile", id: carla.profileId, title: "Carla Costa" }]
    ])
    expect(await inboxOf(api, setup, moderator, "moderation")).toEqual([])
  })
})

// Last: it moves the clock a month on.
describe("payment_failed", () => {
  it("a failed renewal tells the subscriber with a pay link e-mailed; the last failed retry again", async () => {
    const made = await subscribed(api, "Sara Assinante")
    const id = made.subscriptionId
    await setCard(roda, id, "tok_chargeDeclined")
    const [row] = await query<{ end: Date }>(
      roda,
      (sql) => sql`SELECT current_period_end AS end FROM subscriptions WHERE id = ${id}`
    )
    const failedAt = new Date(row!.end).getTime() + 1000
    time.set(failedAt)
    await runJobs(roda)
    const member = { token: await signIn(api, made.member.email) }
    expect(await inboxOf(api, made, member, "payment_failed")).toEqual([
      expect.objectContaining({
        actor: null,
        subject: { type: "subscription", id, title: "Mensal" },
        text: "O pagamento de “Mensal” não foi aprovado."
      })
    ])
    expect(await mailsOf(roda, made.member.email, "subscription-payment-failed")).toHaveLength(1)
    for (const day of [1, 3, 5, 7]) {
      time.set(failedAt + day * DAY + 1000)
      await runJobs(roda)
    }
    const again = { token: await signIn(api, made.member.email) }
    expect(await inboxOf(api, made, again, "payment_failed")).toHaveLength(2)
    expect(await mailsOf(roda, made.member.email, "subscription-unpaid")).toHaveLength(1)
  })
})
