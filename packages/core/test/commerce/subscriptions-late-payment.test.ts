import { Effect, Layer, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PaymentGateway, type Roda, sandboxGateway, secret, signSandboxWebhook } from "../../node/index"
import { rodaWith } from "../stripe/support/gateways"
import { as } from "../support/community"
import { expectCreated, expectOk } from "../support/envelope"
import { type Client, client, SANDBOX_WEBHOOK_SECRET } from "../support/harness"
import { outboxFor } from "../support/outbox"
import { query } from "../support/sql"
import { planOf, shop } from "./checkout-support"
import {
  billingsOf,
  ledgerOf,
  pixCheckout,
  planAccessUntil,
  refundsOf,
  runJobs,
  unbalanced
} from "./subscriptions-support"

/**
 * A checkout's PIX paid after its `incomplete` subscription was paid another way (pay-now by card):
 * the subscription keeps the card's period, and exactly the late PIX is given back, once. The
 * gateway records the refunds it is asked for, so the refund of the PIX (not of the card) is seen.
 */
const refundsAsked: Array<{ chargeId: string; amount: number; refundId: string | undefined }> = []

const gateway = Layer.effect(
  PaymentGateway,
  Effect.map(PaymentGateway, (inner) => ({
    ...inner,
    refund: (request: Parameters<NonNullable<typeof inner.refund>>[0]) =>
      Effect.suspend(() => {
        refundsAsked.push({ chargeId: request.chargeId, amount: request.amount, refundId: request.refundId })
        return inner.refund!(request)
      }),
    // the sandbox has no refund events: a signed body with `refundedAmount` is read as a real
    // gateway's `charge.refunded` (the charge's refunded total at the gateway)
    parseWebhook: (headers: Readonly<Record<string, string | undefined>>, body: string) =>
      Effect.map(inner.parseWebhook(headers, body), (parsed) => {
        const refundedAmount = (JSON.parse(body) as { refundedAmount?: number }).refundedAmount
        return refundedAmount === undefined
          ? parsed
          : Option.map(parsed, (event) => ({ ...event, type: "charge.refunded" as const, amount: refundedAmount }))
      })
  }))
).pipe(Layer.provide(sandboxGateway({ webhookSecret: secret(SANDBOX_WEBHOOK_SECRET) })))

let roda: Roda
let api: Client

beforeAll(() => {
  roda = rodaWith(gateway)
  api = client(roda)
})
afterAll(() => roda.dispose())

const subscriptionOf = async (id: string) =>
  (await query<
    { status: string; currentPeriodStart: Date | null; currentPeriodEnd: Date | null; periodIndex: number }
  >(
    roda,
    (sql) =>
      sql`SELECT status, current_period_start, current_period_end, period_index FROM subscriptions WHERE id = ${id}`
  ))[0]!

/** The bank pays the PIX: a signed `charge.paid` webhook (a new event id each time, as a resend would be). */
const pixPaidWebhook = async (chargeId: string) => {
  const raw = JSON.stringify({ eventId: `evt_${crypto.randomUUID()}`, type: "charge.paid", chargeId })
  const headers = await Effect.runPromise(signSandboxWebhook(SANDBOX_WEBHOOK_SECRET, raw))
  return api.call("POST", "/api/checkout/webhooks/sandbox", { raw, headers })
}

