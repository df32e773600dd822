import { Effect, Layer, Option } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { testPlatform } from "../../../../testing/passwords"
import { defaultOptions, makeRoda, PaymentGateway, RATE_LIMITS_OFF, secret } from "../../node/index"
import { expectError, expectOk, unknownId } from "../support/envelope"
import { client, PLATFORM_ADMIN, testDatabase } from "../support/harness"
import { query } from "../support/sql"
import { buyer, cardCheckout, shop } from "./checkout-support"

/** A stand-in for a real gateway: its own charge ids, and webhooks signed with a shared secret. */
const AcmeGateway = Layer.succeed(PaymentGateway, {
  name: "acme",
  isSandbox: false,
  paymentMethods: ["CREDIT_CARD", "PIX", "BOLETO"],
  maxInstallments: () => 12,
  lookup: () => Effect.succeed({ _tag: "Unknown" as const }),
  cancel: () => Effect.succeed({ _tag: "Unknown" as const }),
  createCharge: (request) =>
    Effect.succeed(
      request.paymentMethod === "CREDIT_CARD"
        ? { _tag: "Paid" as const, gatewayChargeId: `acme_${request.chargeId}` }
        : {
          _tag: "Pending" as const,
          gatewayChargeId: `acme_${request.chargeId}`,
          paymentCode: "acme-pix-code",
          expiresAt: new Date(Date.UTC(2100, 0, 1))
        }
    ),
  parseWebhook: (headers, body) => {
    // the raw body, as received
    const event = Option.getOrNull(Option.liftThrowable(JSON.parse)(body)) as
      | { id?: string; kind?: string; charge?: string }
      | null
    if (headers["x-acme-signature"] !== "valid" || !event?.id || !event.charge) return Effect.succeed(Option.none())
    const type = event.kind === "paid"
      ? "charge.paid" as const
      : event.kind === "expired"
      ? "charge.expired" as const
      : "other" as const
    return Effect.succeed(Option.some({ eventId: event.id, type, gatewayChargeId: event.charge }))
  }
})

const roda = makeRoda({
  database: testDatabase(),
  platform: testPlatform,
  options: defaultOptions({
    jwtSecret: secret("test-secret-that-is-long-enough-for-hs256"),
    publicBaseUrl: "http://roda.test",
    platformAdminEmails: [PLATFORM_ADMIN],
    rateLimits: RATE_LIMITS_OFF
  }),
  paymentGateway: AcmeGateway
})
const api = client(roda)
afterAll(() => roda.dispose())

const signed = { headers: { "x-acme-signature": "valid" } }

const pixCheckout = async (made: Awaited<ReturnType<typeof shop>>) =>
  expectOk(
    await api.post("/api/checkout", { productId: made.product.id, paymentMethod: "PIX", buyer: buyer() }, {
      community: made.community.id
    }),
    201
  )

describe("a real (non-sandbox) gateway", () => {
  it("is named in the configuration and hides the sandbox route", async () => {
    const made = await shop(api)
    const scoped = { community: made.community.id }
    expect(expectOk(await api.get("/api/checkout/config", scoped))).toMatchObject({ gateway: "acme", sandbox: false })
    const sale = expectOk(await api.post("/api/checkout", cardCheckout(made.product.id), scoped), 201)
    expect(sale.status).toBe("paid")
    const pending = await pixCheckout(made)
    expect(pending).toMatchObject({ status: "pending", paymentCode: "acme-pix-code" })
    expectError(await api.post(`/api/checkout/sandbox/${pending.chargeId}/pay`, {}, scoped), 404)
    expect(expectOk(await api.get(`/api/checkout/charges/${pending.chargeId}`, scoped)).status).toBe("pending")
  })

  it("takes only verified webhooks, at its own name, and pays the charge they name", async () => {
    const made = await shop(api)
    const pending = await pixCheckout(made)
    const event = { id: `evt_${unknownId()}`, kind: "paid", charge: `acme_${pending.chargeId}` }
    expectError(await api.post("/api/checkout/webhooks/sandbox", event, signed), 404)
    expectError(await api.post("/api/checkout/webhooks/acme", event), 400)
    expectError(await api.call("POST", "/api/checkout/webhooks/acme", { ...signed, raw: "{not json" }), 400)
    expectError(await api.call("POST", "/api/checkout/webhooks/acme", signed), 400)
    expectError(
      await api.post("/api/checkout/webhooks/acme", { ...event, charge: `acme_${unknownId()}` }, signed),
      404
    )
    const handled = expectOk(await api.post("/api/checkout/webhooks/acme", event, signed))
    expect(handled).toMatchObject({ eventId: event.id, duplicate: false, chargeId: pending.chargeId, status: "paid" })
    const charge = expectOk(
      await api.get(`/api/checkout/charges/${pending.chargeId}`, { community: made.community.id })
    )
    expect(charge.purchaseId).toEqual(expect.any(String))
  })

  it("handles one event once even when it arrives ten times at once", async () => {
    const made = await shop(api)
    const pending = await pixCheckout(made)
    const event = { id: `evt_${unknownId()}`, kind: "paid", charge: `acme_${pending.chargeId}` }
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => api.post("/api/checkout/webhooks/acme", event, signed))
    )
    const handled = replies.map((reply) => expectOk(reply))
    expect(handled.filter((h) => !h.duplicate)).toHaveLength(1)
    expect(await query(roda, (sql) => sql`SELECT id FROM purchases WHERE charge_id = ${pending.chargeId}`))
      .toHaveLength(1)
    expect(
      await query(
        roda,
        (sql) => sql`SELECT id FROM ledger_transactions WHERE reference = ${pending.chargeId} AND kind = 'sale'`
      )
    ).toHaveLength(1)
    // another event paying the same charge changes nothing: it is paid already
    const later = { ...event, id: `evt_${unknownId()}` }
    expect(expectOk(await api.post("/api/checkout/webhooks/acme", later, signed))).toMatchObject({
      duplicate: false,
      status: "paid"
    })
    expect(await query(roda, (sql) => sql`SELECT id FROM purchases WHERE charge_id = ${pending.chargeId}`))
      .toHaveLength(1)
  })

  it("expires a pending charge on `charge.expired`, giving the stock back", async () => {
    const made = await shop(api, { hasStock: true, stockQuantity: 1 })
    const pending = await pixCheckout(made)
    const event = { id: `evt_${unknownId()}`, kind: "expired", charge: `acme_${pending.chargeId}` }
    expect(expectOk(await api.post("/api/checkout/webhooks/acme", event, signed)).status).toBe("expired")
    const [product] = await query<{ stockQuantity: number }>(
      roda,
      (sql) => sql`SELECT stock_quantity FROM products WHERE id = ${made.product.id}`
    )
    expect(product?.stockQuantity).toBe(1)
    const paidLate = { id: `evt_${unknownId()}`, kind: "paid", charge: `acme_${pending.chargeId}` }
    expect(expectOk(await api.post("/api/checkout/webhooks/acme", paidLate, signed)).status).toBe("expired")
  })
})
