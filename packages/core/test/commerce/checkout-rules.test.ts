import { afterAll, describe, expect, it } from "vitest"
import { as, newCommunity } from "../support/community"
import { expectCreated, expectError, expectInvalid, expectOk, unknownId } from "../support/envelope"
import { client, register, startRoda } from "../support/harness"
import { outboxFor } from "../support/outbox"
import { activePlanOption, activeProduct, approveBusiness, VALID_CNPJ } from "../support/selling"
import { query } from "../support/sql"
import { createSection, createSpace } from "../support/structure"
import { billingAddress, buyer, cardCheckout, planOf, shop } from "./checkout-support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const countOf = async (communityId: string) =>
  (await query<{ charges: number; keys: number; holds: number; ledger: number; profiles: number }>(
    roda,
    (sql) =>
      sql`SELECT
        (SELECT count(*)::int FROM charges WHERE community_id = ${communityId}) AS charges,
        (SELECT count(*)::int FROM idempotency_keys WHERE community_id = ${communityId}) AS keys,
        (SELECT count(*)::int FROM coupon_redemptions WHERE community_id = ${communityId}) AS holds,
        (SELECT count(*)::int FROM ledger_entries WHERE community_id = ${communityId}) AS ledger,
        (SELECT count(*)::int FROM profiles WHERE community_id = ${communityId}) AS profiles`
  ))[0]

describe("quote", () => {
  it("prices coupon, installments and interest, and writes nothing", async () => {
    const made = await shop(api, { hasStock: true, stockQuantity: 4 })
    expectCreated(await api.post("/api/coupons", { code: "VINTE", amountOff: 2000 }, made.scoped))
    const scoped = { community: made.community.id, headers: { "idempotency-key": "not-for-quotes" } }
    const before = await countOf(made.community.id)
    const quote = expectOk(
      await api.post("/api/checkout/quote", {
        productId: made.product.id,
        paymentMethod: "CREDIT_CARD",
        installments: 2,
        couponCode: "vinte"
      }, scoped),
      200,
      "Orçamento calculado."
    )
    expect(quote).toMatchObject({
      productId: made.product.id,
      couponCode: "VINTE",
      listAmount: 10000,
      discount: 2000,
      amount: 8000,
      installments: 2,
      interestRateBps: 289,
      installmentAmount: 4174,
      total: 8348,
      interest: 348
    })
    expect(await countOf(made.community.id)).toEqual(before)
    const [stock] = await query<{ stockQuantity: number }>(
      roda,
      (sql) => sql`SELECT stock_quantity FROM products WHERE id = ${made.product.id}`
    )
    expect(stock?.stockQuantity).toBe(4)
    expect(expectOk(await api.get("/api/coupons/VINTE", made.scoped)).timesRedeemed).toBe(0)
  })

  it("refuses as checkout does", async () => {
    const made = await newCommunity(api)
    const scoped = { community: made.community.id }
    const body = { productId: unknownId(), paymentMethod: "PIX" }
    expectError(
      await api.post("/api/checkout/quote", body, scoped),
      403,
      "Community must have approved business information to enable paid products"
    )
    await approveBusiness(api, made.owner, made.community)
    expectError(
      await api.post("/api/checkout/quote", body, scoped),
      400,
      "Payment configuration has not been set up for this community"
    )
    const selling = await shop(api, { allowedPaymentMethods: ["CREDIT_CARD"] })
    const other = await shop(api)
    const at = { community: selling.community.id }
    expectError(
      await api.post("/api/checkout/quote", { productId: other.product.id, paymentMethod: "CREDIT_CARD" }, at),
      404,
      "Product not found"
    )
    expectInvalid(
      await api.post("/api/checkout/quote", { productId: selling.product.id, paymentMethod: "PIX" }, at),
      "paymentMethod"
    )
    expectInvalid(
      await api.post("/api/checkout/quote", {
        productId: selling.product.id,
        paymentMethod: "CREDIT_CARD",
        couponCode: "NADA"
      }, at),
      "couponCode"
    )
    expectInvalid(await api.post("/api/checkout/quote", { productId: "x", paymentMethod: "CASH" }, at), "productId")
  })
})