describe("a checkout's PIX paid after its incomplete subscription was paid by card (pay-now)", () => {
  it.each(["the sandbox route", "a signed webhook"] as const)(
    "only the PIX is refunded, in full and once (paid through %s, then delivered again)",
    async (how) => {
      const { chargeId, id, made, member, plan, total } = await pixCheckout(api, "Paula Paga-Duas")
      expect((await subscriptionOf(id)).status).toBe("incomplete")
      // the member does not wait for the PIX and pays the subscription by card
      const paid = expectOk(
        await api.post(
          `/api/subscriptions/${id}/pay-now`,
          { paymentMethod: "CREDIT_CARD", cardToken: "tok_visa" },
          as(member, made.community)
        )
      )
      expect(paid.subscription.status).toBe("active")
      const [card, ...none] = await billingsOf(roda, id)
      expect(none).toEqual([])
      expect(card).toMatchObject({ reason: "initial", status: "paid", paymentMethod: "CREDIT_CARD", refundedAmount: 0 })
      expect(card!.id).not.toBe(chargeId)
      const before = await subscriptionOf(id)
      expect(before).toMatchObject({ status: "active", periodIndex: 1 })
      expect(before.currentPeriodEnd).toEqual(card!.periodEnd)
      const accessBefore = await planAccessUntil(roda, member.profileId, plan.id)
      expect(accessBefore).toEqual(card!.periodEnd)

      // then the bank pays the PIX too
      const paying = how === "the sandbox route"
        ? await api.post(`/api/checkout/sandbox/${chargeId}/pay`, {}, made.scoped)
        : await pixPaidWebhook(chargeId)
      expect(paying.status).toBe(200)
      await runJobs(roda)
      // and the gateway delivers the payment again, twice (new event ids): nothing more happens
      for (let resend = 0; resend < 2; resend++) {
        expect((await pixPaidWebhook(chargeId)).status).toBe(200)
        await runJobs(roda)
      }

      // the subscription keeps the card's first period: not started again, not extended
      expect(await subscriptionOf(id)).toEqual(before)
      expect(await planAccessUntil(roda, member.profileId, plan.id)).toEqual(accessBefore)
      const billings = await billingsOf(roda, id)
      // the card's billing untouched
      expect(billings.find((b) => b.id === card!.id)).toEqual(card)
      // the PIX: its own billing (the checkout charge's id, its sale's reference), refunded in full
      const late = billings.filter((b) => b.id !== card!.id)
      expect(late).toEqual([
        expect.objectContaining({
          id: chargeId,
          status: "refunded",
          amount: total,
          refundedAmount: total,
          paymentMethod: "PIX",
          periodStart: null,
          periodEnd: null
        })
      ])
      expect(await refundsOf(roda, id)).toEqual([
        { billingId: chargeId, status: "succeeded", amount: total, reason: "paid after the subscription moved on" }
      ])
      // the gateway was asked to refund the PIX charge, once, and never the card
      expect(refundsAsked.filter((r) => r.chargeId === chargeId)).toEqual([
        expect.objectContaining({ chargeId, amount: total })
      ])
      expect(refundsAsked.filter((r) => r.chargeId === card!.id)).toEqual([])
      // the ledger: the card's sale; the PIX's sale and its refund; balanced
      expect(await ledgerOf(roda, card!.id)).toEqual(["sale"])
      expect(await ledgerOf(roda, chargeId)).toEqual(["refund", "sale"])
      expect(await unbalanced(roda, made.community.id)).toEqual([])
    }
  )
})

describe("a checkout's PIX paid after its incomplete subscription was canceled: what the buyer and seller are told", () => {
  /** The member gives up before paying (the incomplete subscription ends now); then the bank pays the PIX. */
  const paidAfterCancel = async (memberName: string) => {
    const checkout = await pixCheckout(api, memberName)
    const { made, member, id, chargeId } = checkout
    expectOk(await api.post(`/api/subscriptions/${id}/cancel`, undefined, as(member, made.community)))
    expect((await subscriptionOf(id)).status).toBe("canceled")
    expectOk(await api.post(`/api/checkout/sandbox/${chargeId}/pay`, {}, made.scoped))
    await runJobs(roda)
    expect(await refundsOf(roda, id)).toEqual([
      expect.objectContaining({ status: "succeeded", amount: checkout.total })
    ])
    return checkout
  }

  it("the buyer gets a refund notice for the payment, once", async () => {
    const { chargeId, member, option } = await paidAfterCancel("Renata Reembolso")
    const refunds = (await outboxFor(roda, member.email)).filter((mail) => mail.kind === "refund")
    expect(refunds).toEqual([
      expect.objectContaining({ subject: `Reembolso: ${option.title} / Refund: ${option.title}` })
    ])
    expect(refunds[0]!.body).toContain(chargeId)
    expect(refunds[0]!.body).toContain("49.90 BRL")
    expect(refunds[0]!.body).toContain("it is refunded in full")
  })

  it("neither a receipt to the buyer nor a sale notice to the seller", async () => {
    const { made, member } = await paidAfterCancel("Sara Sem-Recibo")
    expect((await outboxFor(roda, member.email)).map((mail) => mail.kind)).not.toContain("receipt")
    expect((await outboxFor(roda, made.salesEmail)).map((mail) => mail.kind)).not.toContain("sale")
  })
})

