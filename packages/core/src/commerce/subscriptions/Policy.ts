import { Effect } from "effect"
import { conflict, fieldError } from "../../domain/AppError"
import type { Role } from "../../domain/Role"
import { subscriptionMessages as M } from "./messages"

/** The `status` values of a subscription (design/states.md "Subscription"). */
export const subscriptionStatuses = [
  "incomplete",
  "incomplete_expired",
  "active",
  "past_due",
  "unpaid",
  "paused",
  "canceled"
] as const
export type SubscriptionStatus = typeof subscriptionStatuses[number]

/** Final states: nothing moves a subscription out of them. */
export const finalStatuses: ReadonlyArray<SubscriptionStatus> = ["incomplete_expired", "canceled"]

/**
 * Where a subscription is, for the transition table: its `status`, with `active` split by the
 * `cancelAtPeriodEnd` flag (an active subscription marked to end moves differently).
 */
export type Phase = Exclude<SubscriptionStatus, "active"> | "active" | "active_canceling"

export const phaseOf = (row: { readonly status: SubscriptionStatus; readonly cancelAtPeriodEnd: boolean }): Phase =>
  row.status === "active" && row.cancelAtPeriodEnd ? "active_canceling" : row.status

/** The moves a request or a job can ask for. */
export const moves = [
  "cancel",
  "cancel_now",
  "reactivate",
  "pause",
  "resume",
  "change_tier",
  "add_on",
  "remove_add_on",
  "pay_now",
  "extend",
  "discount",
  "payment_link",
  "period_end",
  "retry"
] as const
export type Move = typeof moves[number]

/**
 * The transition table (design/states.md "Subscription"). What each move leads to is decided by the
 * service: `cancel` of an active subscription marks it to end at the period end, of any other open
 * one ends it now; `pay_now` from `unpaid` starts a new period from the payment.
 */
const transitions: Record<Phase, ReadonlyArray<Move>> = {
  incomplete: ["pay_now", "cancel", "cancel_now", "payment_link", "period_end"],
  active: [
    "cancel",
    "cancel_now",
    "pause",
    "change_tier",
    "add_on",
    "remove_add_on",
    "extend",
    "discount",
    "payment_link",
    "period_end"
  ],
  active_canceling: ["reactivate", "cancel_now", "remove_add_on", "extend", "discount", "period_end"],
  past_due: ["pay_now", "cancel", "cancel_now", "remove_add_on", "discount", "payment_link", "retry"],
  unpaid: ["pay_now", "cancel", "cancel_now", "remove_add_on", "discount", "payment_link"],
  paused: ["resume", "cancel", "cancel_now", "remove_add_on", "discount"],
  incomplete_expired: [],
  canceled: []
}

export const allowedMoves = (phase: Phase): ReadonlyArray<Move> => transitions[phase]

export const canMove = (phase: Phase, move: Move): boolean => transitions[phase].includes(move)

/**
 * The 409 (`param: "status"`) of `move` refused in `phase`: the allowed moves when the table does not
 * allow it from there; else the subscription changed while the move's charge was at the gateway
 * (`standingOf`), and its money is given back.
 */
export const refusal = (phase: Phase, move: Move) => {
  const message = canMove(phase, move) ? M.changedMeanwhile : M.moveRefused(phase, move, allowedMoves(phase))
  return Effect.fail(conflict(message, [fieldError("status", message)]))
}

/** 409 with `param: "status"` and the allowed moves, unless `move` is allowed from `phase`. */
export const checkMove = (phase: Phase, move: Move) => canMove(phase, move) ? Effect.void : refusal(phase, move)

/**
 * Where a subscription stands for a move paid at the gateway (a change of option): its phase,
 * option, scheduled change, period and discount, what the move was priced and decided on. Taken
 * with the row locked when the charge begins and carried with it; the gateway's answer applies the
 * move only while the subscription still stands there (compare-and-set). Whatever the member or the
 * team did meanwhile (a downgrade scheduled, a cancel, a pause, an extension, a discount) stands,
 * and the money taken is given back.
 */
export const standingOf = (row: {
  readonly status: SubscriptionStatus
  readonly cancelAtPeriodEnd: boolean
  readonly productId: string
  readonly scheduledProductId: string | null
  readonly currentPeriodStart: Date | null
  readonly currentPeriodEnd: Date | null
  readonly discountPercent: number | null
}): string =>
  [
    phaseOf(row),
    row.productId,
    row.scheduledProductId ?? "-",
    row.currentPeriodStart?.toISOString() ?? "-",
    row.currentPeriodEnd?.toISOString() ?? "-",
    row.discountPercent ?? "-"
  ].join(" ")

/** The `status` values of a billing (one charge of a subscription: a period, a proration, an add-on). */
export const billingStatuses = ["pending", "charging", "paid", "failed", "refunded"] as const
export type BillingStatus = typeof billingStatuses[number]

/**
 * What happens to a billing: `charge` (an attempt goes to the gateway; committed before the call),
 * `paid` and `declined` (the gateway's answer, or no charge needed: nothing to pay, no card),
 * `refunded` (given back in full).
 */
export type BillingMove = "charge" | "paid" | "declined" | "refunded"

/**
 * The billing transition table: an attempt is only made from `pending` or `failed` (a billing
 * `charging` is at the gateway: nothing else is asked of it until its answer is applied, by the
 * request or the reconciliation job, whichever locks it first), and the answer only moves a
 * billing still `charging`.
 */
const billingTransitions: Record<BillingStatus, Partial<Record<BillingMove, BillingStatus>>> = {
  pending: { charge: "charging", paid: "paid", declined: "failed" },
  failed: { charge: "charging", paid: "paid", declined: "failed" },
  charging: { paid: "paid", declined: "failed" },
  paid: { refunded: "refunded" },
  refunded: {}
}

/** Where `move` leads a billing in `from`; undefined when the table has no such move. */
export const billingMove = (from: BillingStatus, move: BillingMove): BillingStatus | undefined =>
  billingTransitions[from][move]

/** Team routes: owner and admin act; finance also reads (spec §5 "Finance reads sales"). */
export const teamActors: ReadonlyArray<Role> = ["owner", "admin"]
export const teamReaders: ReadonlyArray<Role> = ["owner", "admin", "finance"]

/** Retries of a failed renewal, in days after the first failure (states.md: day 1, 3, 5, 7). */
export const retryDays: ReadonlyArray<number> = [1, 3, 5, 7]

/** A payment link is valid for 7 days, once. */
export const PAYMENT_LINK_HOURS = 7 * 24

/** The reminder of an annual plan's renewal is sent this many days before it. */
export const UPCOMING_RENEWAL_DAYS = 7
