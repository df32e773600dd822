import { SqlClient } from "@effect/sql"
import { Effect, Either } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AppError, CommunityId, CouponRedemption, ProfileId } from "../../src/index"
import { as, NOT_MEMBER } from "../support/community"
import { expectError, expectInvalid, expectOk, roleRequired, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import {
  apply,
  confirm,
  counters,
  COUPON_NOT_FOUND,
  type CouponCommunity,
  couponCommunity,
  createCoupon,
  draftProduct,
  expireCoupon,
  newChargeId,
  newCode,
  ownerOf,
  refusal,
  release,
  reserve
} from "./coupons-support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: CouponCommunity
let product: { id: string }
beforeAll(async () => {
  setup = await couponCommunity(api, "Resgates")
  product = await draftProduct(api, setup)
})
const communityId = () => CommunityId.make(setup.community.id)
const owner = () => ownerOf(setup)
const detail = async (id: string) => expectOk(await api.get(`/api/coupons/${id}`, owner()))
const couponCodeError = (error: Pick<AppError, "status" | "errors">) => {
  expect(error.status).toBe(400)
  expect(error.errors?.[0]?.param).toBe("couponCode")
  return error.errors![0]!.msg.pt
}

describe("CouponRedemption.apply", () => {
  const sale = (code: string, fields: Partial<{ productId: string; amount: number; currency: string }> = {}) => ({
    communityId: communityId(),
    code,
    productId: product.id,
    amount: 10000,
    currency: "BRL",
    ...fields
  })

  it("gives the discount and the terms, writing nothing", async () => {
    const coupon = await createCoupon(api, setup, { percentOff: 33, duration: "repeating", durationMonths: 2 })
    const applied = await apply(roda, sale(coupon.code.toLowerCase(), { amount: 4999 }))
    expect(Either.getOrThrow(applied)).toEqual({
      couponId: coupon.id,
      code: coupon.code,
      discount: 1650, // 1649.67 -> 1650
      amountAfter: 3349,
      duration: "repeating",
      durationMonths: 2
    })
    expect(await counters(roda, coupon.id)).toEqual({ timesRedeemed: 0, timesReserved: 0 })
  })

  it("caps an amount off at the amount", async () => {
    const coupon = await createCoupon(api, setup, { amountOff: 700 })
    expect(Either.getOrThrow(await apply(roda, sale(coupon.code, { amount: 500 })))).toMatchObject({
      discount: 500,
      amountAfter: 0
    })
  })

  it("refuses with 400, param couponCode, and the reason", async () => {
    const unknown = newCode()
    expect(couponCodeError(refusal(await apply(roda, sale(unknown))))).toBe(
      `Cupom ${unknown} não encontrado nesta comunidade.`
    )
    const limited = await createCoupon(api, setup, { applicableProducts: [product.id] })
    expect(couponCodeError(refusal(await apply(roda, sale(limited.code, { productId: unknownId() }))))).toBe(
      `O cupom ${limited.code} não vale para este produto.`
    )
    const usd = await createCoupon(api, setup, { amountOff: 100, currency: "USD" })
    expect(couponCodeError(refusal(await apply(roda, sale(usd.code))))).toBe(
      `O cupom ${usd.code} dá um desconto em USD, mas o valor está em BRL.`
    )
    const inactive = await createCoupon(api, setup)
    expectOk(await api.patch(`/api/coupons/${inactive.id}/status`, { status: "inactive" }, owner()))
    expect(couponCodeError(refusal(await apply(roda, sale(inactive.code))))).toBe(
      `O cupom ${inactive.code} está inativo.`
    )
    const expired = await createCoupon(api, setup, { expiresAt: "2031-01-01T00:00:00Z" })
    await expireCoupon(roda, expired.id)
    expect(couponCodeError(refusal(await apply(roda, sale(expired.code))))).toBe(`O cupom ${expired.code} expirou.`)
    const foreign = await createCoupon(api, setup.other)
    expect(couponCodeError(refusal(await apply(roda, sale(foreign.code))))).toBe(
      `Cupom ${foreign.code} não encontrado nesta comunidade.`
    )
  })
})

describe("CouponRedemption.reserve, confirm and release", () => {
  it("50 concurrent reservations of a coupon limited to 5: exactly 5 succeed", async () => {
    const coupon = await createCoupon(api, setup, { maxRedemptions: 5 })
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        roda.runtime.runPromise(
          Effect.gen(function*() {
            const sql = yield* SqlClient.SqlClient
            const coupons = yield* CouponRedemption
            return yield* Effect.either(sql.withTransaction(coupons.reserve(communityId(), coupon.id, newChargeId())))
          })
        ))
    )
    const held = results.filter(Either.isRight)
    expect(held).toHaveLength(5)
    for (const result of results.filter(Either.isLeft)) {
      expect(couponCodeError(result.left as AppError)).toBe(`O cupom ${coupon.code} atingiu o número máximo de usos.`)
    }
    expect(await counters(roda, coupon.id)).toEqual({ timesRedeemed: 0, timesReserved: 5 })
    expect(await detail(coupon.id)).toMatchObject({
      status: "active",
      timesRedeemed: 0,
      reservedRedemptions: 5,
      redemptionsLeft: 0
    })
  })

  it("a release frees a use; confirm counts it; the coupon is exhausted once every use is paid", async () => {
    const coupon = await createCoupon(api, setup, { maxRedemptions: 2 })
    const first = Either.getOrThrow(await reserve(roda, communityId(), coupon.id))
    const second = Either.getOrThrow(await reserve(roda, communityId(), coupon.id))
    refusal(await reserve(roda, communityId(), coupon.id))
    await release(roda, communityId(), second)
    expect(await counters(roda, coupon.id)).toEqual({ timesRedeemed: 0, timesReserved: 1 })
    const third = Either.getOrThrow(await reserve(roda, communityId(), coupon.id))
    await confirm(roda, communityId(), first)
    expect(await counters(roda, coupon.id)).toEqual({ timesRedeemed: 1, timesReserved: 1 })
    expect((await detail(coupon.id)).status).toBe("active")
    await confirm(roda, communityId(), third)
    expect(await detail(coupon.id)).toMatchObject({ status: "exhausted", timesRedeemed: 2, redemptionsLeft: 0 })
    expect(couponCodeError(refusal(await reserve(roda, communityId(), coupon.id)))).toBe(
      `O cupom ${coupon.code} atingiu o número máximo de usos.`
    )
  })

  it("confirm and release are idempotent, and release never takes back a paid use", async () => {
    const coupon = await createCoupon(api, setup, { maxRedemptions: 3 })
    const paid = Either.getOrThrow(await reserve(roda, communityId(), coupon.id))
    await confirm(roda, communityId(), paid)
    await confirm(roda, communityId(), paid)
    await release(roda, communityId(), paid)
    const freed = Either.getOrThrow(await reserve(roda, communityId(), coupon.id))
    await release(roda, communityId(), freed)
    await release(roda, communityId(), freed)
    await confirm(roda, communityId(), newChargeId())
    await release(roda, communityId(), newChargeId())
    expect(await counters(roda, coupon.id)).toEqual({ timesRedeemed: 1, timesReserved: 0 })
  })

  it("reserving again for the same charge holds nothing more", async () => {
    const coupon = await createCoupon(api, setup, { maxRedemptions: 1 })
    const charge = newChargeId()
    Either.getOrThrow(await reserve(roda, communityId(), coupon.id, charge))
    Either.getOrThrow(await reserve(roda, communityId(), coupon.id, charge))
    expect(await counters(roda, coupon.id)).toEqual({ timesRedeemed: 0, timesReserved: 1 })
  })

  it("a charge paid after its reservation was released counts only while a use is left", async () => {
    const coupon = await createCoupon(api, setup, { maxRedemptions: 1 })
    const late = Either.getOrThrow(await reserve(roda, communityId(), coupon.id))
    await release(roda, communityId(), late)
    await confirm(roda, communityId(), late)
    expect(await counters(roda, coupon.id)).toEqual({ timesRedeemed: 1, timesReserved: 0 })
    const other = await createCoupon(api, setup, { maxRedemptions: 1 })
    const lost = Either.getOrThrow(await reserve(roda, communityId(), other.id))
    await release(roda, communityId(), lost)
    const taken = Either.getOrThrow(await reserve(roda, communityId(), other.id))
    await confirm(roda, communityId(), lost)
    expect(await counters(roda, other.id)).toEqual({ timesRedeemed: 0, timesReserved: 1 })
    await confirm(roda, communityId(), taken)
    expect(await counters(roda, other.id)).toEqual({ timesRedeemed: 1, timesReserved: 0 })
  })

  it("a reservation rolled back with the caller's transaction holds nothing", async () => {
    const coupon = await createCoupon(api, setup, { maxRedemptions: 1 })
    const failed = await roda.runtime.runPromise(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const coupons = yield* CouponRedemption
        return yield* Effect.either(
          sql.withTransaction(
            Effect.zipRight(coupons.reserve(communityId(), coupon.id, newChargeId()), Effect.fail("payment failed"))
          )
        )
      })
    )
    expect(Either.isLeft(failed)).toBe(true)
    expect(await counters(roda, coupon.id)).toEqual({ timesRedeemed: 0, timesReserved: 0 })
    Either.getOrThrow(await reserve(roda, communityId(), coupon.id))
  })

  it("refuses inactive, expired, deleted and another community's coupons", async () => {
    const inactive = await createCoupon(api, setup)
    expectOk(await api.patch(`/api/coupons/${inactive.id}/status`, { status: "inactive" }, owner()))
    expect(couponCodeError(refusal(await reserve(roda, communityId(), inactive.id)))).toBe(
      `O cupom ${inactive.code} está inativo.`
    )
    const expired = await createCoupon(api, setup, { expiresAt: "2031-01-01T00:00:00Z" })
    await expireCoupon(roda, expired.id)
    expect(couponCodeError(refusal(await reserve(roda, communityId(), expired.id)))).toBe(
      `O cupom ${expired.code} expirou.`
    )
    const deleted = await createCoupon(api, setup)
    expectOk(await api.del(`/api/coupons/${deleted.id}`, owner()))
    expect(couponCodeError(refusal(await reserve(roda, communityId(), deleted.id)))).toBe("Cupom não encontrado.")
    const foreign = await createCoupon(api, setup.other)
    expect(couponCodeError(refusal(await reserve(roda, communityId(), foreign.id)))).toBe("Cupom não encontrado.")
    expect(await counters(roda, foreign.id)).toEqual({ timesRedeemed: 0, timesReserved: 0 })
  })

  it("a use held before the coupon was deleted still counts when paid", async () => {
    const coupon = await createCoupon(api, setup)
    const charge = Either.getOrThrow(await reserve(roda, communityId(), coupon.id))
    expectOk(await api.del(`/api/coupons/${coupon.id}`, owner()))
    await confirm(roda, communityId(), charge)
    expect(await counters(roda, coupon.id)).toEqual({ timesRedeemed: 1, timesReserved: 0 })
  })
})

