import { Effect } from "effect"
import { conflict, fieldError } from "../../domain/AppError"
import type { Role } from "../../domain/Role"
import { payoutMessages } from "./messages"

export const payoutStatuses = ["pending", "in_transit", "paid", "failed", "canceled"] as const
export type PayoutStatus = typeof payoutStatuses[number]

/** Open payouts: at most one per community at a time. */
export const openStatuses: ReadonlyArray<PayoutStatus> = ["pending", "in_transit"]

/**
 * Payout states (design/states.md "Ledger, balance, payout"): `pending -> in_transit -> paid`,
 * `pending -> canceled` (by the community), `pending | in_transit -> failed` (funds back to
 * available), `paid -> failed` (a bank return). `canceled` and `failed` are final.
 */
const transitions: Record<PayoutStatus, ReadonlyArray<PayoutStatus>> = {
  pending: ["in_transit", "canceled", "failed"],
  in_transit: ["paid", "failed"],
  paid: ["failed"],
  failed: [],
  canceled: []
}

export const allowedPayoutMoves = (from: PayoutStatus): ReadonlyArray<PayoutStatus> => transitions[from]

/** 409 with `param: "status"` and the allowed moves, unless `from -> to` is allowed. */
export const checkPayoutMove = (from: PayoutStatus, to: PayoutStatus) => {
  const allowed = allowedPayoutMoves(from)
  if (allowed.includes(to)) return Effect.void
  const message = payoutMessages.move(from, to, allowed)
  return Effect.fail(conflict(message, [fieldError("status", message)]))
}

/** Who reads balances and payouts: managers and the finance role. */
export const payoutReaders: ReadonlyArray<Role> = ["owner", "admin", "finance"]
/** Who requests and cancels payouts. */
export const payoutManagers: ReadonlyArray<Role> = ["owner", "admin"]

/**
 * The fee of one payout, in minor units of its currency, paid from the available balance on top of
 * the amount: 200 (R$ 2,00; 2.00 in any two-decimal currency, 200 units in zero-decimal ones).
 */
export const payoutFee = (_currency: string): number => 200

/** The largest payout amount accepted, in minor units. */
export const MAX_PAYOUT = 1_000_000_000_000