describe("configuration", () => {
  it("tells the methods, their installments and interest, and the sandbox", async () => {
    const made = await shop(api)
    const config = expectOk(await api.get("/api/checkout/config", { community: made.community.id }))
    expect(config.paymentMethods).toEqual([
      { method: "CREDIT_CARD", maxInstallments: 12, interestRateBps: 289 },
      { method: "PIX", maxInstallments: 1, interestRateBps: 0 },
      { method: "BOLETO", maxInstallments: 1, interestRateBps: 0 }
    ])
    expect(config).toMatchObject({ currency: "BRL", sandbox: true })
    expectInvalid(await api.get("/api/checkout/config"), "X-CommunityId", "headers")
  })
})

describe("installments, boleto and messages", () => {
  it("takes 1..12 installments by card only, and boleto waits three days", async () => {
    const made = await shop(api)
    const scoped = { community: made.community.id }
    const twelve = expectOk(
      await api.post("/api/checkout", cardCheckout(made.product.id, { installments: 12 }), scoped),
      201
    )
    expect(twelve).toMatchObject({ installments: 12, amount: 10000, status: "paid" })
    expect(twelve.installmentAmount * 12).toBe(twelve.total)
    expect(twelve.interest).toBe(twelve.total - 10000)
    for (const installments of [0, 13, 1.5]) {
      expectInvalid(
        await api.post("/api/checkout", cardCheckout(made.product.id, { installments }), scoped),
        "installments"
      )
    }
    expectInvalid(
      await api.post("/api/checkout", {
        productId: made.product.id,
        paymentMethod: "BOLETO",
        installments: 3,
        buyer: buyer()
      }, scoped),
      "installments"
    )
    const boleto = expectOk(
      await api.post(
        "/api/checkout",
        { productId: made.product.id, paymentMethod: "BOLETO", buyer: buyer(), billingAddress },
        scoped
      ),
      201
    )
    const hours = (Date.parse(boleto.expiresAt) - Date.parse(boleto.createdAt)) / 3_600_000
    expect(Math.round(hours)).toBe(72)
    expect(boleto.paymentCode).toEqual(expect.any(String))
  })

  it("answers in English when asked, and takes a CNPJ buyer", async () => {
    const made = await shop(api)
    const english = {
      community: made.community.id,
      headers: { "accept-language": "en" }
    }
    expectError(
      await api.post("/api/checkout", cardCheckout(made.product.id, { cardToken: "tok_chargeDeclined" }), english),
      402,
      "The payment was declined by the card issuer."
    )
    const company = expectOk(
      await api.post(
        "/api/checkout",
        cardCheckout(made.product.id, { buyer: { ...buyer(), taxId: VALID_CNPJ } }),
        english
      ),
      201,
      "Payment approved."
    )
    expect(company.status).toBe("paid")
  })
})

describe("the buyer", () => {
  it("an existing account buys through an invitation it accepts; its profile is created once", async () => {
    const made = await shop(api)
    const scoped = { community: made.community.id }
    const known = await register(api)
    const first = expectOk(
      await api.post("/api/checkout", cardCheckout(made.product.id, { buyer: buyer(known.email) }), scoped),
      201
    )
    expect(first).not.toHaveProperty("accountCreated")
    const again = expectOk(
      await api.post("/api/checkout", cardCheckout(made.product.id, { buyer: buyer(known.email) }), scoped),
      201
    )
    expect(again.profileId).toBe(first.profileId)
    const mails = (await outboxFor(roda, known.email)).map((mail) => mail.kind)
    expect(mails.filter((kind) => kind === "invite")).toEqual([])
    expect(mails.filter((kind) => kind === "invitation")).toHaveLength(1)
    expectOk(await api.post(`/api/profiles/${first.profileId}/accept`, undefined, as(known, made.community)))
    expect(expectOk(await api.get("/api/purchases/me", as(known, made.community)))).toHaveLength(2)
  })
})

