import { SqlClient } from "@effect/sql"
import { Effect, Either } from "effect"
import { randomUUID } from "node:crypto"
import { type AppError, CommunityId, CouponRedemption, type Roda } from "../../src/index"
import { as, newCommunity, type TestCommunity } from "../support/community"
import { expectCreated, uniqueTag } from "../support/envelope"
import type { Client } from "../support/harness"
import { query } from "../support/sql"

export const COUPON_NOT_FOUND = "Cupom não encontrado."
export const INVALID_COUPON_ID = "Valid coupon ID is required"
export const PRODUCT_NOT_FOUND = "Product not found"

export type Person = { readonly token: string; readonly profileId: string }
export type Roles = Record<"admin" | "finance" | "moderator" | "member" | "outsider", Person>

/** A community with one member of every role, plus someone from another community. */
export const couponCommunity = async (api: Client, label = "Cupons") => {
  const setup = await newCommunity(api, label)
  const other = await newCommunity(api, "Outra")
  const people: Roles = {
    admin: await setup.addMember("admin"),
    finance: await setup.addMember("finance"),
    moderator: await setup.addMember("moderator"),
    member: await setup.addMember("member"),
    outsider: await other.addMember("member")
  }
  return { ...setup, other, people }
}

export type CouponCommunity = Awaited<ReturnType<typeof couponCommunity>>

export const ownerOf = (setup: TestCommunity) => as(setup.owner, setup.community)

/** A fresh code (upper case, unique). */
export const newCode = (prefix = "C") => `${prefix}${uniqueTag().toUpperCase()}`

/** A DRAFT product (ONE_TIME of R$ 100,00 unless `fields` say otherwise). */
export const draftProduct = async (api: Client, setup: TestCommunity, fields: Record<string, unknown> = {}) =>
  expectCreated(
    await api.post("/api/products", {
      type: "ONE_TIME",
      title: "Ingresso",
      price: 10000,
      allowedPaymentMethods: ["CREDIT_CARD", "PIX"],
      ...fields
    }, ownerOf(setup))
  )

/** A coupon created by the owner: 10 % off unless `body` gives a discount. */
export const createCoupon = async (api: Client, setup: TestCommunity, body: Record<string, unknown> = {}) =>
  expectCreated(
    await api.post("/api/coupons", {
      code: newCode(),
      ...("amountOff" in body ? {} : { percentOff: 10 }),
      ...body
    }, ownerOf(setup))
  )

export const newChargeId = () => `ch_${randomUUID()}`

const run = <A>(
  roda: Roda,
  program: (coupons: CouponRedemption["Type"], sql: SqlClient.SqlClient) => Effect.Effect<A, AppError>
) =>
  roda.runtime.runPromise(
    Effect.gen(function*() {
      const coupons = yield* CouponRedemption
      const sql = yield* SqlClient.SqlClient
      return yield* Effect.either(program(coupons, sql))
    })
  )

/** `CouponRedemption.reserve` in a transaction of its own (as checkout calls it); Left with the AppError when refused. */
export const reserve = (
  roda: Roda,
  communityId: string,
  couponId: string,
  chargeId = newChargeId(),
  details?: Parameters<CouponRedemption["Type"]["reserve"]>[3]
) =>
  run(
    roda,
    (coupons, sql) =>
      sql.withTransaction(coupons.reserve(CommunityId.make(communityId), couponId, chargeId, details)).pipe(
        Effect.catchTag("SqlError", Effect.die),
        Effect.as(chargeId)
      )
  )

export const confirm = (roda: Roda, communityId: string, chargeId: string) =>
  run(roda, (coupons) => coupons.confirm(CommunityId.make(communityId), chargeId))

export const release = (roda: Roda, communityId: string, chargeId: string) =>
  run(roda, (coupons) => coupons.release(CommunityId.make(communityId), chargeId))

export const apply = (roda: Roda, input: Parameters<CouponRedemption["Type"]["apply"]>[0]) =>
  run(roda, (coupons) => coupons.apply(input))

/** The AppError of a refused call, or a failure of the test when it succeeded. */
export const refusal = <A>(result: Either.Either<A, AppError>): AppError => {
  if (Either.isRight(result)) throw new Error(`expected a refusal, got ${JSON.stringify(result.right)}`)
  return result.left
}

/** Moves the coupon's expiry into the past (creation only accepts a future one). */
export const expireCoupon = (roda: Roda, couponId: string) =>
  query(
    roda,
    (sql) => sql`UPDATE coupons SET expires_at = now() - interval '1 minute' WHERE id = ${couponId} RETURNING id`
  )

/** The stored counters of a coupon. */
export const counters = async (roda: Roda, couponId: string) => {
  const rows = await query<{ timesRedeemed: number; timesReserved: number }>(
    roda,
    (sql) => sql`SELECT times_redeemed, times_reserved FROM coupons WHERE id = ${couponId}`
  )
  return rows[0]!
}
