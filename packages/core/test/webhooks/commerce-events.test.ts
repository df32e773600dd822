import { afterAll, describe, expect, it } from "vitest"
import { billingAddress, buyer, cardCheckout, sandboxWebhook, shop } from "../commerce/checkout-support"
import { disputeEvent, newDisputeId } from "../stripe/support/disputes"
import { startFakeStripe, stripeEvent } from "../stripe/support/fakeStripe"
import { postStripeEvent, rodaWith, stripeLayer } from "../stripe/support/gateways"
import { expectCreated, expectOk } from "../support/envelope"
import { type Client, client } from "../support/harness"
import { expectDeclared, expectNoMore, verifiedEvents, webhookSuite } from "./receiver"

/** Issue 54, item 3: sales, refunds and gateway disputes reach the community's webhooks. */
const { api, receiver: running } = webhookSuite()

type Shop = Awaited<ReturnType<typeof shop>>

const hookOf = async (on: Client, made: Shop, path: string, events: Array<string>) =>
  expectCreated(await on.post("/api/webhooks", { url: running().url(path), events }, made.scoped))

/** The sale as the team's sales list shows it. */
const saleOf = async (on: Client, made: Shop, purchaseId: string) =>
  (expectOk(await on.get("/api/manage/purchases", made.scoped)) as Array<{ id: string }>)
    .find((sale) => sale.id === purchaseId)

describe("order.paid and order.refunded", () => {
  it("sends order.paid once per sale, by card, PIX, boleto or free; a repeated payment sends nothing", async () => {
    const made = await shop(api)
    const hook = await hookOf(api, made, "/orders/paid", ["order.paid", "order.refunded"])
    const visitor = { community: made.community.id }
    const card = expectCreated(await api.post("/api/checkout", cardCheckout(made.product.id), visitor))
    expect(card.status).toBe("paid")

    const pix = expectCreated(
      await api.post("/api/checkout", { productId: made.product.id, paymentMethod: "PIX", buyer: buyer() }, visitor)
    )
    const pixPaid = expectOk(await api.post(`/api/checkout/sandbox/${pix.chargeId}/pay`, {}, made.scoped))
    expect((await api.post(`/api/checkout/sandbox/${pix.chargeId}/pay`, {}, made.scoped)).status).toBe(409)

    const boleto = expectCreated(
      await api.post(
        "/api/checkout",
        { productId: made.product.id, paymentMethod: "BOLETO", buyer: buyer(), billingAddress },
        visitor
      )
    )
    const paidEvent = { eventId: `evt_${boleto.chargeId}`, type: "charge.paid", chargeId: boleto.chargeId }
    expect(expectOk(await sandboxWebhook(api, paidEvent)).status).toBe("paid")
    const boletoPaid = expectOk(await api.get(`/api/checkout/charges/${boleto.chargeId}`, visitor))
    expect(expectOk(await sandboxWebhook(api, paidEvent)).duplicate).toBe(true)
    expect(expectOk(await sandboxWebhook(api, { ...paidEvent, eventId: `evt_again_${boleto.chargeId}` })).status)
      .toBe("paid")

    expectCreated(await api.post("/api/coupons", { code: "GRATIS", percentOff: 100 }, made.scoped))
    const free = expectCreated(
      await api.post("/api/checkout", cardCheckout(made.product.id, { couponCode: "GRATIS" }), visitor)
    )
    expect(free).toMatchObject({ status: "paid", total: 0 })

    const delivered = verifiedEvents(hook.secret, await running().waitFor("/orders/paid", 4))
    expect(delivered.map((e) => e.type)).toEqual(["order.paid", "order.paid", "order.paid", "order.paid"])
    const purchases = [card.purchaseId, pixPaid.purchaseId, boletoPaid.purchaseId, free.purchaseId]
    for (const [index, purchaseId] of purchases.entries()) {
      const sale = await saleOf(api, made, purchaseId)
      expect(sale).toMatchObject({ status: "paid", refundedAmount: 0 })
      expect(delivered[index].data).toEqual({ ...sale, communityId: made.community.id })
    }
    expect(delivered.map((e) => e.data.paymentMethod)).toEqual(["CREDIT_CARD", "PIX", "BOLETO", "CREDIT_CARD"])
    await expectDeclared(api, delivered)
    await expectNoMore(running(), "/orders/paid", 4)
  })

  it("sends order.refunded for each refund with the sale after it and the refund; a refused refund sends nothing", async () => {
    const made = await shop(api)
    const sale = expectCreated(
      await api.post("/api/checkout", cardCheckout(made.product.id), { community: made.community.id })
    )
    const hook = await hookOf(api, made, "/orders/refunded", ["order.refunded"])
    const path = `/api/manage/purchases/${sale.purchaseId}/refund`
    const partial = expectOk(await api.post(path, { amount: 4000, reason: "Parte do pedido" }, made.scoped))
    const rest = expectOk(await api.post(path, { reason: "O resto" }, made.scoped))
    expect((await api.post(path, { reason: "De novo" }, made.scoped)).status).toBe(409)

    const delivered = verifiedEvents(hook.secret, await running().waitFor("/orders/refunded", 2))
    expect(delivered.map((e) => e.type)).toEqual(["order.refunded", "order.refunded"])
    for (const [index, answer] of [partial, rest].entries()) {
      const { purchase, ...refund } = answer
      expect(delivered[index].data).toEqual({ ...purchase, refund, communityId: made.community.id })
    }
    expect(delivered[0].data).toMatchObject({ status: "partially_refunded", refundedAmount: 4000 })
    expect(delivered[1].data).toMatchObject({ status: "refunded", refund: { amount: 6000, full: true } })
    expect(delivered[1].data.refundedAmount).toBe(delivered[1].data.total)
    await expectDeclared(api, delivered)
    await expectNoMore(running(), "/orders/refunded", 2)
  })
})

