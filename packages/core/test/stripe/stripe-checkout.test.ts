import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { Checkout } from "../../src/commerce/checkout/Checkout"
import { billingAddress, buyer, cardCheckout, shop } from "../commerce/checkout-support"
import { expectError, expectInvalid, expectOk } from "../support/envelope"
import { client } from "../support/harness"
import { platformAdmin } from "../support/selling"
import { query } from "../support/sql"
import { signStripe, startFakeStripe, stripeEvent } from "./support/fakeStripe"
import { postStripeEvent, rodaWith, stripeLayer } from "./support/gateways"

const fake = await startFakeStripe()
const roda = rodaWith(stripeLayer(fake))
const api = client(roda)
afterAll(async () => {
  await roda.dispose()
  await fake.close()
})

const community = (made: Awaited<ReturnType<typeof shop>>) => ({ community: made.community.id })

/** A platform operator names the community's Stripe Connect account. */
const connect = async (communityId: string, accountId: string) => {
  const operator = await platformAdmin(api)
  const path = `/api/admin/communities/${communityId}/gateway-account`
  expectInvalid(await api.put(path, { accountId: "not-an-account" }, { token: operator }), "accountId")
  expect(expectOk(await api.put(path, { accountId }, { token: operator }))).toEqual({
    communityId,
    gateway: "stripe",
    accountId
  })
}

const stockOf = async (productId: string) =>
  (await query<{ stockQuantity: number }>(
    roda,
    (sql) => sql`SELECT stock_quantity FROM products WHERE id = ${productId}`
  ))[0]
    ?.stockQuantity

/** The platform's part of a sale in the ledger: fee plus buyer-paid interest. */
const platformPart = async (chargeId: string) =>
  Number(
    (await query<{ sum: string }>(roda, (sql) =>
      sql`SELECT coalesce(sum(e.amount), 0)::text AS sum FROM ledger_entries e
        JOIN ledger_transactions t ON t.community_id = e.community_id AND t.id = e.transaction_id
        WHERE t.reference = ${chargeId} AND t.kind = 'sale' AND e.account IN ('platform_fees', 'platform_interest')`))[
        0
      ]!
      .sum
  )

const intentRequest = (chargeId: string) =>
  fake.calls("POST", "/v1/payment_intents").find((r) => r.params.metadata?.roda_charge_id === chargeId)!

