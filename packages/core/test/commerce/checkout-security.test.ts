import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { signSandboxWebhook } from "../../src/index"
import { expectError, expectInvalid, expectOk, unknownId, UUID } from "../support/envelope"
import { client, register, SANDBOX_WEBHOOK_SECRET, startRoda, uniqueEmail } from "../support/harness"
import { activePlanOption } from "../support/selling"
import { query } from "../support/sql"
import { buyer, cardCheckout, shop } from "./checkout-support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

type Shop = Awaited<ReturnType<typeof shop>>

const pixCheckout = async (made: Shop, options: { token?: string } = {}) =>
  expectOk(
    await api.post("/api/checkout", { productId: made.product.id, paymentMethod: "PIX", buyer: buyer() }, {
      ...options,
      community: made.community.id
    }),
    201
  )

const statusOf = async (chargeId: string) =>
  (await query<{ status: string }>(roda, (sql) => sql`SELECT status FROM charges WHERE id = ${chargeId}`))[0]?.status

const sign = (secret: string, raw: string, options: { timestamp?: number } = {}) =>
  Effect.runPromise(signSandboxWebhook(secret, raw, options))

const webhook = (raw: string, headers: Record<string, string> = {}) =>
  api.call("POST", "/api/checkout/webhooks/sandbox", { raw, headers })

describe("sandbox webhooks (Standard Webhooks signature)", () => {
  it("are refused with 400 unless signed with the secret over id, timestamp and body, within five minutes", async () => {
    const made = await shop(api)
    const pending = await pixCheckout(made)
    const raw = JSON.stringify({ eventId: `evt_${unknownId()}`, type: "charge.paid", chargeId: pending.chargeId })
    // unsigned: anyone could settle any charge
    expectError(await webhook(raw), 400)
    expect(await statusOf(pending.chargeId)).toBe("pending")
    const now = Math.floor(Date.now() / 1000)
    const wrongSecret = await sign("whsec_" + btoa("some-other-secret-of-enough-length"), raw)
    expectError(await webhook(raw, wrongSecret), 400)
    const signed = await sign(SANDBOX_WEBHOOK_SECRET, raw)
    // the body is bound to the signature
    expectError(await webhook(raw.replace("charge.paid", "charge.expired"), signed), 400)
    // so are the id and the timestamp
    expectError(await webhook(raw, { ...signed, "webhook-id": "msg_other" }), 400)
    expectError(await webhook(raw, { ...signed, "webhook-timestamp": String(now - 1) }), 400)
    // older or newer than five minutes, though signed
    for (const timestamp of [now - 6 * 60, now + 6 * 60]) {
      expectError(await webhook(raw, await sign(SANDBOX_WEBHOOK_SECRET, raw, { timestamp })), 400)
    }
    // malformed headers
    expectError(await webhook(raw, { ...signed, "webhook-signature": "v1,not base64!" }), 400)
    expectError(
      await webhook(raw, { ...signed, "webhook-signature": "v2," + signed["webhook-signature"]!.slice(3) }),
      400
    )
    expectError(await webhook(raw, { ...signed, "webhook-timestamp": "soon" }), 400)
    expect(await statusOf(pending.chargeId)).toBe("pending")
    // a valid signature among several (secret rotation) is enough; four minutes old is still on time
    const recent = await sign(SANDBOX_WEBHOOK_SECRET, raw, { timestamp: now - 4 * 60 })
    const handled = expectOk(
      await webhook(raw, {
        ...recent,
        "webhook-signature": `${wrongSecret["webhook-signature"]} ${recent["webhook-signature"]}`
      })
    )
    expect(handled).toMatchObject({ duplicate: false, chargeId: pending.chargeId, status: "paid" })
  })

  it("are refused when the server has no webhook secret", async () => {
    const bare = startRoda({ sandboxWebhookSecret: undefined })
    try {
      const raw = JSON.stringify({ eventId: `evt_${unknownId()}`, type: "charge.paid", chargeId: unknownId() })
      const reply = await client(bare).call("POST", "/api/checkout/webhooks/sandbox", {
        raw,
        headers: await sign(SANDBOX_WEBHOOK_SECRET, raw)
      })
      expectError(reply, 400)
    } finally {
      await bare.dispose()
    }
  })
})

