import { Effect } from "effect"
import { conflict, fieldError } from "../../domain/AppError"
import { managerRoles, type Role } from "../../domain/Role"
import { couponMessages } from "./messages"

export const couponStatuses = ["active", "inactive", "expired", "exhausted"] as const
export type CouponStatus = typeof couponStatuses[number]
/** The states a person sets; `expired` and `exhausted` follow from `expiresAt` and the uses. */
export type StoredStatus = "active" | "inactive"

export const durations = ["once", "repeating", "forever"] as const
export type Duration = typeof durations[number]

export const redemptionStatuses = ["reserved", "redeemed", "released"] as const
export type RedemptionStatus = typeof redemptionStatuses[number]

/** Who creates, edits and removes coupons. */
export const couponManagers: ReadonlyArray<Role> = managerRoles
/** Who reads coupons and their usage: managers and the finance role. */
export const couponReaders: ReadonlyArray<Role> = ["owner", "admin", "finance"]

export interface CouponState {
  readonly status: StoredStatus
  readonly expiresAt: Date | null
  readonly maxRedemptions: number | null
  readonly timesRedeemed: number
}

/**
 * The status shown on the wire: `expired` once `expiresAt` has passed, else `exhausted` once every
 * use is counted (paid), else the stored `active` / `inactive`.
 */
export const effectiveStatus = (coupon: CouponState, now: Date): CouponStatus =>
  coupon.expiresAt !== null && coupon.expiresAt.getTime() <= now.getTime()
    ? "expired"
    : coupon.maxRedemptions !== null && coupon.timesRedeemed >= coupon.maxRedemptions
    ? "exhausted"
    : coupon.status

/**
 * Moves by hand (`PATCH /api/coupons/{id}/status`), from the effective status. `expired` is final;
 * `exhausted` leaves only when `maxRedemptions` is raised (PUT); neither is ever a target.
 */
const statusMoves: Record<CouponStatus, ReadonlyArray<StoredStatus>> = {
  active: ["inactive"],
  inactive: ["active"],
  exhausted: [],
  expired: []
}

export const allowedStatusMoves = (from: CouponStatus): ReadonlyArray<StoredStatus> => statusMoves[from]

/** 409 with `param: "status"` and the allowed moves, unless `from -> to` is allowed. */
export const checkStatusMove = (from: CouponStatus, to: CouponStatus) => {
  const allowed = allowedStatusMoves(from)
  if ((allowed as ReadonlyArray<CouponStatus>).includes(to)) return Effect.succeed(to as StoredStatus)
  const message = couponMessages.statusMove(from, to, allowed)
  return Effect.fail(conflict(message, [fieldError("status", message)]))
}