describe("GET /api/coupons/{id}/usage", () => {
  let coupon: { id: string }
  let charges: { paid: string; held: string; released: string }
  beforeAll(async () => {
    coupon = await createCoupon(api, setup)
    const details = {
      profileId: ProfileId.make(setup.people.member.profileId),
      amount: 10000,
      discount: 1000,
      currency: "BRL"
    }
    const paid = Either.getOrThrow(await reserve(roda, communityId(), coupon.id, newChargeId(), details))
    const released = Either.getOrThrow(await reserve(roda, communityId(), coupon.id))
    const held = Either.getOrThrow(await reserve(roda, communityId(), coupon.id))
    await confirm(roda, communityId(), paid)
    await release(roda, communityId(), released)
    charges = { paid, held, released }
  })

  it("lists the uses newest first, with charge, buyer, discount, status and dates", async () => {
    const data = expectOk(await api.get(`/api/coupons/${coupon.id}/usage`, owner()), 200, "Usos do cupom encontrados.")
    expect(data.map((use: any) => use.chargeId)).toEqual([charges.held, charges.released, charges.paid])
    expect(data[2]).toEqual({
      id: expect.any(String),
      couponId: coupon.id,
      chargeId: charges.paid,
      profileId: setup.people.member.profileId,
      amount: 10000,
      discount: 1000,
      currency: "BRL",
      status: "redeemed",
      reservedAt: expect.any(String),
      redeemedAt: expect.any(String),
      releasedAt: null
    })
    expect(data[1]).toMatchObject({
      status: "released",
      profileId: null,
      discount: null,
      releasedAt: expect.any(String)
    })
    expect(data[0]).toMatchObject({ status: "reserved", redeemedAt: null, releasedAt: null })
  })

  it("pages and filters by status", async () => {
    const first = await api.get(`/api/coupons/${coupon.id}/usage?limit=2`, owner())
    expect(expectOk(first)).toHaveLength(2)
    const next = await api.get(
      `/api/coupons/${coupon.id}/usage?limit=2&cursor=${first.body.pagination.nextCursor}`,
      owner()
    )
    expect(expectOk(next).map((use: any) => use.chargeId)).toEqual([charges.paid])
    expect(next.body.pagination.nextCursor).toBeNull()
    const redeemed = expectOk(await api.get(`/api/coupons/${coupon.id}/usage?status=redeemed`, owner()))
    expect(redeemed.map((use: any) => use.chargeId)).toEqual([charges.paid])
    expectInvalid(await api.get(`/api/coupons/${coupon.id}/usage?status=paid`, owner()), "status", "query")
    expectInvalid(await api.get(`/api/coupons/${coupon.id}/usage?cursor=zzz`, owner()), "cursor", "query")
  })

  it("owner, admin and finance read it; moderator and member do not", async () => {
    for (const role of ["admin", "finance"] as const) {
      expect(expectOk(await api.get(`/api/coupons/${coupon.id}/usage`, as(setup.people[role], setup.community))))
        .toHaveLength(3)
    }
    for (const role of ["moderator", "member"] as const) {
      expectError(
        await api.get(`/api/coupons/${coupon.id}/usage`, as(setup.people[role], setup.community)),
        403,
        roleRequired(["owner", "admin", "finance"], role)
      )
    }
    expectError(
      await api.get(`/api/coupons/${coupon.id}/usage`, as(setup.people.outsider, setup.community)),
      403,
      NOT_MEMBER
    )
  })

  it("another community's coupon is not found; a malformed id is 400", async () => {
    const foreign = await createCoupon(api, setup.other)
    expectError(await api.get(`/api/coupons/${foreign.id}/usage`, owner()), 404, COUPON_NOT_FOUND)
    expectError(await api.get(`/api/coupons/${unknownId()}/usage`, owner()), 404, COUPON_NOT_FOUND)
    expectInvalid(await api.get("/api/coupons/not-an-id/usage", owner()), "id", "params")
  })
})