describe("order of checks and stock", () => {
  it("a sold-out product answers 409 before the coupon is looked at, and quotes say so too", async () => {
    const made = await shop(api, { hasStock: true, stockQuantity: 1 })
    const scoped = { community: made.community.id }
    expectOk(await api.post("/api/checkout", cardCheckout(made.product.id), scoped), 201)
    const soldOut = expectError(
      await api.post("/api/checkout", cardCheckout(made.product.id, { couponCode: "NAOEXISTE" }), scoped),
      409,
      "Produto esgotado."
    )
    expect(soldOut.errors[0].param).toBe("productId")
    expectError(
      await api.post("/api/checkout/quote", { productId: made.product.id, paymentMethod: "PIX" }, scoped),
      409
    )
    const unlimited = await activeProduct(api, made.owner, made.community, { title: "Digital" })
    expectOk(await api.post("/api/checkout", cardCheckout(unlimited.id), scoped), 201)
  })
})

describe("subscriptions with add-ons", () => {
  it("grant the plan, the option and each add-on until the period ends", async () => {
    const made = await shop(api)
    const option = await activePlanOption(api, made.owner, made.community, {
      title: "Trimestral",
      price: 12000,
      billingInterval: "QUARTERLY"
    })
    // plan add-ons are monthly SUBSCRIPTION products (spec §2)
    const addOn = await activePlanOption(api, made.owner, made.community, { title: "Mentoria", price: 3000 })
    const plan = expectCreated(
      await api.post("/api/subscription-groups", {
        name: "Plano",
        productIds: [option.id],
        addOnProductIds: [addOn.id]
      }, made.scoped)
    )
    const section = await createSection(api, made, { visibility: "public" })
    const space = await createSpace(api, made, section.id, {
      visibility: "private",
      access: { subscriptionGroupIds: [plan.id] }
    })
    const member = await made.addMember("member")
    const scoped = as(member, made.community)
    expect(expectOk(await api.get(`/api/spaces/${space.id}`, scoped)).canReadContent).toBe(false)
    const sale = expectOk(
      await api.post("/api/checkout", {
        productId: option.id,
        subscriptionGroupId: plan.id,
        addOnProductIds: [addOn.id],
        paymentMethod: "CREDIT_CARD",
        cardToken: "tok_visa"
      }, scoped),
      201
    )
    expect(sale).toMatchObject({ listAmount: 15000, amount: 15000, addOnProductIds: [addOn.id], purchaseId: null })
    expect(expectOk(await api.get(`/api/spaces/${space.id}`, scoped)).canReadContent).toBe(true)
    const [subscription] = await query<{ status: string; currentPeriodStart: Date; currentPeriodEnd: Date }>(
      roda,
      (sql) =>
        sql`SELECT status, current_period_start, current_period_end FROM subscriptions WHERE id = ${sale.subscriptionId}`
    )
    const start = new Date(subscription!.currentPeriodStart)
    const end = new Date(subscription!.currentPeriodEnd)
    expect(subscription?.status).toBe("active")
    expect((end.getUTCFullYear() - start.getUTCFullYear()) * 12 + end.getUTCMonth() - start.getUTCMonth()).toBe(3)
    const grants = await query<{ sourceType: string; sourceId: string; validUntil: Date }>(
      roda,
      (sql) =>
        sql`SELECT source_type, source_id, valid_until FROM entitlements WHERE profile_id = ${member.profileId}
          ORDER BY source_type, source_id`
    )
    expect(grants.map((g) => [g.sourceType, g.sourceId]).sort()).toEqual(
      [["plan", plan.id], ["product", option.id], ["product", addOn.id]].sort()
    )
    for (const grant of grants) expect(new Date(grant.validUntil).getTime()).toBe(end.getTime())
    const stranger = await planOf(api, made)
    expectInvalid(
      await api.post("/api/checkout", {
        productId: option.id,
        subscriptionGroupId: stranger.plan.id,
        paymentMethod: "CREDIT_CARD",
        cardToken: "tok_visa"
      }, scoped),
      "productId"
    )
    expectInvalid(
      await api.post("/api/checkout", {
        productId: stranger.option.id,
        subscriptionGroupId: stranger.plan.id,
        addOnProductIds: [addOn.id],
        paymentMethod: "CREDIT_CARD",
        cardToken: "tok_visa"
      }, scoped),
      "addOnProductIds"
    )
  })
})

