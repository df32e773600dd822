import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { Checkout } from "../../src/commerce/checkout/Checkout"
import { postStripeEvent, sandboxDriver, stripeDriver } from "../stripe/support/gateways"
import { as, newCommunity } from "../support/community"
import { expectCreated, expectError, expectInvalid, expectOk, unknownId, UUID } from "../support/envelope"
import { client, register, uniqueEmail } from "../support/harness"
import { outboxFor, passwordLinkFor } from "../support/outbox"
import { approveBusiness, businessInformation, platformAdmin } from "../support/selling"
import { query } from "../support/sql"
import { createSection, createSpace } from "../support/structure"
import { billingAddress, buyer, cardCheckout, planOf, sandboxWebhook, shop } from "./checkout-support"

// The checkout conformance: every test below runs against the sandbox and against Stripe (the
// stand-in of its API in test/stripe/support), the same assertions through the same routes.
const drivers = [sandboxDriver(), await stripeDriver()]
afterAll(() => Promise.all(drivers.map((driver) => driver.dispose())))

describe.each(drivers)("on the $name gateway", (gateway) => {
  const roda = gateway.roda
  const api = client(roda)
  const sandbox = gateway.name === "sandbox"
  /** The bank pays a pending charge: the sandbox route, or the gateway's own signed webhook. */
  const pay = (made: { scoped: { token: string; community: string } }, chargeId: string) =>
    sandbox
      ? api.post(`/api/checkout/sandbox/${chargeId}/pay`, {}, made.scoped)
      : gateway.payByWebhook(api, chargeId)

  const stockOf = async (productId: string) =>
    (await query<{ stockQuantity: number }>(
      roda,
      (sql) => sql`SELECT stock_quantity FROM products WHERE id = ${productId}`
    ))[0]
      ?.stockQuantity

  const chargesOf = (productId: string) =>
    query<{ id: string; status: string }>(
      roda,
      (sql) => sql`SELECT id, status FROM charges WHERE product_id = ${productId}`
    )

  const unbalancedTransactions = (communityId: string) =>
    query(roda, (sql) =>
      sql`SELECT transaction_id FROM ledger_entries WHERE community_id = ${communityId}
      GROUP BY transaction_id, currency HAVING sum(amount) <> 0`)

  describe("checkout by card", () => {
    it("sells at once: purchase, stock, entitlement, ledger, sales notice and the buyer's new account", async () => {
      const made = await shop(api, { hasStock: true, stockQuantity: 5 })
      const section = await createSection(api, made, { visibility: "public" })
      const space = await createSpace(api, made, section.id, {
        visibility: "private",
        access: { productIds: [made.product.id] }
      })
      const email = uniqueEmail("buyer")
      const reply = await api.post("/api/checkout", cardCheckout(made.product.id, { buyer: buyer(email) }), {
        community: made.community.id
      })
      const sale = expectOk(reply, 201, "Pagamento aprovado.")
      expect(sale).toMatchObject({
        status: "paid",
        amount: 10000,
        total: 10000,
        currency: "BRL",
        subscriptionId: null
      })
      expect(sale.purchaseId).toMatch(UUID)
      expect(await stockOf(made.product.id)).toBe(4)
      expect(await unbalancedTransactions(made.community.id)).toEqual([])
      const balance = expectOk(await api.get("/api/ledger/balance", made.scoped))
      expect(balance[0]).toMatchObject({ currency: "BRL", pending: 10000 - (499 + 49) })
      expect((await outboxFor(roda, made.salesEmail)).map((m) => m.kind)).toEqual(["sale"])
      expect((await outboxFor(roda, email)).map((m) => m.kind).sort()).toEqual(["invite", "receipt"])
      const entitlements = await query(
        roda,
        (sql) => sql`SELECT source_type, source_id FROM entitlements WHERE profile_id = ${sale.profileId}`
      )
      expect(entitlements).toEqual([{ sourceType: "product", sourceId: made.product.id }])
      // the buyer sets a password from the e-mail, signs in, and reads the space the product opens
      const link = await passwordLinkFor(roda, email)
      expectOk(await api.post("/api/auth/set-password", { id: link.id, token: link.token, password: "Compra123x" }))
      const token = expectOk(await api.post("/api/auth/login", { email, password: "Compra123x" })).token
      const opened = expectOk(await api.get(`/api/spaces/${space.id}`, as({ token }, made.community)))
      expect(opened.canReadContent).toBe(true)
    })

    it("buys for the signed-in caller, opens the gated space, and lists the purchase as theirs", async () => {
      const made = await shop(api)
      const section = await createSection(api, made, { visibility: "public" })
      const space = await createSpace(api, made, section.id, { access: { productIds: [made.product.id] } })
      const member = await made.addMember("member")
      expect(expectOk(await api.get(`/api/spaces/${space.id}`, as(member, made.community))).canReadContent).toBe(false)
      const sale = expectOk(
        await api.post(
          "/api/checkout",
          cardCheckout(made.product.id, { buyer: undefined }),
          as(member, made.community)
        ),
        201
      )
      expect(sale.profileId).toBe(member.profileId)
      expect(expectOk(await api.get(`/api/spaces/${space.id}`, as(member, made.community))).canReadContent).toBe(true)
      const mine = await api.get("/api/purchases/me", as(member, made.community))
      expect(expectOk(mine).map((p: { id: string }) => p.id)).toEqual([sale.purchaseId])
      expect(mine.body.pagination).toEqual({ limit: 20, nextCursor: null })
      expect(expectOk(await api.get("/api/purchases/me", made.scoped))).toEqual([])
      const outsider = await register(api)
      const joined = expectOk(
        await api.post(
          "/api/checkout",
          cardCheckout(made.product.id, { buyer: undefined }),
          as(outsider, made.community)
        ),
        201
      )
      expect(joined.profileId).toEqual(expect.any(String))
      // an existing account is never made a member silently: it accepts the invitation, then sees its purchase
      expectOk(await api.post(`/api/profiles/${joined.profileId}/accept`, undefined, as(outsider, made.community)))
      expect(expectOk(await api.get("/api/purchases/me", as(outsider, made.community)))).toHaveLength(1)
    })

    it("answers 402 for a declined card and keeps nothing", async () => {
      const made = await shop(api, { hasStock: true, stockQuantity: 2 })
      const reply = await api.post(
        "/api/checkout",
        cardCheckout(made.product.id, { cardToken: "tok_chargeDeclined" }),
        {
          community: made.community.id
        }
      )
      expectError(reply, 402, "Pagamento recusado pelo emissor do cartão.")
      expect(await stockOf(made.product.id)).toBe(2)
      // the declined attempt is kept, final `failed` (reserved before the gateway was asked), nothing else
      expect(await chargesOf(made.product.id)).toEqual([{ id: expect.any(String), status: "failed" }])
      expectInvalid(
        await api.post("/api/checkout", cardCheckout(made.product.id, { cardToken: "tok_unknown" }), {
          community: made.community.id
        }),
        "cardToken"
      )
      expectInvalid(
        await api.post("/api/checkout", cardCheckout(made.product.id, { cardToken: undefined }), {
          community: made.community.id
        }),
        "cardToken"
      )
    })

    it("charges installments with interest and takes coupons off before it", async () => {
      const made = await shop(api)
      expectCreated(await api.post("/api/coupons", { code: "DEZ", percentOff: 10 }, made.scoped))
      const quote = expectOk(
        await api.post("/api/checkout/quote", {
          productId: made.product.id,
          paymentMethod: "CREDIT_CARD",
          installments: 2
        }, { community: made.community.id })
      )
      expect(quote).toMatchObject({
        amount: 10000,
        installments: 2,
        installmentAmount: 5218,
        total: 10436,
        interest: 436
      })
      expect(await chargesOf(made.product.id)).toEqual([])
      const sale = expectOk(
        await api.post("/api/checkout", cardCheckout(made.product.id, { couponCode: "dez" }), {
          community: made.community.id
        }),
        201
      )
      expect(sale).toMatchObject({ listAmount: 10000, discount: 1000, amount: 9000, total: 9000 })
      const coupon = expectOk(await api.get("/api/coupons/DEZ", made.scoped))
      expect(coupon.timesRedeemed).toBe(1)
    })
  })

  describe("checkout refusals and validation", () => {
    it("needs approved business information (403) and approved payout settings (400), config included", async () => {
      const made = await newCommunity(api)
      const scoped = { community: made.community.id }
      const body = cardCheckout(unknownId())
      const business = "Community must have approved business information to enable paid products"
      expectError(await api.get("/api/checkout/config", scoped), 403, business)
      expectError(await api.post("/api/checkout", body, scoped), 403, business)
      const quote = { productId: body.productId, paymentMethod: body.paymentMethod }
      expectError(await api.post("/api/checkout/quote", quote, scoped), 403, business)
      await approveBusiness(api, made.owner, made.community)
      const payments = "Payment configuration has not been set up for this community"
      expectError(await api.get("/api/checkout/config", scoped), 400, payments)
      expectError(await api.post("/api/checkout", body, scoped), 400, payments)
    })

    it("refuses again once approved business information is edited, until it is approved again", async () => {
      const made = await shop(api)
      const scoped = { community: made.community.id }
      expectOk(
        await api.post("/api/business-information", { ...businessInformation(), legalName: "Outra Ltda" }, made.scoped)
      )
      const business = "Community must have approved business information to enable paid products"
      expectError(await api.post("/api/checkout", cardCheckout(made.product.id), scoped), 403, business)
      const draft = expectCreated(
        await api.post("/api/products", { type: "ONE_TIME", title: "Novo", price: 500 }, made.scoped)
      )
      const refused = expectError(await api.post(`/api/products/${draft.id}/publish`, {}, made.scoped), 403)
      expect(refused.message).toMatch(
        /^To publish and start selling, the community needs approved business information/
      )
      const operator = await platformAdmin(api)
      // edited approved information is PENDING and needs submit again (spec §3) before an operator decides
      expectOk(await api.post("/api/business-information/submit", {}, made.scoped))
      expectOk(
        await api.post(`/api/admin/communities/${made.community.id}/business-information/approve`, {}, {
          token: operator
        })
      )
      expectOk(await api.post("/api/checkout", cardCheckout(made.product.id), scoped), 201)
    })

    it("answers the public configuration of a selling community", async () => {
      const made = await shop(api)
      const config = expectOk(await api.get("/api/checkout/config", { community: made.community.id }))
      expect(config).toMatchObject({ currency: "BRL", country: "BR", sandbox, gateway: gateway.name })
      expect(config.paymentMethods).toContainEqual({ method: "CREDIT_CARD", maxInstallments: 12, interestRateBps: 289 })
      expect(config.paymentMethods).toContainEqual({ method: "PIX", maxInstallments: 1, interestRateBps: 0 })
    })

    it("checks method, installments, buyer, product and ids", async () => {
      const made = await shop(api, { allowedPaymentMethods: ["PIX"] })
      const scoped = { community: made.community.id }
      expectInvalid(await api.post("/api/checkout", cardCheckout(made.product.id), scoped), "paymentMethod")
      expectInvalid(
        await api.post("/api/checkout", {
          productId: made.product.id,
          paymentMethod: "PIX",
          installments: 2,
          buyer: buyer()
        }, scoped),
        "installments"
      )
      expectInvalid(
        await api.post("/api/checkout", { productId: made.product.id, paymentMethod: "PIX" }, scoped),
        "buyer"
      )
      expectInvalid(
        await api.post("/api/checkout", {
          productId: made.product.id,
          paymentMethod: "PIX",
          buyer: { ...buyer(), taxId: "111.111.111-12" }
        }, scoped),
        "buyer.taxId"
      )
      expectInvalid(await api.post("/api/checkout", { ...cardCheckout("nope"), installments: 13 }, scoped), "productId")
      expectInvalid(
        await api.post("/api/checkout", { ...cardCheckout(made.product.id), installments: 13 }, scoped),
        "installments"
      )
      expectError(await api.post("/api/checkout", cardCheckout(unknownId()), scoped), 404, "Product not found")
      const other = await shop(api)
      expectError(await api.post("/api/checkout", cardCheckout(other.product.id), scoped), 404, "Product not found")
      const draft = expectCreated(
        await api.post("/api/products", { type: "ONE_TIME", title: "Rascunho", price: 100 }, made.scoped)
      )
      expectInvalid(
        await api.post("/api/checkout", { productId: draft.id, paymentMethod: "PIX", buyer: buyer() }, scoped),
        "productId"
      )
      expectInvalid(await api.post("/api/checkout", { raw: 1 }, scoped), "productId")
      expectInvalid(await api.post("/api/checkout", cardCheckout(made.product.id), {}), "X-CommunityId", "headers")
    })

    it("take a boleto only with its payer's address and CPF or CNPJ", async () => {
      const made = await shop(api)
      const scoped = { community: made.community.id }
      const boleto = { productId: made.product.id, paymentMethod: "BOLETO" }
      expectInvalid(await api.post("/api/checkout", { ...boleto, buyer: buyer() }, scoped), "billingAddress")
      const { city: _city, ...noCity } = billingAddress
      expectInvalid(
        await api.post("/api/checkout", { ...boleto, buyer: buyer(), billingAddress: noCity }, scoped),
        "billingAddress.city"
      )
      expectInvalid(
        await api.post("/api/checkout", {
          ...boleto,
          buyer: buyer(),
          billingAddress: { ...billingAddress, country: "Brasil" }
        }, scoped),
        "billingAddress.country"
      )
      // signed in, the buyer is known, but not their CPF or CNPJ
      const member = await made.addMember("member")
      expectInvalid(
        await api.post("/api/checkout", { ...boleto, billingAddress }, as(member, made.community)),
        "buyer.taxId"
      )
      const paid = expectOk(
        await api.post("/api/checkout", {
          ...boleto,
          billingAddress,
          buyer: { name: "Membro", taxId: buyer().taxId }
        }, as(member, made.community)),
        201
      )
      expect(paid).toMatchObject({ status: "pending", profileId: member.profileId })
      // nothing was reserved by the refused attempts
      expect(
        await query(roda, (sql) => sql`SELECT id FROM charges WHERE community_id = ${made.community.id}`)
      ).toHaveLength(1)
    })
  })

  describe("PIX, boleto and gateway webhooks", () => {
    it("leave the charge pending until the sandbox pays it", async () => {
      const made = await shop(api, { hasStock: true, stockQuantity: 3 })
      const scoped = { community: made.community.id }
      const pending = expectOk(
        await api.post("/api/checkout", { productId: made.product.id, paymentMethod: "PIX", buyer: buyer() }, scoped),
        201,
        "Cobrança criada: aguardando o pagamento."
      )
      expect(pending).toMatchObject({ status: "pending", purchaseId: null })
      expect(pending.paymentCode).toEqual(expect.any(String))
      expect(await stockOf(made.product.id)).toBe(2)
      expect(expectOk(await api.get(`/api/checkout/charges/${pending.chargeId}`, scoped)).status).toBe("pending")
      if (!sandbox) {
        expectError(await api.post(`/api/checkout/sandbox/${pending.chargeId}/pay`, {}, made.scoped), 404)
      }
      expectOk(await pay(made, pending.chargeId))
      const paid = expectOk(await api.get(`/api/checkout/charges/${pending.chargeId}`, scoped))
      expect(paid.status).toBe("paid")
      expect(paid.purchaseId).toMatch(UUID)
      if (sandbox) {
        const again = expectError(await api.post(`/api/checkout/sandbox/${pending.chargeId}/pay`, {}, made.scoped), 409)
        expect(again.errors[0].param).toBe("status")
        expectError(await api.post(`/api/checkout/sandbox/${unknownId()}/pay`, {}, made.scoped), 404)
      }
      expectError(
        await api.get(`/api/checkout/charges/${pending.chargeId}`, { community: (await shop(api)).community.id }),
        404
      )
      expectInvalid(await api.get("/api/checkout/charges/not-an-id", scoped), "chargeId", "params")
      expect(await unbalancedTransactions(made.community.id)).toEqual([])
    })

    it("settle a charge once per webhook event", async () => {
      const made = await shop(api)
      const scoped = { community: made.community.id }
      const pending = expectOk(
        await api.post(
          "/api/checkout",
          { productId: made.product.id, paymentMethod: "BOLETO", buyer: buyer(), billingAddress },
          scoped
        ),
        201
      )
      const eventId = `evt_${pending.chargeId}`
      const first = expectOk(await gateway.payByWebhook(api, pending.chargeId, eventId))
      expect(first).toMatchObject({ duplicate: false, status: "paid" })
      expect(expectOk(await gateway.payByWebhook(api, pending.chargeId, eventId)).duplicate).toBe(true)
      expect(await query(roda, (sql) => sql`SELECT id FROM purchases WHERE charge_id = ${pending.chargeId}`))
        .toHaveLength(1)
      expect(
        await query(
          roda,
          (sql) => sql`SELECT id FROM ledger_transactions WHERE reference = ${pending.chargeId} AND kind = 'sale'`
        )
      ).toHaveLength(1)
      const other = sandbox ? "stripe" : "sandbox"
      expectError(await api.post(`/api/checkout/webhooks/${other}`, { eventId }), 404)
      expectError(await api.post(`/api/checkout/webhooks/${gateway.name}`, { nothing: true }), 400)
      // signed, but not an event
      if (sandbox) expectError(await sandboxWebhook(api, { nothing: true }), 400)
      else expectError(await postStripeEvent(api, { nothing: true }), 400)
    })

    it("expire when unpaid, giving back stock and the coupon use", async () => {
      const made = await shop(api, { hasStock: true, stockQuantity: 1 })
      expectCreated(await api.post("/api/coupons", { code: "UMA", percentOff: 50, maxRedemptions: 1 }, made.scoped))
      const scoped = { community: made.community.id }
      const pending = expectOk(
        await api.post("/api/checkout", {
          productId: made.product.id,
          paymentMethod: "PIX",
          couponCode: "UMA",
          buyer: buyer()
        }, scoped),
        201
      )
      expect(await stockOf(made.product.id)).toBe(0)
      expectError(await api.post("/api/checkout", cardCheckout(made.product.id), scoped), 409, "Produto esgotado.")
      await query(
        roda,
        (sql) =>
          sql`UPDATE charges SET expires_at = now() - interval '1 minute' WHERE id = ${pending.chargeId} RETURNING id`
      )
      expectError(await api.post(`/api/checkout/sandbox/${pending.chargeId}/pay`, {}, made.scoped), sandbox ? 409 : 404)
      const expired = await roda.runtime.runPromise(Effect.flatMap(Checkout, (checkout) => checkout.expireDue()))
      expect(expired).toBeGreaterThanOrEqual(1)
      expect(await stockOf(made.product.id)).toBe(1)
      expect(expectOk(await api.get(`/api/checkout/charges/${pending.chargeId}`, scoped)).status).toBe("expired")
      const sale = expectOk(
        await api.post("/api/checkout", cardCheckout(made.product.id, { couponCode: "UMA" }), scoped),
        201
      )
      expect(sale.discount).toBe(5000)
    })
  })

  describe("subscriptions", () => {
    it("start active for their first period when paid by card, and incomplete until a PIX is paid", async () => {
      const made = await shop(api)
      const { option, plan } = await planOf(api, made)
      const scoped = { community: made.community.id }
      const sale = expectOk(
        await api.post("/api/checkout", cardCheckout(option.id, { subscriptionGroupId: plan.id }), scoped),
        201
      )
      expect(sale.subscriptionId).toMatch(UUID)
      const [subscription] = await query<{ status: string; currentPeriodStart: Date; currentPeriodEnd: Date }>(
        roda,
        (sql) =>
          sql`SELECT status, current_period_start, current_period_end FROM subscriptions WHERE id = ${sale.subscriptionId}`
      )
      expect(subscription?.status).toBe("active")
      const start = new Date(subscription!.currentPeriodStart)
      const end = new Date(subscription!.currentPeriodEnd)
      expect(end.getUTCMonth()).toBe((start.getUTCMonth() + 1) % 12)
      const grants = await query(
        roda,
        (sql) => sql`SELECT source_type FROM entitlements WHERE profile_id = ${sale.profileId} ORDER BY source_type`
      )
      expect(grants).toEqual([{ sourceType: "plan" }, { sourceType: "product" }])
      const pix = expectOk(
        await api.post("/api/checkout", { productId: option.id, paymentMethod: "PIX", buyer: buyer() }, scoped),
        201
      )
      const status = () =>
        query<{ status: string }>(roda, (sql) => sql`SELECT status FROM subscriptions WHERE id = ${pix.subscriptionId}`)
      expect(await status()).toEqual([{ status: "incomplete" }])
      expectOk(await pay(made, pix.chargeId))
      expect(await status()).toEqual([{ status: "active" }])
      expectInvalid(
        await api.post("/api/checkout", cardCheckout(made.product.id, { subscriptionGroupId: plan.id }), scoped),
        "addOnProductIds"
      )
    })
  })

  describe("under concurrency", () => {
    it("sells exactly the stock: 200 checkouts of 10 units", async () => {
      const made = await shop(api, { hasStock: true, stockQuantity: 10 })
      const replies = await Promise.all(
        Array.from(
          { length: 200 },
          () => api.post("/api/checkout", cardCheckout(made.product.id), { community: made.community.id })
        )
      )
      expect(replies.filter((r) => r.status === 201)).toHaveLength(10)
      expect(replies.filter((r) => r.status === 409)).toHaveLength(190)
      expect(await stockOf(made.product.id)).toBe(0)
      expect(await query(roda, (sql) => sql`SELECT id FROM purchases WHERE product_id = ${made.product.id}`))
        .toHaveLength(10)
    })

    it("never counts a coupon beyond its maximum: 30 checkouts, 3 uses", async () => {
      const made = await shop(api)
      expectCreated(await api.post("/api/coupons", { code: "TRES", amountOff: 500, maxRedemptions: 3 }, made.scoped))
      const replies = await Promise.all(
        Array.from(
          { length: 30 },
          () =>
            api.post("/api/checkout", cardCheckout(made.product.id, { couponCode: "TRES" }), {
              community: made.community.id
            })
        )
      )
      expect(replies.filter((r) => r.status === 201)).toHaveLength(3)
      for (const reply of replies.filter((r) => r.status !== 201)) expectInvalid(reply, "couponCode")
      expect(expectOk(await api.get("/api/coupons/TRES", made.scoped)).timesRedeemed).toBe(3)
    })

    it("replays the first answer for an Idempotency-Key, and charges once", async () => {
      const made = await shop(api)
      const scoped = { community: made.community.id, headers: { "idempotency-key": `key-${unknownId()}` } }
      const body = cardCheckout(made.product.id)
      const first = await api.post("/api/checkout", body, scoped)
      const second = await api.post("/api/checkout", body, scoped)
      expect(second.status).toBe(201)
      expect(second.body).toEqual(first.body)
      const conflicting = await api.post("/api/checkout", { ...body, installments: 2 }, scoped)
      expect(expectError(conflicting, 409).errors[0]).toMatchObject({ param: "Idempotency-Key", location: "headers" })
      const concurrentKey = { community: made.community.id, headers: { "idempotency-key": `key-${unknownId()}` } }
      const concurrent = await Promise.all(
        Array.from({ length: 10 }, () => api.post("/api/checkout", body, concurrentKey))
      )
      for (const reply of concurrent) expect(reply.body).toEqual(concurrent[0]!.body)
      expect(await chargesOf(made.product.id)).toHaveLength(2)
    })
  })

  describe("purchases/me", () => {
    it("needs a member and validates the cursor", async () => {
      const made = await shop(api)
      expectError(await api.get("/api/purchases/me", { community: made.community.id }), 401)
      expectInvalid(await api.get("/api/purchases/me?cursor=zzz", made.scoped), "cursor", "query")
    })
  })
})
