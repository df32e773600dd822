import { SqlClient } from "@effect/sql"
import { Clock, Effect, Layer, Option } from "effect"
import { invalidField } from "../../domain/AppError"
import type { CommunityId } from "../../domain/Ids"
import { Ids } from "../../platform/Ids"
import { traced } from "../../platform/traced"
import { transactional } from "../../sql/transaction"
import { normaliseCode } from "./code"
import { CouponRedemption, type RedemptionDetails } from "./CouponRedemption"
import { discountOn, type Refusal, refusalOf, unavailability, unknownCode } from "./discount"
import { couponMessages } from "./messages"
import { RedemptionRepo } from "./RedemptionRepo"
import { CouponsRepo } from "./Repo"

const refused = (refusal: Refusal) => invalidField("couponCode", refusal.text)

/**
 * Coupons for checkout. A reservation takes a use with one conditional UPDATE (`reserved + redeemed
 * < max`) in the caller's transaction, so concurrent checkouts never hold more uses than the
 * maximum; payment turns it into a counted use, expiry or failure gives it back.
 */
export const CouponRedemptionLive = Layer.effect(
  CouponRedemption,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const coupons = yield* CouponsRepo
    const redemptions = yield* RedemptionRepo
    const ids = yield* Ids
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const apply = traced("CouponRedemption.apply")(function*(input: {
      readonly communityId: CommunityId
      readonly code: string
      readonly productId: string
      readonly amount: number
      readonly currency: string
    }) {
      const code = normaliseCode(input.code)
      const found = yield* coupons.findByCode(input.communityId, code)
      if (Option.isNone(found)) return yield* Effect.fail(refused(unknownCode(code)))
      const coupon = found.value
      const refusal = refusalOf(
        coupon,
        { productId: input.productId.toLowerCase(), currency: input.currency },
        yield* now
      )
      if (refusal !== undefined) return yield* Effect.fail(refused(refusal))
      const discount = discountOn(coupon, input.amount)
      return {
        couponId: coupon.id,
        code: coupon.code,
        discount,
        amountAfter: input.amount - discount,
        duration: coupon.duration,
        durationMonths: coupon.durationMonths
      }
    })

    /** Why no use could be held: the coupon's state now (a use freed meanwhile still reads as exhausted). */
    const whyNotHeld = (communityId: CommunityId, couponId: string, at: Date) =>
      Effect.map(coupons.find(communityId, couponId), (found) =>
        Option.match(found, {
          onNone: () => invalidField("couponCode", couponMessages.couponNotFound),
          onSome: (coupon) =>
            refused(unavailability(coupon, at) ?? { reason: "exhausted", text: couponMessages.exhausted(coupon.code) })
        }))

    const reserve = traced("CouponRedemption.reserve")(function*(
      communityId: CommunityId,
      couponId: string,
      chargeId: string,
      details: RedemptionDetails = {}
    ) {
      yield* transactional(sql)(Effect.gen(function*() {
        // a replay for a charge that already holds (or used) its coupon changes nothing
        if (Option.isSome(yield* redemptions.forCharge(communityId, chargeId))) return
        const at = yield* now
        const id = couponId.toLowerCase()
        if (!(yield* redemptions.holdUse(communityId, id, at))) {
          return yield* Effect.fail(yield* whyNotHeld(communityId, id, at))
        }
        const inserted = yield* redemptions.insert({
          id: yield* ids.next,
          communityId,
          couponId: id,
          chargeId,
          profileId: details.profileId ?? null,
          amount: details.amount ?? null,
          discount: details.discount ?? null,
          currency: details.currency ?? null
        }, at)
        // the same charge reserved concurrently: keep one hold
        if (!inserted) yield* redemptions.dropHold(communityId, id)
      }))
    })

    const confirm = traced("CouponRedemption.confirm")(function*(communityId: CommunityId, chargeId: string) {
      yield* transactional(sql)(Effect.gen(function*() {
        const at = yield* now
        const held = yield* redemptions.move(communityId, chargeId, "reserved", "redeemed", at)
        if (Option.isSome(held)) return yield* redemptions.countHeld(communityId, held.value, at)
        // paid after its reservation was released: counted only if a use is still left
        const redemption = yield* redemptions.forCharge(communityId, chargeId)
        if (Option.isNone(redemption) || redemption.value.status !== "released") return
        if (yield* redemptions.countUnheld(communityId, redemption.value.couponId, at)) {
          yield* redemptions.move(communityId, chargeId, "released", "redeemed", at)
        }
      }))
    })

    const release = traced("CouponRedemption.release")(function*(communityId: CommunityId, chargeId: string) {
      yield* transactional(sql)(Effect.gen(function*() {
        const held = yield* redemptions.move(communityId, chargeId, "reserved", "released", yield* now)
        if (Option.isSome(held)) yield* redemptions.dropHold(communityId, held.value)
      }))
    })

    const refund = traced("CouponRedemption.refund")(function*(communityId: CommunityId, chargeId: string) {
      yield* transactional(sql)(Effect.gen(function*() {
        const used = yield* redemptions.move(communityId, chargeId, "redeemed", "released", yield* now)
        if (Option.isSome(used)) yield* redemptions.uncount(communityId, used.value)
      }))
    })

    return { apply, reserve, confirm, release, refund }
  })
).pipe(Layer.provide(Layer.mergeAll(CouponsRepo.Default, RedemptionRepo.Default)))