describe("Stripe: card", () => {
  it("charges a PaymentIntent for the connected account, with the platform's part as application fee", async () => {
    const made = await shop(api, { hasStock: true, stockQuantity: 3 })
    await connect(made.community.id, "acct_1RodaSeller")
    const sale = expectOk(
      await api.post("/api/checkout", cardCheckout(made.product.id, { installments: 3 }), community(made)),
      201
    )
    expect(sale).toMatchObject({ status: "paid", installments: 3, amount: 10000 })
    const sent = intentRequest(sale.chargeId)
    expect(sent.idempotencyKey).toBe(`roda-charge-${sale.chargeId}`)
    expect(sent.params).toMatchObject({
      amount: String(sale.total),
      currency: "brl",
      confirm: "true",
      allowed_payment_method_types: ["card"],
      on_behalf_of: "acct_1RodaSeller",
      transfer_data: { destination: "acct_1RodaSeller" },
      metadata: { roda_charge_id: sale.chargeId, roda_community_id: made.community.id },
      payment_method_data: { type: "card", card: { token: "tok_visa" } },
      payment_method_options: {
        card: { installments: { plan: { count: "3", interval: "month", type: "fixed_count" } } }
      }
    })
    // the ledger's fee (and interest) and Stripe's application fee agree to the cent
    const fee = await platformPart(sale.chargeId)
    expect(fee).toBeGreaterThan(0)
    expect(Number(sent.params.application_fee_amount)).toBe(fee)
    const [charge] = await query<{ gatewayChargeId: string; total: number; net: number }>(
      roda,
      (sql) => sql`SELECT gateway_charge_id, total, net FROM charges WHERE id = ${sale.chargeId}`
    )
    expect(charge!.gatewayChargeId).toMatch(/^pi_/)
    expect(Number(charge!.total) - Number(charge!.net)).toBe(fee)
    expect(await stockOf(made.product.id)).toBe(2)
  })

  it("sells as the platform account when the community has no connected account (no application fee)", async () => {
    const made = await shop(api)
    const sale = expectOk(await api.post("/api/checkout", cardCheckout(made.product.id), community(made)), 201)
    const sent = intentRequest(sale.chargeId)
    expect(sent.params.transfer_data).toBeUndefined()
    expect(sent.params.application_fee_amount).toBeUndefined()
    expect(sent.params.amount).toBe("10000")
  })

  it("answers 402 for a declined card, releasing the stock unit", async () => {
    const made = await shop(api, { hasStock: true, stockQuantity: 1 })
    expectError(
      await api.post(
        "/api/checkout",
        cardCheckout(made.product.id, { cardToken: "tok_chargeDeclined" }),
        community(made)
      ),
      402,
      "Pagamento recusado pelo emissor do cartão."
    )
    expect(await stockOf(made.product.id)).toBe(1)
    const [charge] = await query<{ status: string; failureReason: string }>(
      roda,
      (sql) => sql`SELECT status, failure_reason FROM charges WHERE product_id = ${made.product.id}`
    )
    expect(charge).toEqual({ status: "failed", failureReason: "generic_decline" })
  })

  it("passes 3-D Secure's next_action to the client, and settles when Stripe says it succeeded", async () => {
    const made = await shop(api)
    const pending = expectOk(
      await api.post(
        "/api/checkout",
        cardCheckout(made.product.id, { cardToken: "tok_threeDSecure2Required" }),
        community(made)
      ),
      201,
      "Cobrança criada: aguardando o pagamento."
    )
    expect(pending).toMatchObject({ status: "pending", paymentCode: null, purchaseId: null })
    expect(pending.nextAction).toMatchObject({ type: "use_stripe_sdk", details: { type: "use_stripe_sdk" } })
    const intent = fake.succeed(fake.intentFor(pending.chargeId)!.id)
    const handled = expectOk(await postStripeEvent(api, stripeEvent("payment_intent.succeeded", intent)))
    expect(handled).toMatchObject({ chargeId: pending.chargeId, status: "paid", duplicate: false })
    const after = expectOk(await api.get(`/api/checkout/charges/${pending.chargeId}`, community(made)))
    expect(after).toMatchObject({ status: "paid", nextAction: null })
    expect(after.purchaseId).toEqual(expect.any(String))
  })
})