describe("the sandbox pay route", () => {
  it("needs the buyer's token or an owner or admin of the community: 401 anonymous, 403 anyone else", async () => {
    const made = await shop(api)
    const member = await made.addMember("member")
    const colleague = await made.addMember("member")
    const moderator = await made.addMember("moderator")
    const admin = await made.addMember("admin")
    const outsider = await register(api)
    const pay = (chargeId: string, token?: string) =>
      api.post(`/api/checkout/sandbox/${chargeId}/pay`, undefined, { token, community: made.community.id })
    const first = await pixCheckout(made, { token: member.token })
    expectError(await pay(first.chargeId), 401, "Authentication token is required")
    for (const stranger of [colleague, moderator, outsider]) expectError(await pay(first.chargeId, stranger.token), 403)
    expectError(await pay(unknownId()), 401)
    expectError(await pay(unknownId(), member.token), 404)
    expect(await statusOf(first.chargeId)).toBe("pending")
    expect(expectOk(await pay(first.chargeId, member.token)).status).toBe("paid")
    const second = await pixCheckout(made, { token: member.token })
    expect(expectOk(await pay(second.chargeId, admin.token)).status).toBe("paid")
    const third = await pixCheckout(made)
    expect(expectOk(await pay(third.chargeId, made.owner.token)).status).toBe("paid")
  })
})

describe("large totals", () => {
  const plan = async (made: Shop, addOns: number) => {
    const option = await activePlanOption(api, made.owner, made.community, { price: 1_000_000_000 })
    const extras = []
    for (let i = 0; i < addOns; i++) {
      extras.push(
        await activePlanOption(api, made.owner, made.community, { title: `Extra ${i}`, price: 1_000_000_000 })
      )
    }
    const group = expectOk(
      await api.post("/api/subscription-groups", {
        name: "Plano Grande",
        productIds: [option.id],
        addOnProductIds: extras.map((extra) => extra.id)
      }, made.scoped),
      201
    )
    return { productId: option.id, subscriptionGroupId: group.id, addOnProductIds: extras.map((extra) => extra.id) }
  }

  it("sells a plan above 2^31 − 1 minor units and reads every amount back as a number", async () => {
    const made = await shop(api)
    const scoped = { community: made.community.id }
    const fields = await plan(made, 2)
    const quote = expectOk(await api.post("/api/checkout/quote", { ...fields, paymentMethod: "PIX" }, scoped))
    expect(quote).toMatchObject({ listAmount: 3_000_000_000, amount: 3_000_000_000, total: 3_000_000_000 })
    const sale = expectOk(
      await api.post("/api/checkout", { ...fields, paymentMethod: "PIX", buyer: buyer() }, scoped),
      201
    )
    expect(sale).toMatchObject({ status: "pending", listAmount: 3_000_000_000, total: 3_000_000_000 })
    expectOk(await api.post(`/api/checkout/sandbox/${sale.chargeId}/pay`, undefined, made.scoped))
    const charge = expectOk(await api.get(`/api/checkout/charges/${sale.chargeId}`, scoped))
    expect(charge).toMatchObject({ status: "paid", listAmount: 3_000_000_000, amount: 3_000_000_000 })
    const [row] = await query<{ total: unknown; net: unknown }>(
      roda,
      (sql) => sql`SELECT total, net FROM charges WHERE id = ${sale.chargeId}`
    )
    expect(row).toEqual({ total: 3_000_000_000, net: 3_000_000_000 - 59_700_000 })
    const [product] = await query<{ price: unknown }>(
      roda,
      (sql) => sql`SELECT price FROM products WHERE id = ${fields.productId}`
    )
    expect(product?.price).toBe(1_000_000_000)
    const balance = expectOk(await api.get("/api/ledger/balance", made.scoped))
    expect(balance[0].currency).toBe("BRL")
    expect(balance[0].pending + balance[0].available).toBe(3_000_000_000 - 59_700_000)
  })

  it("refuses a total above 10,000,000,000 minor units with 400, in the quote and the checkout", async () => {
    const made = await shop(api)
    const scoped = { community: made.community.id }
    const fields = await plan(made, 10)
    const nine = { ...fields, addOnProductIds: fields.addOnProductIds.slice(0, 9) }
    // 10 × 10^9: the largest total, accepted
    expect(expectOk(await api.post("/api/checkout/quote", { ...nine, paymentMethod: "PIX" }, scoped)).total)
      .toBe(10_000_000_000)
    // interest would take it over
    const card = { ...nine, paymentMethod: "CREDIT_CARD", installments: 2 }
    expectInvalid(await api.post("/api/checkout/quote", card, scoped), "installments")
    expectInvalid(
      await api.post("/api/checkout", { ...card, cardToken: "tok_visa", buyer: buyer() }, scoped),
      "installments"
    )
    // so would the eleventh product
    expectInvalid(await api.post("/api/checkout/quote", { ...fields, paymentMethod: "PIX" }, scoped), "addOnProductIds")
    expectInvalid(
      await api.post("/api/checkout", { ...fields, paymentMethod: "PIX", buyer: buyer() }, scoped),
      "addOnProductIds"
    )
    expect(await query(roda, (sql) => sql`SELECT id FROM charges WHERE community_id = ${made.community.id}`))
      .toEqual([])
    expectOk(await api.post("/api/checkout", { ...nine, paymentMethod: "PIX", buyer: buyer() }, scoped), 201)
  })
})

