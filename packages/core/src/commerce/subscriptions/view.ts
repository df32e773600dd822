import { allowedMoves, phaseOf } from "./Policy"
import type { BillingRow, ShownAddOn, SubscriptionRow, TeamRow } from "./Repo"

const iso = (date: Date | null) => date === null ? null : new Date(date).toISOString()

/** A subscription on the wire (conventions.md "More fields the spec leaves open"). */
export const subscriptionView = (row: SubscriptionRow, addOns: ReadonlyArray<ShownAddOn>) => ({
  id: row.id,
  status: row.status,
  profileId: row.profileId,
  productId: row.productId,
  productTitle: row.productTitle,
  subscriptionGroupId: row.subscriptionGroupId,
  kind: row.kind,
  billingInterval: row.billingInterval,
  price: row.price,
  currency: row.currency,
  paymentMethod: row.paymentMethod,
  hasCard: row.cardToken !== null,
  currentPeriodStart: iso(row.currentPeriodStart),
  currentPeriodEnd: iso(row.currentPeriodEnd),
  cancelAtPeriodEnd: row.cancelAtPeriodEnd,
  pausedUntil: iso(row.pausedUntil),
  scheduledChange: row.scheduledProductId === null
    ? null
    : { productId: row.scheduledProductId, effectiveAt: iso(row.currentPeriodEnd) },
  discountPercent: row.discountPercent,
  discountMonthsLeft: row.discountMonthsLeft,
  addOns: addOns.filter((addOn) => addOn.subscriptionId === row.id).map((addOn) => ({
    id: addOn.id,
    productId: addOn.productId,
    title: addOn.title,
    price: addOn.price
  })),
  canceledAt: iso(row.canceledAt),
  createdAt: iso(row.createdAt)!,
  allowedMoves: allowedMoves(phaseOf(row)).filter((move) => move !== "period_end" && move !== "retry")
})

export type SubscriptionView = ReturnType<typeof subscriptionView>

/** What the team also sees: whose subscription it is. */
export const teamView = (row: TeamRow, addOns: ReadonlyArray<ShownAddOn>) => ({
  ...subscriptionView(row, addOns),
  member: { profileId: row.profileId, fullName: row.fullName, email: row.email }
})

export const billingView = (row: BillingRow) => ({
  id: row.id,
  reason: row.reason,
  status: row.status,
  periodStart: iso(row.periodStart),
  periodEnd: iso(row.periodEnd),
  listAmount: row.listAmount,
  discount: row.discount,
  amount: row.amount,
  currency: row.currency,
  paymentMethod: row.paymentMethod,
  attempts: row.attempts,
  failureReason: row.failureReason,
  refundedAmount: row.refundedAmount,
  paidAt: iso(row.paidAt),
  createdAt: iso(row.createdAt)!
})
