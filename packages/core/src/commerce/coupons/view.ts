import { effectiveStatus } from "./Policy"
import type { RedemptionRow } from "./RedemptionRepo"
import type { CouponRow } from "./Repo"

const iso = (date: Date | null) => (date === null ? null : date.toISOString())

/** How a coupon travels on the wire: the effective status, and the uses counted, held and left. */
export const couponView = (row: CouponRow, now: Date) => ({
  id: row.id,
  communityId: row.communityId,
  code: row.code,
  name: row.name,
  percentOff: row.percentOff,
  amountOff: row.amountOff,
  currency: row.currency,
  duration: row.duration,
  durationMonths: row.durationMonths,
  applicableProducts: row.applicableProducts,
  maxRedemptions: row.maxRedemptions,
  timesRedeemed: row.timesRedeemed,
  reservedRedemptions: row.timesReserved,
  redemptionsLeft: row.maxRedemptions === null
    ? null
    : Math.max(0, row.maxRedemptions - row.timesRedeemed - row.timesReserved),
  expiresAt: iso(row.expiresAt),
  status: effectiveStatus(row, now),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})

export const redemptionView = (row: RedemptionRow) => ({
  id: row.id,
  couponId: row.couponId,
  chargeId: row.chargeId,
  profileId: row.profileId,
  amount: row.amount,
  discount: row.discount,
  currency: row.currency,
  status: row.status,
  reservedAt: row.reservedAt.toISOString(),
  redeemedAt: iso(row.redeemedAt),
  releasedAt: iso(row.releasedAt)
})
