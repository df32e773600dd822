import { afterAll, describe, expect, it } from "vitest"
import { buyer, cardCheckout, shop } from "../commerce/checkout-support"
import { disputeEvent, newDisputeId } from "../stripe/support/disputes"
import { startFakeStripe, stripeEvent } from "../stripe/support/fakeStripe"
import { postStripeEvent, rodaWith, stripeLayer } from "../stripe/support/gateways"
import { expectCreated, expectOk } from "../support/envelope"
import { type Client, client, startRoda } from "../support/harness"
import { statements } from "../support/queries"

/**
 * Issue 54, item 4: emitting an `order.*` or `dispute.*` event adds one statement to the request
 * (the event's insert with its deliveries): what the payload needs is read by a statement the change
 * makes anyway. Statements are counted through their spans, which only exist with tracing on; the
 * jobs do not run (their statements would not count anyway).
 */
const roda = startRoda({ webhooksAllowPrivate: true }, { tracing: true })
const api = client(roda)

/** A Roda selling through the Stripe stand-in, with tracing on. */
const fake = await startFakeStripe()
const stripeRoda = rodaWith(stripeLayer(fake), { tracing: true, options: { webhooksAllowPrivate: true } })
const stripe = client(stripeRoda)
afterAll(async () => {
  await roda.dispose()
  await stripeRoda.dispose()
  await fake.close()
})

type Shop = Awaited<ReturnType<typeof shop>>

/** A shop whose community has an endpoint for every commerce event (so each event writes a delivery). */
const shopWithHook = async (on: Client) => {
  const made = await shop(on)
  const events = ["order.paid", "order.refunded", "dispute.opened", "dispute.closed"]
  expectCreated(await on.post("/api/webhooks", { url: "http://127.0.0.1:9/hook", events }, made.scoped))
  return made
}

/** The community's webhook events of `type`, newest first. */
const eventsOf = async (on: Client, made: Shop, type: string) =>
  expectOk(await on.get(`/api/webhook-events?type=${type}`, made.scoped)) as Array<{ data: any }>

describe("order.* events (sandbox)", () => {
  it("a card sale's order.paid and a refund's order.refunded each take one statement", async () => {
    const made = await shopWithHook(api)
    const paid = await statements(() =>
      api.post("/api/checkout", cardCheckout(made.product.id), { community: made.community.id })
    )
    const sale = expectCreated(paid.result)
    expect(sale.status).toBe("paid")
    // order.paid, and the new buyer's member.joined (its own single statement)
    expect(paid.emits).toBe(2)
    // 5 for the quote (business information, payout settings, product, fee overrides, community);
    // 9 for the new buyer (account looked up and inserted, profile locked and inserted, account read,
    // password link, welcome mail, member read, member.joined); the buyer's e-mail; the charge's
    // insert and its reconciliation job; the charge locked and the gateway's answer recorded; the
    // charge locked again and made paid; the product; the purchase inserted (answering the sale
    // order.paid carries); the entitlement; the sale in the ledger (transaction, balances, entries,
    // pending release); the sales e-mail setting, the buyer, the two e-mails; order.paid; the
    // charge read twice for the answer, its purchase and subscription. Before: 38 (the sale read
    // again for order.paid).
    expect(paid.n).toBe(37)

    const path = `/api/manage/purchases/${sale.purchaseId}/refund`
    const refunded = await statements(() => api.post(path, { amount: 4000, reason: "Parte" }, made.scoped))
    expectOk(refunded.result)
    expect(refunded.emits).toBe(1)
    // The member; the sale; the charge locked, what the ledger can refund, the refunded sum raised,
    // the refund inserted pending and its reconciliation job; the gateway's charge id; then the
    // refund and the charge locked, the refund finished, the sale of the charge (with everything
    // order.refunded says of it), the ledger (pending releases, transaction, balances, entries, the
    // release lowered), the receipt, order.refunded; the sale for the answer. Before: 21 (the sale
    // read again for order.refunded).
    expect(refunded.n).toBe(20)
    expect((await eventsOf(api, made, "order.paid")).length).toBe(1)
    expect((await eventsOf(api, made, "order.refunded")).length).toBe(1)
  })
})

describe("order.* and dispute.* events (Stripe webhooks)", () => {
  it("a gateway payment, refund, dispute opened and dispute closed each take one statement for its event", async () => {
    const made = await shopWithHook(stripe)
    const sale = expectCreated(
      await stripe.post("/api/checkout", { productId: made.product.id, paymentMethod: "PIX", buyer: buyer() }, {
        community: made.community.id
      })
    )
    const intent = fake.succeed(fake.intentFor(sale.chargeId)!.id)
    const paid = await statements(() => postStripeEvent(stripe, stripeEvent("payment_intent.succeeded", intent)))
    expectOk(paid.result)
    expect(paid.emits).toBe(1)
    // The gateway event recorded; the charge found and locked, the answer recorded, locked again and
    // made paid; the product; the purchase inserted (answering the sale order.paid carries); the
    // entitlement; the sale in the ledger (4) and released to available at once (transaction,
    // balances, entries, release: 4); the sales e-mail setting, the buyer, the two e-mails;
    // order.paid; the charge read twice for the answer. Before: 25.
    expect(paid.n).toBe(24)

    const refunded = await statements(() =>
      postStripeEvent(
        stripe,
        stripeEvent("charge.refunded", {
          id: `ch_${sale.chargeId.slice(0, 8)}`,
          object: "charge",
          amount: intent.amount,
          amount_refunded: 4000,
          payment_intent: intent.id,
          metadata: {},
          refunded: false
        })
      )
    )
    expectOk(refunded.result)
    expect(refunded.emits).toBe(1)
    // The gateway event; the charge found and locked twice (payment already applied, then the
    // refund); the refunded sum locked, what the ledger can refund, the sum raised, the refund
    // inserted; the sale of the charge (with everything order.refunded says of it); the ledger
    // (pending releases, transaction, balances, entries); the receipt; order.refunded; the charge
    // for the answer. Before: 17.
    expect(refunded.n).toBe(16)

    const disputeId = newDisputeId()
    const opened = await statements(() => postStripeEvent(stripe, disputeEvent(intent, disputeId, "created", 6000)))
    expectOk(opened.result)
    // dispute.opened reads the sale disputed in its own insert (`emitWithin`)
    expect(opened.emits).toBe(1)
    // The gateway event; the charge found, locked and read; the dispute locked and inserted; whether
    // the gateway settled the sale and what the ledger can hold; the hold (transaction, balances,
    // entries); dispute.opened; the owners' e-mails and the mail; the dispute updated; the charge for
    // the answer. Before: 17.
    expect(opened.n).toBe(16)

    const closed = await statements(() => postStripeEvent(stripe, disputeEvent(intent, disputeId, "lost", 6000)))
    expectOk(closed.result)
    expect(closed.emits).toBe(1)
    // The gateway event; the charge found, locked and read; the dispute locked; the release (3); the
    // chargeback (charge locked, refunded sum locked, what the ledger can refund, the sum raised, the
    // refund inserted, the sale of the charge, pending releases, transaction, balances, entries, the
    // access ended: 11, no order.refunded); whether the gateway settled the sale; the dispute fee (3);
    // dispute.closed; the owners' e-mails and the mail; the dispute updated; the charge for the
    // answer. Before: 29.
    expect(closed.n).toBe(28)

    const types = ["order.paid", "order.refunded", "dispute.opened", "dispute.closed"]
    const counts = await Promise.all(types.map(async (type) => (await eventsOf(stripe, made, type)).length))
    expect(counts).toEqual([1, 1, 1, 1])
  })
})