describe("the coupon of a checkout whose late PIX was refunded at once", () => {
  /** The coupon as the team sees it: its counters, and the state of each use. */
  const couponState = async (made: { readonly scoped: Parameters<Client["get"]>[1] }, couponId: string) => {
    const coupon = expectOk(await api.get(`/api/coupons/${couponId}`, made.scoped))
    const usage = expectOk(await api.get(`/api/coupons/${couponId}/usage`, made.scoped)) as Array<{ status: string }>
    return {
      timesRedeemed: coupon.timesRedeemed,
      reservedRedemptions: coupon.reservedRedemptions,
      redemptionsLeft: coupon.redemptionsLeft,
      status: coupon.status,
      uses: usage.map((use) => use.status)
    }
  }

  /** The bank pays the PIX, and the gateway delivers the payment twice more (new event ids). */
  const paidAndDeliveredAgain = async (chargeId: string) => {
    expect((await pixPaidWebhook(chargeId)).status).toBe(200)
    await runJobs(roda)
    for (let resend = 0; resend < 2; resend++) {
      expect((await pixPaidWebhook(chargeId)).status).toBe(200)
      await runJobs(roda)
    }
  }

  it.each([
    {
      who: "the member cancels",
      path: (id: string) => `/api/subscriptions/${id}/cancel`,
      body: undefined,
      team: false
    },
    {
      who: "the team cancels now",
      path: (id: string) => `/api/manage/subscriptions/${id}/cancel`,
      body: { when: "now" },
      team: true
    }
  ])("$who before paying: the use is given back with the money, once", async ({ body, path, team }) => {
    const checkout = await pixCheckout(api, "Clara Cupom", {
      coupon: { code: "PIXVOLTA", percentOff: 10, maxRedemptions: 1 }
    })
    const { chargeId, id, made, member } = checkout
    const coupon = checkout.coupon!
    // the open checkout holds the only use
    expect(await couponState(made, coupon.id)).toEqual({
      timesRedeemed: 0,
      reservedRedemptions: 1,
      redemptionsLeft: 0,
      status: "active",
      uses: ["reserved"]
    })
    expectOk(await api.post(path(id), body, team ? made.scoped : as(member, made.community)))
    expect((await subscriptionOf(id)).status).toBe("canceled")
    await paidAndDeliveredAgain(chargeId)
    expect(await refundsOf(roda, id)).toEqual([
      expect.objectContaining({ billingId: chargeId, status: "succeeded", amount: checkout.total })
    ])

    // nothing was sold: the use is not counted, and the coupon is free for another buyer
    expect(await couponState(made, coupon.id)).toEqual({
      timesRedeemed: 0,
      reservedRedemptions: 0,
      redemptionsLeft: 1,
      status: "active",
      uses: ["released"]
    })
    const other = await made.addMember("member", "Otávia Outra")
    const second = expectOk(
      await api.post("/api/checkout", {
        productId: checkout.option.id,
        subscriptionGroupId: checkout.plan.id,
        paymentMethod: "CREDIT_CARD",
        cardToken: "tok_visa",
        couponCode: coupon.code
      }, as(other, made.community)),
      201
    )
    expect(second.discount).toBe(499)
    expect(await couponState(made, coupon.id)).toMatchObject({
      timesRedeemed: 1,
      reservedRedemptions: 0,
      redemptionsLeft: 0,
      status: "exhausted"
    })
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })

  it.each(
    [
      { duration: "once", kept: false },
      { duration: "forever", kept: true }
    ] as const
  )(
    "paid by card meanwhile (pay-now), a coupon used $duration: counted only while the subscription keeps its discount",
    async ({ duration, kept }) => {
      const checkout = await pixCheckout(api, "Carla Cartão", {
        coupon: { code: "PIXCARD", percentOff: 10, maxRedemptions: 1, duration }
      })
      const { chargeId, id, made, member } = checkout
      const paid = expectOk(
        await api.post(
          `/api/subscriptions/${id}/pay-now`,
          { paymentMethod: "CREDIT_CARD", cardToken: "tok_visa" },
          as(member, made.community)
        )
      )
      expect(paid.subscription.status).toBe("active")
      // the card was charged the renewal price: with the coupon's discount only when it lasts
      expect(paid.billing.amount).toBe(kept ? 4491 : 4990)
      await paidAndDeliveredAgain(chargeId)
      expect(await refundsOf(roda, id)).toEqual([
        expect.objectContaining({ billingId: chargeId, status: "succeeded", amount: checkout.total })
      ])
      expect((await subscriptionOf(id)).status).toBe("active")
      expect(await couponState(made, checkout.coupon!.id)).toEqual(
        kept
          ? { timesRedeemed: 1, reservedRedemptions: 0, redemptionsLeft: 0, status: "exhausted", uses: ["redeemed"] }
          : { timesRedeemed: 0, reservedRedemptions: 0, redemptionsLeft: 1, status: "active", uses: ["released"] }
      )
      expect(await unbalanced(roda, made.community.id)).toEqual([])
    }
  )
})

