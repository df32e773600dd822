import { afterAll, describe, expect, it } from "vitest"
import { activeTemplate, certificateCommunity, issueAndWait } from "../certificates/support"
import { subscribed } from "../commerce/subscriptions-support"
import { expectCreated, expectError } from "../support/envelope"
import { outboxFor } from "../support/outbox"
import { expectLimited, limitedRoda, limitHeaders } from "./support"

/**
 * Issue 52, item 2: `certificateMail` (5 a day per certificate) and `paymentLink` (5 a day per
 * subscription), production defaults; sign-up and invitations off for the set-up's accounts.
 */
const { api, roda } = limitedRoda({ register: 0, invite: 0 })
afterAll(() => roda.dispose())

const DAY = 86400

describe("certificateMail: POST /api/certificates/{id}/resend-email, 5 a day per certificate", () => {
  it(
    "resends 5 times with the headers, refuses the 6th with 429 and sends nothing more; another certificate is not affected",
    async () => {
      const setup = await certificateCommunity(api)
      const template = await activeTemplate(api, setup)
      const { certificates } = await issueAndWait(api, setup, template.id, [setup.ana.profileId, setup.bruno.profileId])
      const [first, second] = certificates
      const resend = (id: string) => api.post(`/api/certificates/${id}/resend-email`, undefined, setup.owner())
      const mails = async () => (await outboxFor(roda, setup.ana.email)).filter((m) => m.kind === "certificate-issued")
      const target = certificates.find((c) => c.profileId === setup.ana.profileId)!
      const before = (await mails()).length
      for (let i = 0; i < 5; i++) {
        const reply = await resend(target.id)
        expect(reply.status).toBe(200)
        expect(limitHeaders(reply)).toMatchObject({ policy: "certificateMail", q: 5, w: DAY, r: 4 - i })
      }
      expectLimited(await resend(target.id), "certificateMail", DAY)
      expect((await mails()).length).toBe(before + 5)
      const otherOne = [first, second].find((c) => c!.id !== target.id)!
      expect((await resend(otherOne.id)).status).toBe(200)
    },
    120_000
  )

  it(
    "does not count a caller from another community (404): nobody else can use up a certificate's budget",
    async () => {
      const setup = await certificateCommunity(api, "Dona")
      const stranger = await certificateCommunity(api, "Estranha")
      const template = await activeTemplate(api, setup)
      const { certificates } = await issueAndWait(api, setup, template.id, [setup.ana.profileId])
      for (let i = 0; i < 6; i++) {
        const refused = await api.post(
          `/api/certificates/${certificates[0]!.id}/resend-email`,
          undefined,
          stranger.owner()
        )
        expectError(refused, 404)
      }
      const mine = await api.post(`/api/certificates/${certificates[0]!.id}/resend-email`, undefined, setup.owner())
      expect(mine.status).toBe(200)
      expect(limitHeaders(mine)).toMatchObject({ r: 4 })
    },
    120_000
  )
})

describe("paymentLink: POST /api/manage/subscriptions/{id}/payment-link, 5 a day per subscription", () => {
  it("sends 5 links, refuses the 6th with 429 and writes no 6th e-mail", async () => {
    const made = await subscribed(api)
    const other = await made.addMember("member", "Otto Outro")
    const charge = expectCreated(
      await api.post("/api/manage/subscriptions", {
        profileId: other.profileId,
        productId: made.monthly.id,
        kind: "charge"
      }, made.scoped)
    )
    const send = () => api.post(`/api/manage/subscriptions/${charge.id}/payment-link`, undefined, made.scoped)
    const links = async () =>
      (await outboxFor(roda, other.email)).filter((m) => m.kind === "subscription-payment-link").length
    for (let i = 0; i < 5; i++) {
      const reply = await send()
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
      expect(limitHeaders(reply)).toMatchObject({ policy: "paymentLink", q: 5, w: DAY, r: 4 - i })
    }
    const before = await links()
    expectLimited(await send(), "paymentLink", DAY)
    expect(await links()).toBe(before)
  }, 120_000)
})
