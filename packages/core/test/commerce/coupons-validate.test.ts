import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as, NOT_MEMBER } from "../support/community"
import { expectError, expectInvalid, expectOk, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import {
  type CouponCommunity,
  couponCommunity,
  createCoupon,
  draftProduct,
  expireCoupon,
  newCode,
  ownerOf,
  PRODUCT_NOT_FOUND,
  reserve
} from "./coupons-support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: CouponCommunity
let product: { id: string; price: number; currency: string }
let other: { id: string }
beforeAll(async () => {
  setup = await couponCommunity(api, "Validação")
  product = await draftProduct(api, setup)
  other = await draftProduct(api, setup, { title: "Outro", price: 5000 })
})
const owner = () => ownerOf(setup)
const validate = (
  body: unknown,
  options: { token?: string; community?: string; headers?: Record<string, string> } = owner()
) => api.post("/api/coupons/validate", body, options)

const refused = async (code: string, reason: string, message: string, productId = product.id) => {
  const reply = await validate({ code, productId })
  const data = expectOk(reply, 200, message)
  expect(data).toMatchObject({ valid: false, reason, message, discount: 0, amount: 10000, amountAfter: 10000 })
  return data
}

describe("POST /api/coupons/validate: the discount", () => {
  it("previews a percent coupon on the product's price", async () => {
    const coupon = await createCoupon(api, setup, { percentOff: 15, duration: "repeating", durationMonths: 3 })
    const data = expectOk(
      await validate({ code: coupon.code.toLowerCase(), productId: product.id }),
      200,
      "Cupom válido."
    )
    expect(data).toEqual({
      valid: true,
      reason: null,
      message: null,
      code: coupon.code,
      productId: product.id,
      amount: 10000,
      currency: "BRL",
      discount: 1500,
      amountAfter: 8500,
      percentOff: 15,
      amountOff: null,
      couponCurrency: null,
      duration: "repeating",
      durationMonths: 3
    })
  })

  it("rounds a percentage half-even, once, on the amount given", async () => {
    const coupon = await createCoupon(api, setup, { percentOff: 5 })
    const at = async (amount: number) =>
      expectOk(await validate({ code: coupon.code, productId: product.id, amount })).discount
    expect(await at(50)).toBe(2) // 2.5 -> 2
    expect(await at(70)).toBe(4) // 3.5 -> 4
    expect(await at(999)).toBe(50) // 49.95 -> 50
    expect(await at(0)).toBe(0)
  })

  it("never discounts more than the amount", async () => {
    const coupon = await createCoupon(api, setup, { amountOff: 20000 })
    const data = expectOk(await validate({ code: coupon.code, productId: product.id }))
    expect(data).toMatchObject({
      valid: true,
      discount: 10000,
      amountAfter: 0,
      amountOff: 20000,
      couponCurrency: "BRL"
    })
    const full = await createCoupon(api, setup, { percentOff: 100 })
    expect(expectOk(await validate({ code: full.code, productId: other.id }))).toMatchObject({
      discount: 5000,
      amountAfter: 0
    })
  })

  it("applies a coupon limited to products only to them", async () => {
    const coupon = await createCoupon(api, setup, { percentOff: 10, applicableProducts: [product.id] })
    expect(expectOk(await validate({ code: coupon.code, productId: product.id })).valid).toBe(true)
    const data = expectOk(await validate({ code: coupon.code, productId: other.id }))
    expect(data).toMatchObject({ valid: false, reason: "not_applicable", amount: 5000, discount: 0 })
  })
})

describe("POST /api/coupons/validate: why a code does not apply", () => {
  it("unknown_code: no such code, another community's, a deleted one, a malformed one", async () => {
    const code = newCode()
    await refused(code, "unknown_code", `Cupom ${code} não encontrado nesta comunidade.`)
    const foreign = await createCoupon(api, setup.other)
    await refused(foreign.code, "unknown_code", `Cupom ${foreign.code} não encontrado nesta comunidade.`)
    const deleted = await createCoupon(api, setup)
    expectOk(await api.del(`/api/coupons/${deleted.id}`, owner()))
    await refused(deleted.code, "unknown_code", `Cupom ${deleted.code} não encontrado nesta comunidade.`)
    await refused("no way!", "unknown_code", "Cupom NO WAY! não encontrado nesta comunidade.")
  })

  it("inactive", async () => {
    const coupon = await createCoupon(api, setup)
    expectOk(await api.patch(`/api/coupons/${coupon.id}/status`, { status: "inactive" }, owner()))
    await refused(coupon.code, "inactive", `O cupom ${coupon.code} está inativo.`)
  })

  it("expired", async () => {
    const coupon = await createCoupon(api, setup, { expiresAt: "2031-01-01T00:00:00Z" })
    await expireCoupon(roda, coupon.id)
    await refused(coupon.code, "expired", `O cupom ${coupon.code} expirou.`)
  })

  it("exhausted, counting uses held by open checkouts", async () => {
    const coupon = await createCoupon(api, setup, { maxRedemptions: 1 })
    expect((await reserve(roda, setup.community.id, coupon.id))._tag).toBe("Right")
    await refused(coupon.code, "exhausted", `O cupom ${coupon.code} atingiu o número máximo de usos.`)
  })

  it("not_applicable", async () => {
    const coupon = await createCoupon(api, setup, { applicableProducts: [other.id] })
    await refused(coupon.code, "not_applicable", `O cupom ${coupon.code} não vale para este produto.`)
  })

  it("currency_mismatch: an amount off in another currency", async () => {
    const coupon = await createCoupon(api, setup, { amountOff: 500, currency: "USD" })
    await refused(
      coupon.code,
      "currency_mismatch",
      `O cupom ${coupon.code} dá um desconto em USD, mas o valor está em BRL.`
    )
  })

  it("speaks English on request", async () => {
    const coupon = await createCoupon(api, setup)
    expectOk(await api.patch(`/api/coupons/${coupon.id}/status`, { status: "inactive" }, owner()))
    const reply = await validate({ code: coupon.code, productId: product.id }, {
      ...owner(),
      headers: { "accept-language": "en" }
    })
    expect(expectOk(reply, 200, `Coupon ${coupon.code} is inactive.`).message).toBe(
      `Coupon ${coupon.code} is inactive.`
    )
  })
})

describe("POST /api/coupons/validate: input and roles", () => {
  it("wants a product of this community (400 Product not found, param productId)", async () => {
    const coupon = await createCoupon(api, setup)
    const foreign = await draftProduct(api, setup.other)
    for (const productId of [unknownId(), foreign.id]) {
      const body = expectInvalid(await validate({ code: coupon.code, productId }), "productId")
      expect(body.message).toBe(PRODUCT_NOT_FOUND)
    }
    const deleted = await draftProduct(api, setup)
    expectOk(await api.del(`/api/products/${deleted.id}`, owner()))
    expectInvalid(await validate({ code: coupon.code, productId: deleted.id }), "productId")
  })

  it("refuses malformed input", async () => {
    const coupon = await createCoupon(api, setup)
    expectInvalid(await validate({ code: coupon.code, productId: "abc" }), "productId")
    expectInvalid(await validate({ productId: product.id }), "code")
    expectInvalid(await validate({ code: "", productId: product.id }), "code")
    expectInvalid(await validate({ code: coupon.code }), "productId")
    expectInvalid(await validate({ code: coupon.code, productId: product.id, amount: -1 }), "amount")
    expectInvalid(await validate({ code: coupon.code, productId: product.id, amount: 10.5 }), "amount")
  })

  it("every role of the community may validate; others may not", async () => {
    const coupon = await createCoupon(api, setup)
    for (const role of ["admin", "finance", "moderator", "member"] as const) {
      const data = expectOk(
        await validate({ code: coupon.code, productId: product.id }, as(setup.people[role], setup.community))
      )
      expect(data).toMatchObject({ valid: true, discount: 1000 })
    }
    expectError(
      await validate({ code: coupon.code, productId: product.id }, as(setup.people.outsider, setup.community)),
      403,
      NOT_MEMBER
    )
    expectError(await validate({ code: coupon.code, productId: product.id }, { community: setup.community.id }), 401)
  })
})