describe("the coupon of a plan checkout refunded in full at the gateway", () => {
  it("the subscription ends and the coupon's use is given back, once", async () => {
    const made = await shop(api)
    const { option, plan } = await planOf(api, made)
    const coupon = expectCreated(
      await api.post("/api/coupons", { code: "CARDVOLTA", percentOff: 10, maxRedemptions: 1 }, made.scoped)
    )
    const member = await made.addMember("member", "Rita Reembolsada")
    const sold = expectOk(
      await api.post("/api/checkout", {
        productId: option.id,
        subscriptionGroupId: plan.id,
        paymentMethod: "CREDIT_CARD",
        cardToken: "tok_visa",
        couponCode: coupon.code
      }, as(member, made.community)),
      201
    )
    expect((await subscriptionOf(sold.subscriptionId)).status).toBe("active")
    expect(expectOk(await api.get(`/api/coupons/${coupon.id}`, made.scoped))).toMatchObject({ timesRedeemed: 1 })
    // the seller refunds the whole charge at the gateway; the event is delivered three times (new ids)
    for (let delivery = 0; delivery < 3; delivery++) {
      const raw = JSON.stringify({
        eventId: `evt_${crypto.randomUUID()}`,
        type: "charge.refunded",
        chargeId: sold.chargeId,
        refundedAmount: sold.total
      })
      const headers = await Effect.runPromise(signSandboxWebhook(SANDBOX_WEBHOOK_SECRET, raw))
      expect((await api.call("POST", "/api/checkout/webhooks/sandbox", { raw, headers })).status).toBe(200)
      await runJobs(roda)
    }
    expect((await subscriptionOf(sold.subscriptionId)).status).toBe("canceled")
    expect(await ledgerOf(roda, sold.chargeId)).toEqual(["refund", "sale"])
    expect(expectOk(await api.get(`/api/coupons/${coupon.id}`, made.scoped))).toMatchObject({
      timesRedeemed: 0,
      reservedRedemptions: 0,
      redemptionsLeft: 1,
      status: "active"
    })
    expect(
      (expectOk(await api.get(`/api/coupons/${coupon.id}/usage`, made.scoped)) as Array<{ status: string }>).map((
        use
      ) => use.status)
    ).toEqual(["released"])
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })
})
