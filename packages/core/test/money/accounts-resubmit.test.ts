import { afterAll, describe, expect, it } from "vitest"
import { buyer, cardCheckout } from "../commerce/checkout-support"
import { as } from "../support/community"
import { expectCreated, expectError, expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { activeProduct, platformAdmin, sellingCommunity } from "../support/selling"
import { recordSale } from "./ledger-support"

/**
 * Spec §3: business information and payout settings go under review on submit from any state, an
 * approved record included; until approved again, selling and withdrawing are refused exactly as for a
 * community that was never approved (§7).
 */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const NEEDS_BUSINESS = "Community must have approved business information to enable paid products"
const NOT_CONFIGURED = "Payment configuration has not been set up for this community"
const PUBLISH_REFUSED =
  "To publish and start selling, the community needs approved business information. Submit it for review and publish once it is approved."

/** A selling community with a published product and R$ 100,00 sold by PIX (available at once). */
const shopWithBalance = async () => {
  const made = await sellingCommunity(api, "Reenvio")
  const scoped = as(made.owner, made.community)
  const product = await activeProduct(api, made.owner, made.community)
  await recordSale(roda, made.community.id, { method: "PIX", amount: 10000 })
  const operator = await platformAdmin(api)
  const admin = (path: string) =>
    api.post(`/api/admin/communities/${made.community.id}/${path}`, {}, { token: operator })
  return { ...made, scoped, product, admin, operator }
}

type Shop = Awaited<ReturnType<typeof shopWithBalance>>

const checkout = (made: Shop) =>
  api.post("/api/checkout", cardCheckout(made.product.id), { community: made.community.id })
const config = (made: Shop) => api.get("/api/checkout/config", { community: made.community.id })
const draftProduct = async (made: Shop) =>
  expectCreated(
    await api.post(
      "/api/products",
      { type: "ONE_TIME", title: "Novo", price: 500, allowedPaymentMethods: ["PIX"] },
      made.scoped
    )
  )

describe("submitting approved business information", () => {
  it("puts it under review; checkout and publishing are refused as when never approved, until approved again", async () => {
    const made = await shopWithBalance()
    const before = expectOk(await api.get("/api/business-information", made.scoped))
    expect(before.status).toBe("APPROVED")

    const submitted = expectOk(await api.post("/api/business-information/submit", {}, made.scoped))
    expect(submitted).toMatchObject({ status: "PENDING", needsSubmit: false, rejectionReason: null })
    expect(Date.parse(submitted.submittedAt)).toBeGreaterThan(Date.parse(before.submittedAt))
    expect(expectOk(await api.get("/api/payout-settings/prerequisites", made.scoped))).toEqual([
      expect.objectContaining({ code: "BUSINESS_INFORMATION_UNDER_REVIEW" })
    ])

    expectError(await checkout(made), 403, NEEDS_BUSINESS)
    expectError(await config(made), 403, NEEDS_BUSINESS)
    const draft = await draftProduct(made)
    expectError(await api.post(`/api/products/${draft.id}/publish`, {}, made.scoped), 403, PUBLISH_REFUSED)
    expectError(await api.put(`/api/products/${draft.id}`, { status: "ACTIVE" }, made.scoped), 403, PUBLISH_REFUSED)
    // a second submit keeps it under review, in its place in the queue
    const again = expectOk(await api.post("/api/business-information/submit", {}, made.scoped))
    expect(again).toMatchObject({ status: "PENDING", submittedAt: submitted.submittedAt })

    expect(expectOk(await made.admin("business-information/approve")).status).toBe("APPROVED")
    expectOk(await checkout(made), 201)
    expect(expectOk(await config(made))).toMatchObject({ country: "BR", currency: "BRL" })
    expect(expectOk(await api.post(`/api/products/${draft.id}/publish`, {}, made.scoped)).status).toBe("ACTIVE")
  })

  it("a rejection of the new review leaves selling refused, and the reason is kept", async () => {
    const made = await shopWithBalance()
    expectOk(await api.post("/api/business-information/submit", {}, made.scoped))
    const rejected = expectOk(
      await api.post(`/api/admin/communities/${made.community.id}/business-information/reject`, {
        reason: "Contrato social vencido"
      }, { token: made.operator })
    )
    expect(rejected).toMatchObject({ status: "REJECTED", rejectionReason: "Contrato social vencido" })
    expectError(await checkout(made), 403, NEEDS_BUSINESS)
    expectOk(await api.post("/api/business-information/submit", {}, made.scoped))
    expectOk(await made.admin("business-information/approve"))
    expectOk(await checkout(made), 201)
  })
})

describe("submitting approved payout settings", () => {
  it("puts them under review; checkout and payouts are refused as when never approved, until approved again", async () => {
    const made = await shopWithBalance()
    const pending = expectOk(await api.post("/api/payouts", { amount: 1000 }, made.scoped), 201)

    const submitted = expectOk(await api.post("/api/payout-settings/submit", {}, made.scoped))
    expect(submitted.status).toBe("PENDING")
    expect(expectOk(await api.get("/api/payout-settings/status", made.scoped)).status).toBe("PENDING")

    expectError(await config(made), 400, NOT_CONFIGURED)
    expectError(
      await api.post("/api/checkout", { productId: made.product.id, paymentMethod: "PIX", buyer: buyer() }, {
        community: made.community.id
      }),
      400,
      NOT_CONFIGURED
    )
    expectOk(await api.post(`/api/payouts/${pending.id}/cancel`, {}, made.scoped))
    expectError(await api.post("/api/payouts", { amount: 1000 }, made.scoped), 400, NOT_CONFIGURED)
    // business information is untouched: publishing goes on
    const draft = await draftProduct(made)
    expectOk(await api.post(`/api/products/${draft.id}/publish`, {}, made.scoped))

    expect(expectOk(await made.admin("payout-settings/approve")).status).toBe("APPROVED")
    expectOk(await checkout(made), 201)
    const payout = expectOk(await api.post("/api/payouts", { amount: 1000 }, made.scoped), 201)
    expect(payout.status).toBe("pending")
  })

  it("a payout requested before the submit is not sent while the settings are under review", async () => {
    const made = await shopWithBalance()
    const payout = expectOk(await api.post("/api/payouts", { amount: 1000 }, made.scoped), 201)
    expectOk(await api.post("/api/payout-settings/submit", {}, made.scoped))
    const refused = expectError(
      await api.post(`/api/admin/communities/${made.community.id}/payouts/${payout.id}/in-transit`, {}, {
        token: made.operator,
        headers: { "accept-language": "en" }
      }),
      409,
      "The payout settings are not approved (they were changed or submitted for review after the request); approve them before sending the payout."
    )
    expect(refused.errors[0].param).toBe("payoutSettings")
    expectOk(await made.admin("payout-settings/approve"))
    const sent = expectOk(await made.admin(`payouts/${payout.id}/in-transit`))
    expect(sent.status).toBe("in_transit")
  })
})