describe("idempotency", () => {
  it("keeps nothing for a refused request, so the key can be retried", async () => {
    const made = await shop(api)
    const scoped = { community: made.community.id, headers: { "idempotency-key": `retry-${unknownId()}` } }
    const body = cardCheckout(made.product.id, { cardToken: "tok_chargeDeclined" })
    expectError(await api.post("/api/checkout", body, scoped), 402)
    expectError(await api.post("/api/checkout", body, scoped), 402)
    const paid = expectOk(await api.post("/api/checkout", { ...body, cardToken: "tok_visa" }, scoped), 201)
    const replayed = expectOk(await api.post("/api/checkout", { ...body, cardToken: "tok_visa" }, scoped), 201)
    expect(replayed).toEqual(paid)
    // keys are per community: the same key elsewhere is a new request
    const other = await shop(api)
    const elsewhere = expectOk(
      await api.post("/api/checkout", cardCheckout(other.product.id), {
        community: other.community.id,
        headers: scoped.headers
      }),
      201
    )
    expect(elsewhere.chargeId).not.toBe(paid.chargeId)
  })
})

describe("plans sharing an option, and who becomes a member", () => {
  it("asks which plan when the option is in several, and sells it in the one named", async () => {
    const made = await shop(api)
    const { option, plan } = await planOf(api, made)
    const other = expectCreated(
      await api.post("/api/subscription-groups", { name: "Plano Duo", productIds: [option.id] }, made.scoped)
    )
    const signedIn = await register(api)
    const scoped = { token: signedIn.token, community: made.community.id }
    expectInvalid(
      await api.post("/api/checkout", cardCheckout(option.id, { buyer: undefined }), scoped),
      "subscriptionGroupId"
    )
    const sale = expectOk(
      await api.post(
        "/api/checkout",
        cardCheckout(option.id, { buyer: undefined, subscriptionGroupId: other.id }),
        scoped
      ),
      201
    )
    const [subscription] = await query<{ subscriptionGroupId: string }>(
      roda,
      (sql) => sql`SELECT subscription_group_id FROM subscriptions WHERE id = ${sale.subscriptionId}`
    )
    expect(subscription?.subscriptionGroupId).toBe(other.id)
    expect(plan.id).not.toBe(other.id)
  })

  it("makes a signed-in buyer a member at once (buying is their consent), an e-mail typed by a stranger only invited", async () => {
    const made = await shop(api)
    const signedIn = await register(api)
    expectOk(
      await api.post("/api/checkout", cardCheckout(made.product.id, { buyer: undefined }), {
        token: signedIn.token,
        community: made.community.id
      }),
      201
    )
    const mine = expectOk(await api.get("/api/purchases/me", { token: signedIn.token, community: made.community.id }))
    expect(mine).toHaveLength(1)
    const typedByStranger = await register(api)
    expectOk(
      await api.post("/api/checkout", cardCheckout(made.product.id, { buyer: buyer(typedByStranger.email) }), {
        community: made.community.id
      }),
      201
    )
    const theirs = await api.get("/api/purchases/me", { token: typedByStranger.token, community: made.community.id })
    expectError(theirs, 403, "Você não é membro desta comunidade.")
  })
})