/** A Roda selling through the Stripe stand-in that delivers webhooks to 127.0.0.1 (jobs running). */
const fake = await startFakeStripe()
const stripeRoda = rodaWith(stripeLayer(fake), { options: { runJobs: true, webhooksAllowPrivate: true } })
const stripe = client(stripeRoda)
afterAll(async () => {
  await stripeRoda.dispose()
  await fake.close()
})

/** A PIX sale paid at "Stripe" and reported by its webhook. */
const stripeSale = async (made: Shop) => {
  const sale = expectCreated(
    await stripe.post("/api/checkout", { productId: made.product.id, paymentMethod: "PIX", buyer: buyer() }, {
      community: made.community.id
    })
  )
  const intent = fake.succeed(fake.intentFor(sale.chargeId)!.id)
  expectOk(await postStripeEvent(stripe, stripeEvent("payment_intent.succeeded", intent)))
  const charge = expectOk(await stripe.get(`/api/checkout/charges/${sale.chargeId}`, { community: made.community.id }))
  return { chargeId: sale.chargeId as string, purchaseId: charge.purchaseId as string, intent }
}

describe("gateway refunds and disputes (Stripe)", () => {
  it("sends order.refunded for a refund made at the gateway, once", async () => {
    const made = await shop(stripe)
    const sale = await stripeSale(made)
    const hook = await hookOf(stripe, made, "/orders/gateway", ["order.refunded"])
    const refunded = (eventId?: string) =>
      stripeEvent("charge.refunded", {
        id: `ch_${sale.chargeId.slice(0, 8)}`,
        object: "charge",
        amount: sale.intent.amount,
        amount_refunded: 4000,
        payment_intent: sale.intent.id,
        metadata: {},
        refunded: false
      }, eventId)
    expectOk(await postStripeEvent(stripe, refunded()))
    expectOk(await postStripeEvent(stripe, refunded()))

    const [event] = verifiedEvents(hook.secret, await running().waitFor("/orders/gateway", 1))
    expect(event.type).toBe("order.refunded")
    expect(event.data).toEqual({
      ...(await saleOf(stripe, made, sale.purchaseId)),
      refund: expect.objectContaining({
        id: expect.any(String),
        purchaseId: sale.purchaseId,
        amount: 4000,
        full: false,
        reason: "refunded at the gateway"
      }),
      communityId: made.community.id
    })
    expect(event.data).toMatchObject({ status: "partially_refunded", refundedAmount: 4000 })
    await expectDeclared(api, [event])
    await expectNoMore(running(), "/orders/gateway", 1)
  })

  it("sends dispute.opened and dispute.closed, once each; a lost dispute's chargeback is no order.refunded", async () => {
    const made = await shop(stripe)
    const sale = await stripeSale(made)
    const hook = await hookOf(stripe, made, "/disputes", ["dispute.opened", "dispute.closed", "order.refunded"])
    const disputeId = newDisputeId()
    expectOk(await postStripeEvent(stripe, disputeEvent(sale.intent, disputeId, "created")))
    expectOk(await postStripeEvent(stripe, disputeEvent(sale.intent, disputeId, "created")))
    expectOk(await postStripeEvent(stripe, disputeEvent(sale.intent, disputeId, "lost")))
    expectOk(await postStripeEvent(stripe, disputeEvent(sale.intent, disputeId, "lost")))

    const delivered = verifiedEvents(hook.secret, await running().waitFor("/disputes", 2))
    expect(delivered.map((e) => e.type)).toEqual(["dispute.opened", "dispute.closed"])
    const dispute = {
      id: disputeId,
      chargeId: sale.chargeId,
      purchaseId: sale.purchaseId,
      amount: 10000,
      currency: "BRL",
      reason: "fraudulent",
      communityId: made.community.id
    }
    expect(delivered[0].data).toEqual({
      ...dispute,
      status: "open",
      held: 10000,
      fee: 0,
      feeCurrency: null,
      openedAt: expect.any(String),
      closedAt: null
    })
    expect(delivered[1].data).toEqual({
      ...dispute,
      status: "lost",
      held: 0,
      fee: 1500,
      feeCurrency: "BRL",
      openedAt: delivered[0].data.openedAt,
      closedAt: expect.any(String)
    })
    expect(await saleOf(stripe, made, sale.purchaseId)).toMatchObject({ status: "refunded" })
    await expectDeclared(api, delivered)
    await expectNoMore(running(), "/disputes", 2)
  })
})
