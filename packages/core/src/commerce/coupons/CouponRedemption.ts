import { Context, type Effect } from "effect"
import type { Coded, InvalidInput } from "../../domain/AppError"
import type { CommunityId, ProfileId } from "../../domain/Ids"
import type { Refusal } from "./discount"

/** A coupon that applies to one purchase. */
export interface AppliedCoupon {
  readonly couponId: string
  readonly code: string
  /** Discount in minor units, never more than the amount. */
  readonly discount: number
  /** The amount after the discount. */
  readonly amountAfter: number
  readonly duration: "once" | "repeating" | "forever"
  /** For `repeating`: how many months the discount lasts. */
  readonly durationMonths: number | null
}

/** What a reservation records for the coupon's usage report (`GET /api/coupons/{id}/usage`); all optional. */
export interface RedemptionDetails {
  /** The buyer's profile in the community, when known. */
  readonly profileId?: ProfileId | null | undefined
  /** The price before the discount, in minor units. */
  readonly amount?: number | undefined
  /** The discount given (`AppliedCoupon.discount`). */
  readonly discount?: number | undefined
  readonly currency?: string | undefined
}

/**
 * Coupons as checkout uses them (contract; `commerce/coupons` implements it). A use counts toward
 * `maxRedemptions` from the moment a charge reserves it, becomes a use when the charge is paid, and
 * is released when the charge expires or fails; never beyond the maximum under concurrency.
 */
/** 400 on `couponCode`: why the coupon does not apply (unknown, expired, used up…). */
export type CouponRefused = Coded<InvalidInput, Refusal["text"]["code"] | "coupon_not_found">

export class CouponRedemption extends Context.Tag("@roda/core/CouponRedemption")<CouponRedemption, {
  /** The discount `code` gives on `productId` at `amount`; 400 (param `couponCode`) with the reason when it does not apply. Writes nothing. */
  readonly apply: (input: {
    readonly communityId: CommunityId
    readonly code: string
    readonly productId: string
    readonly amount: number
    readonly currency: string
  }) => Effect.Effect<AppliedCoupon, CouponRefused>
  /**
   * Holds one use for a charge (conditional, in the caller's transaction); 400 (param `couponCode`)
   * when none is left. Reserving again for the same charge holds nothing more. `details` (optional)
   * are shown in the coupon's usage report.
   */
  readonly reserve: (
    communityId: CommunityId,
    couponId: string,
    chargeId: string,
    details?: RedemptionDetails
  ) => Effect.Effect<void, CouponRefused>
  /** The charge was paid: its reservation becomes a counted use. */
  readonly confirm: (communityId: CommunityId, chargeId: string) => Effect.Effect<void>
  /** The charge expired or failed: its reservation is released. */
  readonly release: (communityId: CommunityId, chargeId: string) => Effect.Effect<void>
  /** The paid charge was refunded in full: its counted use is given back (`redeemed -> released`). */
  readonly refund: (communityId: CommunityId, chargeId: string) => Effect.Effect<void>
}>() {}
