import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as, NOT_MEMBER } from "../support/community"
import { expectError, expectInvalid, expectOk, roleRequired, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import {
  confirm,
  COUPON_NOT_FOUND,
  type CouponCommunity,
  couponCommunity,
  createCoupon,
  draftProduct,
  expireCoupon,
  INVALID_COUPON_ID,
  newCode,
  ownerOf,
  PRODUCT_NOT_FOUND,
  reserve
} from "./coupons-support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const MANAGERS = (role: string) => roleRequired(["owner", "admin"], role)

let setup: CouponCommunity
beforeAll(async () => {
  setup = await couponCommunity(api, "Edição")
})
const owner = () => ownerOf(setup)
const asRole = (role: keyof CouponCommunity["people"]) => as(setup.people[role], setup.community)
const put = (id: string, body: unknown, options = owner()) => api.put(`/api/coupons/${id}`, body, options)
const patch = (id: string, status: unknown, options = owner()) =>
  api.patch(`/api/coupons/${id}/status`, { status }, options)

/** A coupon with one use held by a charge (not paid). */
const usedCoupon = async (body: Record<string, unknown> = {}) => {
  const coupon = await createCoupon(api, setup, body)
  const held = await reserve(roda, setup.community.id, coupon.id)
  expect(held._tag).toBe("Right")
  return coupon
}

describe("PUT /api/coupons/{id}", () => {
  it("changes name, code, limits and expiry; null clears them", async () => {
    const coupon = await createCoupon(api, setup, { maxRedemptions: 3, expiresAt: "2031-01-01T00:00:00Z" })
    const code = newCode()
    const data = expectOk(
      await put(coupon.id, { name: "Black Friday", code: code.toLowerCase(), maxRedemptions: 7 }),
      200,
      "Cupom atualizado com sucesso."
    )
    expect(data).toMatchObject({ id: coupon.id, name: "Black Friday", code, maxRedemptions: 7, percentOff: 10 })
    const cleared = expectOk(await put(coupon.id, { name: null, maxRedemptions: null, expiresAt: null }))
    expect(cleared).toMatchObject({ name: null, maxRedemptions: null, expiresAt: null, redemptionsLeft: null })
    expect(expectOk(await api.get(`/api/coupons/${code}`, owner())).id).toBe(coupon.id)
  })

  it("switches the kind of discount and the duration", async () => {
    const coupon = await createCoupon(api, setup, { duration: "repeating", durationMonths: 6 })
    const amount = expectOk(await put(coupon.id, { amountOff: 1500 }))
    expect(amount).toMatchObject({ percentOff: null, amountOff: 1500, currency: "BRL", duration: "repeating" })
    const percent = expectOk(await put(coupon.id, { percentOff: 25, duration: "forever" }))
    expect(percent).toMatchObject({
      percentOff: 25,
      amountOff: null,
      currency: null,
      duration: "forever",
      durationMonths: null
    })
    const months = expectOk(await put(coupon.id, { duration: "repeating", durationMonths: 2 }))
    expect(months).toMatchObject({ duration: "repeating", durationMonths: 2 })
  })

  it("sets and clears applicableProducts", async () => {
    const coupon = await createCoupon(api, setup)
    const first = await draftProduct(api, setup)
    const second = await draftProduct(api, setup, { title: "Camiseta" })
    const limited = expectOk(await put(coupon.id, { applicableProducts: [second.id, first.id] }))
    expect(limited.applicableProducts).toEqual([second.id, first.id])
    expect(expectOk(await put(coupon.id, { name: "x" })).applicableProducts).toEqual([second.id, first.id])
    expect(expectOk(await put(coupon.id, { applicableProducts: null })).applicableProducts).toEqual([])
    const foreign = await draftProduct(api, setup.other)
    const body = expectInvalid(await put(coupon.id, { applicableProducts: [foreign.id] }), "applicableProducts")
    expect(body.message).toBe(PRODUCT_NOT_FOUND)
  })

  it("applies the rules of creation", async () => {
    const coupon = await createCoupon(api, setup)
    expectInvalid(await put(coupon.id, { percentOff: 10, amountOff: 100 }), "amountOff")
    expectInvalid(await put(coupon.id, { percentOff: null }), "percentOff")
    expectInvalid(await put(coupon.id, { currency: "USD" }), "currency")
    expectInvalid(await put(coupon.id, { duration: "repeating" }), "durationMonths")
    expectInvalid(await put(coupon.id, { durationMonths: 3 }), "durationMonths")
    expectInvalid(await put(coupon.id, { expiresAt: "2020-01-01T00:00:00Z" }), "expiresAt")
    expectInvalid(await put(coupon.id, { percentOff: 0 }), "percentOff")
    expectInvalid(await put(coupon.id, { code: "a b" }), "code")
    const taken = await createCoupon(api, setup)
    const body = expectError(await put(coupon.id, { code: taken.code.toLowerCase() }), 409)
    expect(body.errors[0].param).toBe("code")
    expect(expectOk(await put(coupon.id, { code: coupon.code })).code).toBe(coupon.code)
  })

  it("fixes the terms once a use is held: 409 naming the field; the rest may change", async () => {
    const coupon = await usedCoupon({ maxRedemptions: 5 })
    const changes = [
      { percentOff: 20 },
      { amountOff: 100 },
      { code: newCode() },
      { duration: "forever" },
      { duration: "repeating", durationMonths: 2 }
    ]
    for (const change of changes) {
      const body = expectError(await put(coupon.id, change), 409)
      expect(body.errors[0].param).toBe(Object.keys(change)[0])
    }
    const message = expectError(await put(coupon.id, { percentOff: 20 }), 409).message
    expect(message).toBe("percentOff não pode mudar depois que o cupom foi usado ou reservado.")
    const same = expectOk(await put(coupon.id, { percentOff: 10, code: coupon.code, name: "Ainda", expiresAt: null }))
    expect(same).toMatchObject({ percentOff: 10, name: "Ainda", reservedRedemptions: 1, redemptionsLeft: 4 })
    expect((await reserve(roda, setup.community.id, coupon.id))._tag).toBe("Right")
    const lowered = expectError(await put(coupon.id, { maxRedemptions: 1 }), 409)
    expect(lowered.errors[0].param).toBe("maxRedemptions")
    expect(lowered.message).toBe("maxRedemptions não pode ser menor que os usos já feitos ou reservados (2).")
    expect(expectOk(await put(coupon.id, { maxRedemptions: 2 })).redemptionsLeft).toBe(0)
    expect(expectOk(await put(coupon.id, { maxRedemptions: 3 })).redemptionsLeft).toBe(1)
  })

  it("an exhausted coupon becomes usable again when maxRedemptions is raised", async () => {
    const coupon = await createCoupon(api, setup, { maxRedemptions: 1 })
    const held = await reserve(roda, setup.community.id, coupon.id)
    if (held._tag === "Right") await confirm(roda, setup.community.id, held.right)
    expect(expectOk(await api.get(`/api/coupons/${coupon.id}`, owner())).status).toBe("exhausted")
    expect(expectOk(await put(coupon.id, { maxRedemptions: 2 })).status).toBe("active")
  })

  it("an expired coupon is final (409, param status)", async () => {
    const coupon = await createCoupon(api, setup, { expiresAt: "2031-01-01T00:00:00Z" })
    await expireCoupon(roda, coupon.id)
    const body = expectError(await put(coupon.id, { expiresAt: "2032-01-01T00:00:00Z" }), 409)
    expect(body.errors[0].param).toBe("status")
  })

  it("admin may edit; finance, moderator and member may not; others' coupons are not found", async () => {
    const coupon = await createCoupon(api, setup)
    expectOk(await put(coupon.id, { name: "admin" }, asRole("admin")))
    for (const role of ["finance", "moderator", "member"] as const) {
      expectError(await put(coupon.id, { name: role }, asRole(role)), 403, MANAGERS(role))
    }
    expectError(await put(coupon.id, { name: "x" }, asRole("outsider")), 403, NOT_MEMBER)
    const foreign = await createCoupon(api, setup.other)
    expectError(await put(foreign.id, { name: "x" }, owner()), 404, COUPON_NOT_FOUND)
    expectError(await put(unknownId(), { name: "x" }), 404, COUPON_NOT_FOUND)
    expect(expectInvalid(await put("nope", { name: "x" }), "id", "params").message).toBe(INVALID_COUPON_ID)
    expectInvalid(await put(coupon.id, { name: "x".repeat(201) }), "name")
  })
})

describe("PATCH /api/coupons/{id}/status", () => {
  it("moves active -> inactive -> active", async () => {
    const coupon = await createCoupon(api, setup)
    const off = expectOk(await patch(coupon.id, "inactive"), 200, "Status do cupom alterado.")
    expect(off.status).toBe("inactive")
    expect(expectOk(await patch(coupon.id, "active")).status).toBe("active")
  })

  it("refuses other moves with 409, param status and the allowed moves", async () => {
    const coupon = await createCoupon(api, setup)
    const again = expectError(await patch(coupon.id, "active"), 409)
    expect(again.errors[0].param).toBe("status")
    expect(again.message).toBe(
      "Não é possível mudar o status do cupom de active para active. Movimentos permitidos: inactive."
    )
    for (const status of ["expired", "exhausted"]) {
      expect(expectError(await patch(coupon.id, status), 409).errors[0].param).toBe("status")
    }
    const english = await api.patch(`/api/coupons/${coupon.id}/status`, { status: "expired" }, {
      ...owner(),
      headers: { "accept-language": "en" }
    })
    expect(expectError(english, 409).message).toBe(
      "The coupon status cannot change from active to expired. Allowed moves: inactive."
    )
  })

  it("expired and exhausted coupons have no moves by hand", async () => {
    const expired = await createCoupon(api, setup, { expiresAt: "2031-01-01T00:00:00Z" })
    await expireCoupon(roda, expired.id)
    expect(expectError(await patch(expired.id, "inactive"), 409).message).toBe(
      "Não é possível mudar o status do cupom de expired para inactive. Movimentos permitidos: nenhum."
    )
    const exhausted = await createCoupon(api, setup, { maxRedemptions: 1 })
    const held = await reserve(roda, setup.community.id, exhausted.id)
    if (held._tag === "Right") await confirm(roda, setup.community.id, held.right)
    expect(expectError(await patch(exhausted.id, "inactive"), 409).errors[0].param).toBe("status")
  })

  it("validates the body, the roles and the community", async () => {
    const coupon = await createCoupon(api, setup)
    expectInvalid(await patch(coupon.id, "paused"), "status")
    expectInvalid(await api.patch(`/api/coupons/${coupon.id}/status`, {}, owner()), "status")
    expect(expectOk(await patch(coupon.id, "inactive", asRole("admin"))).status).toBe("inactive")
    for (const role of ["finance", "moderator", "member"] as const) {
      expectError(await patch(coupon.id, "active", asRole(role)), 403, MANAGERS(role))
    }
    expectError(await patch(coupon.id, "active", asRole("outsider")), 403, NOT_MEMBER)
    const foreign = await createCoupon(api, setup.other)
    expectError(await patch(foreign.id, "inactive"), 404, COUPON_NOT_FOUND)
    expectError(await patch(unknownId(), "inactive"), 404, COUPON_NOT_FOUND)
    expectInvalid(await patch("123", "inactive"), "id", "params")
  })
})
