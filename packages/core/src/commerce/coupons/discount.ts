import { roundHalfEven } from "../../domain/Money"
import type { Message } from "../../domain/Text"
import { couponMessages } from "./messages"
import type { CouponRow } from "./Repo"

export const refusalReasons = [
  "unknown_code",
  "inactive",
  "expired",
  "exhausted",
  "not_applicable",
  "currency_mismatch"
] as const
export type RefusalReason = typeof refusalReasons[number]

export interface Refusal {
  readonly reason: RefusalReason
  readonly text: Message<
    "unknown_code" | "expired" | "exhausted" | "inactive" | "not_applicable" | "currency_mismatch"
  >
}

export const unknownCode = (code: string): Refusal => ({
  reason: "unknown_code",
  text: couponMessages.unknownCode(code)
})

/**
 * Why no use of the coupon can be taken now, or undefined. `exhausted` here also counts uses held
 * by open charges: none can be taken until one is released.
 */
export const unavailability = (coupon: CouponRow, now: Date): Refusal | undefined => {
  const code = coupon.code
  if (coupon.expiresAt !== null && coupon.expiresAt.getTime() <= now.getTime()) {
    return { reason: "expired", text: couponMessages.expired(code) }
  }
  if (coupon.maxRedemptions !== null && coupon.timesRedeemed + coupon.timesReserved >= coupon.maxRedemptions) {
    return { reason: "exhausted", text: couponMessages.exhausted(code) }
  }
  if (coupon.status === "inactive") return { reason: "inactive", text: couponMessages.inactive(code) }
  return undefined
}

/** Why the coupon does not apply to `productId` priced in `currency` now, or undefined when it does. */
export const refusalOf = (
  coupon: CouponRow,
  sale: { readonly productId: string; readonly currency: string },
  now: Date
): Refusal | undefined => {
  const unavailable = unavailability(coupon, now)
  if (unavailable !== undefined) return unavailable
  const code = coupon.code
  if (coupon.applicableProducts.length > 0 && !coupon.applicableProducts.includes(sale.productId)) {
    return { reason: "not_applicable", text: couponMessages.notApplicable(code) }
  }
  if (coupon.currency !== null && coupon.currency !== sale.currency) {
    return { reason: "currency_mismatch", text: couponMessages.currencyMismatch(code, coupon.currency, sale.currency) }
  }
  return undefined
}

/**
 * The discount on `amount` (minor units): a percentage rounded half-even once, or a fixed amount;
 * never below 0 and never above `amount`.
 */
export const discountOn = (coupon: Pick<CouponRow, "percentOff" | "amountOff">, amount: number): number => {
  const raw = coupon.percentOff !== null
    ? Number(roundHalfEven(BigInt(amount) * BigInt(coupon.percentOff), 100n))
    : coupon.amountOff ?? 0
  return Math.min(Math.max(raw, 0), Math.max(amount, 0))
}