describe("Stripe: PIX and boleto", () => {
  it("gives the PIX copy-paste code, QR image and expiry, and settles the PIX paid by webhook", async () => {
    const made = await shop(api)
    const pix = expectOk(
      await api.post(
        "/api/checkout",
        { productId: made.product.id, paymentMethod: "PIX", buyer: buyer() },
        community(made)
      ),
      201
    )
    const intent = fake.intentFor(pix.chargeId)!
    const qr = intent.next_action.pix_display_qr_code
    expect(pix).toMatchObject({ status: "pending", paymentCode: qr.data })
    expect(pix.expiresAt).toBe(new Date(qr.expires_at * 1000).toISOString())
    expect(pix.nextAction.details.pix_display_qr_code.image_url_png).toMatch(/^https:/)
    expect(intentRequest(pix.chargeId).params).toMatchObject({
      allowed_payment_method_types: ["pix"],
      payment_method_data: { type: "pix" },
      payment_method_options: { pix: { expires_after_seconds: "3600" } }
    })
    fake.succeed(intent.id)
    const event = stripeEvent("payment_intent.succeeded", intent)
    expect(expectOk(await postStripeEvent(api, event)).status).toBe("paid")
    expect(await platformPart(pix.chargeId)).toBeGreaterThan(0)
  })

  it("gives the boleto number, PDF and due date, and expires it when Stripe reports it unpaid", async () => {
    const made = await shop(api, { hasStock: true, stockQuantity: 1 })
    const boleto = expectOk(
      await api.post(
        "/api/checkout",
        { productId: made.product.id, paymentMethod: "BOLETO", buyer: buyer(), billingAddress },
        community(made)
      ),
      201
    )
    const intent = fake.intentFor(boleto.chargeId)!
    const details = intent.next_action.boleto_display_details
    expect(boleto).toMatchObject({ status: "pending", paymentCode: details.number })
    expect(boleto.expiresAt).toBe(new Date(details.expires_at * 1000).toISOString())
    expect(boleto.nextAction.details.boleto_display_details.pdf).toMatch(/pdf$/)
    expect(intentRequest(boleto.chargeId).params).toMatchObject({
      payment_method_data: {
        type: "boleto",
        boleto: { tax_id: "52998224725" },
        billing_details: {
          name: "Bia Compradora",
          address: {
            line1: "Rua das Flores, 100",
            line2: "Centro",
            city: "São Paulo",
            state: "SP",
            postal_code: "01001-000",
            country: "BR"
          }
        }
      },
      payment_method_options: { boleto: { expires_after_days: "3" } }
    })
    expect(await stockOf(made.product.id)).toBe(0)
    const failed = stripeEvent("payment_intent.payment_failed", fake.fail(intent.id))
    expect(expectOk(await postStripeEvent(api, failed)).status).toBe("expired")
    expect(await stockOf(made.product.id)).toBe(1)
    // a late success of the expired boleto changes nothing here
    const late = stripeEvent("payment_intent.succeeded", fake.succeed(intent.id))
    expect(expectOk(await postStripeEvent(api, late)).status).toBe("expired")
  })

  it("cancels the PaymentIntent at Stripe when the expiry job expires a pending charge", async () => {
    const made = await shop(api)
    const pix = expectOk(
      await api.post(
        "/api/checkout",
        { productId: made.product.id, paymentMethod: "PIX", buyer: buyer() },
        community(made)
      ),
      201
    )
    await query(
      roda,
      (sql) => sql`UPDATE charges SET expires_at = now() - interval '1 minute' WHERE id = ${pix.chargeId} RETURNING id`
    )
    await roda.runtime.runPromise(Effect.flatMap(Checkout, (checkout) => checkout.expireDue()))
    const intent = fake.intentFor(pix.chargeId)!
    expect(intent.status).toBe("canceled")
    const cancel = fake.calls("POST", `/v1/payment_intents/${intent.id}/cancel`)
    expect(cancel.map((r) => r.idempotencyKey)).toEqual([`roda-cancel-${pix.chargeId}`])
    expect(expectOk(await api.get(`/api/checkout/charges/${pix.chargeId}`, community(made))).status).toBe("expired")
  })
})