describe("Idempotency-Key is bound to the caller", () => {
  it("an anonymous caller replaying a signed-in buyer's key and body gets a charge of its own", async () => {
    const made = await shop(api)
    const member = await made.addMember("member")
    const key = { "idempotency-key": `key-${unknownId()}` }
    const body = cardCheckout(made.product.id)
    const first = expectOk(
      await api.post("/api/checkout", body, { token: member.token, community: made.community.id, headers: key }),
      201
    )
    expect(first.profileId).toBe(member.profileId)
    const replayed = expectOk(
      await api.post("/api/checkout", body, { token: member.token, community: made.community.id, headers: key }),
      201
    )
    expect(replayed.chargeId).toBe(first.chargeId)
    const anonymous = expectOk(
      await api.post("/api/checkout", body, { community: made.community.id, headers: key }),
      201
    )
    expect(anonymous.chargeId).not.toBe(first.chargeId)
    expect(anonymous.profileId).not.toBe(member.profileId)
    // another signed-in account with the same key and body: its own charge too
    const colleague = await made.addMember("member")
    const theirs = expectOk(
      await api.post("/api/checkout", body, { token: colleague.token, community: made.community.id, headers: key }),
      201
    )
    expect([first.chargeId, anonymous.chargeId]).not.toContain(theirs.chargeId)
    expect(theirs.profileId).toBe(colleague.profileId)
  })
})

describe("the checkout answer", () => {
  it("has the same shape whether the buyer's e-mail had an account or not (no accountCreated)", async () => {
    const made = await shop(api)
    const scoped = { community: made.community.id }
    const known = await register(api)
    const forKnown = expectOk(
      await api.post("/api/checkout", cardCheckout(made.product.id, { buyer: buyer(known.email) }), scoped),
      201
    )
    const forNew = expectOk(
      await api.post("/api/checkout", cardCheckout(made.product.id, { buyer: buyer(uniqueEmail("novo")) }), scoped),
      201
    )
    expect(forKnown).not.toHaveProperty("accountCreated")
    expect(Object.keys(forKnown).sort()).toEqual(Object.keys(forNew).sort())
    const openapi = JSON.stringify(expectOpenApi(await api.get("/api/openapi.json")))
    expect(openapi).not.toContain("accountCreated")
  })

  it("returns the new charge's id in data.id, keeping chargeId, purchaseId and subscriptionId", async () => {
    const made = await shop(api)
    const scoped = { community: made.community.id }
    const paid = expectOk(await api.post("/api/checkout", cardCheckout(made.product.id), scoped), 201)
    expect(paid.id).toMatch(UUID)
    expect(paid.id).toBe(paid.chargeId)
    expect(paid.purchaseId).toMatch(UUID)
    const pending = await pixCheckout(made)
    expect(pending.id).toBe(pending.chargeId)
    expect(expectOk(await api.get(`/api/checkout/charges/${pending.id}`, scoped)).chargeId).toBe(pending.id)
  })
})

const expectOpenApi = (reply: { status: number; body: any }) => {
  expect(reply.status).toBe(200)
  return reply.body
}