describe("Stripe: webhooks", () => {
  const pixSale = async () => {
    const made = await shop(api)
    const pix = expectOk(
      await api.post(
        "/api/checkout",
        { productId: made.product.id, paymentMethod: "PIX", buyer: buyer() },
        community(made)
      ),
      201
    )
    return { made, pix, intent: fake.intentFor(pix.chargeId)! }
  }

  it("refuses a bad signature and an old timestamp (5 minutes), changing nothing", async () => {
    const { made, pix, intent } = await pixSale()
    const event = stripeEvent("payment_intent.succeeded", fake.succeed(intent.id))
    expectError(await postStripeEvent(api, event, { secret: "whsec_another_endpoint" }), 400, "Webhook inválido.")
    expectError(await postStripeEvent(api, event, { signature: "t=1,v1=deadbeef" }), 400)
    const old = Math.floor(Date.now() / 1000) - 301
    expectError(await postStripeEvent(api, event, { timestamp: old }), 400)
    const raw = JSON.stringify(event)
    // the signature covers the exact bytes: the same event re-serialised with spaces is refused
    expectError(
      await api.call("POST", "/api/checkout/webhooks/stripe", {
        raw: JSON.stringify(event, null, 1),
        headers: { "stripe-signature": signStripe(raw) }
      }),
      400
    )
    expectError(await api.call("POST", "/api/checkout/webhooks/stripe", { raw }), 400)
    expect(expectOk(await api.get(`/api/checkout/charges/${pix.chargeId}`, community(made))).status).toBe("pending")
    const recent = Math.floor(Date.now() / 1000) - 200
    expect(expectOk(await postStripeEvent(api, event, { timestamp: recent })).status).toBe("paid")
  })

  it("handles a replayed event once, and acknowledges events that are not Roda's", async () => {
    const { pix, intent } = await pixSale()
    const event = stripeEvent("payment_intent.succeeded", fake.succeed(intent.id))
    const replies = await Promise.all(Array.from({ length: 5 }, () => postStripeEvent(api, event)))
    const handled = replies.map((reply) => expectOk(reply))
    expect(handled.filter((h) => !h.duplicate)).toHaveLength(1)
    expect(
      await query(
        roda,
        (sql) => sql`SELECT id FROM ledger_transactions WHERE reference = ${pix.chargeId} AND kind = 'sale'`
      )
    ).toHaveLength(1)
    const foreign = stripeEvent("payment_intent.succeeded", { ...intent, id: "pi_elsewhere", metadata: {} })
    expect(expectOk(await postStripeEvent(api, foreign))).toMatchObject({ duplicate: false, chargeId: null })
    const unrelated = stripeEvent("customer.created", { id: "cus_1", object: "customer" })
    expect(expectOk(await postStripeEvent(api, unrelated)).chargeId).toBeNull()
  })

  it("keeps the sale when charge.refunded arrives before payment_intent.succeeded", async () => {
    const { made, pix, intent } = await pixSale()
    fake.succeed(intent.id)
    const refunded = stripeEvent("charge.refunded", {
      id: "ch_out_of_order",
      object: "charge",
      amount: intent.amount,
      amount_refunded: 4000,
      payment_intent: intent.id,
      metadata: {},
      refunded: false
    })
    expect(expectOk(await postStripeEvent(api, refunded))).toMatchObject({ chargeId: pix.chargeId, status: "paid" })
    expect(expectOk(await postStripeEvent(api, stripeEvent("payment_intent.succeeded", intent))).status).toBe("paid")
    const [charge] = await query<{ refundedAmount: string }>(
      roda,
      (sql) => sql`SELECT refunded_amount::text AS refunded_amount FROM charges WHERE id = ${pix.chargeId}`
    )
    expect(charge!.refundedAmount).toBe("4000")
    const kinds = await query<{ kind: string }>(
      roda,
      (sql) => sql`SELECT kind FROM ledger_transactions WHERE reference = ${pix.chargeId}`
    )
    expect(kinds.map((k) => k.kind).filter((k) => k !== "release").sort()).toEqual(["refund", "sale"])
    expect(expectOk(await api.get(`/api/checkout/charges/${pix.chargeId}`, community(made))).purchaseId)
      .toEqual(expect.any(String))
  })
})

describe("Stripe: refunds and disputes", () => {
  it("refunds in part then in full with idempotency keys, the connected account giving its part back", async () => {
    const made = await shop(api)
    await connect(made.community.id, "acct_1RodaRefunds")
    const sale = expectOk(await api.post("/api/checkout", cardCheckout(made.product.id), community(made)), 201)
    const part = expectOk(
      await api.post(
        `/api/manage/purchases/${sale.purchaseId}/refund`,
        { amount: 3000, reason: "parcial" },
        made.scoped
      )
    )
    const rest = expectOk(
      await api.post(`/api/manage/purchases/${sale.purchaseId}/refund`, { reason: "resto" }, made.scoped)
    )
    expect(rest).toMatchObject({ amount: 7000, full: true })
    const sent = fake.calls("POST", "/v1/refunds").filter((r) => r.params.metadata?.roda_charge_id === sale.chargeId)
    expect(sent.map((r) => [r.params.amount, r.idempotencyKey])).toEqual([
      ["3000", `roda-refund-${part.id}`],
      ["7000", `roda-refund-${rest.id}`]
    ])
    expect(sent[0]!.params).toMatchObject({
      payment_intent: fake.intentFor(sale.chargeId)!.id,
      reverse_transfer: "true",
      refund_application_fee: "true"
    })
    const rows = await query<{ status: string; gatewayRefundId: string }>(
      roda,
      (sql) => sql`SELECT status, gateway_refund_id FROM refunds WHERE charge_id = ${sale.chargeId} ORDER BY created_at`
    )
    expect(rows.map((r) => r.status)).toEqual(["succeeded", "succeeded"])
    expect(rows.every((r) => r.gatewayRefundId.startsWith("re_"))).toBe(true)
    // the refund Stripe then reports (its total) is already known: nothing more is posted
    const reported = stripeEvent("charge.refunded", {
      id: "ch_x",
      object: "charge",
      amount: 10000,
      amount_refunded: 10000,
      payment_intent: fake.intentFor(sale.chargeId)!.id,
      metadata: {}
    })
    expectOk(await postStripeEvent(api, reported))
    expect(await query(roda, (sql) => sql`SELECT id FROM refunds WHERE charge_id = ${sale.chargeId}`)).toHaveLength(2)
  })

  it("takes a lost dispute back from the community's balance as a chargeback", async () => {
    const made = await shop(api)
    const sale = expectOk(await api.post("/api/checkout", cardCheckout(made.product.id), community(made)), 201)
    const intent = fake.intentFor(sale.chargeId)!
    const dispute = (id: string, status: string) =>
      stripeEvent("charge.dispute.closed", {
        id,
        object: "dispute",
        amount: 10000,
        currency: "brl",
        payment_intent: intent.id,
        reason: "fraudulent",
        status
      })
    // a dispute won (never seen open) takes nothing; a dispute still under review is not a close
    expect(expectOk(await postStripeEvent(api, dispute(`dp_won_${sale.chargeId}`, "won"))).chargeId)
      .toBe(sale.chargeId)
    expect(expectOk(await postStripeEvent(api, dispute(`dp_open_${sale.chargeId}`, "under_review"))).ignored)
      .toBe(true)
    expect(expectOk(await postStripeEvent(api, dispute(`dp_lost_${sale.chargeId}`, "lost")))).toMatchObject({
      chargeId: sale.chargeId
    })
    const rows = await query<{ kind: string; amount: string; refundedBy: string | null }>(
      roda,
      (sql) => sql`SELECT kind, amount::text AS amount, refunded_by FROM refunds WHERE charge_id = ${sale.chargeId}`
    )
    expect(rows).toEqual([{ kind: "chargeback", amount: "10000", refundedBy: null }])
    const balance = expectOk(await api.get("/api/ledger/balance", made.scoped))
    expect(balance[0]).toMatchObject({ pending: 0 })
  })
})

describe("Stripe: configuration", () => {
  it("reports the gateway, its methods and installments, and hides the sandbox routes", async () => {
    const made = await shop(api)
    const config = expectOk(await api.get("/api/checkout/config", community(made)))
    expect(config).toMatchObject({ gateway: "stripe", sandbox: false })
    expect(config.paymentMethods.map((m: { method: string }) => m.method)).toEqual(["CREDIT_CARD", "PIX", "BOLETO"])
    expect(config.paymentMethods[0]).toMatchObject({ method: "CREDIT_CARD", maxInstallments: 12 })
    expectError(await api.post(`/api/checkout/sandbox/${crypto.randomUUID()}/pay`, {}, made.scoped), 404)
  })

  it("lets only platform operators set or remove a community's connected account", async () => {
    const made = await shop(api)
    const path = `/api/admin/communities/${made.community.id}/gateway-account`
    expectError(await api.put(path, { accountId: "acct_1Owner" }, made.scoped), 403)
    expectError(await api.get(path), 401)
    const operator = await platformAdmin(api)
    expectError(
      await api.get(`/api/admin/communities/${crypto.randomUUID()}/gateway-account`, { token: operator }),
      404
    )
    expect(expectOk(await api.get(path, { token: operator })).accountId).toBeNull()
    await connect(made.community.id, "acct_1Operator")
    expect(expectOk(await api.del(path, { token: operator })).accountId).toBeNull()
  })
})
