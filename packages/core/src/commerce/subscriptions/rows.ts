import type { PaymentMethod } from "../../domain/Money"
import type { BillingInterval } from "./billing"
import type { BillingStatus, SubscriptionStatus } from "./Policy"

/** The rows of subscriptions as `SubscriptionsRepo` reads and writes them. */
export interface SubscriptionRow {
  readonly id: string
  readonly communityId: string
  readonly profileId: string
  readonly subscriptionGroupId: string
  readonly productId: string
  readonly status: SubscriptionStatus
  readonly cancelAtPeriodEnd: boolean
  readonly currentPeriodStart: Date | null
  readonly currentPeriodEnd: Date | null
  readonly firstChargeId: string | null
  readonly kind: "paid" | "courtesy" | "charge"
  readonly price: number
  readonly currency: string
  readonly paymentMethod: PaymentMethod | null
  readonly cardToken: string | null
  readonly billingAnchor: Date | null
  readonly periodIndex: number
  readonly pausedUntil: Date | null
  readonly pausedRemainingSeconds: number | null
  readonly scheduledProductId: string | null
  /**
   * The price the scheduled option was quoted at when the change was scheduled, what it renews at
   * (null with no schedule, and for schedules made before it was kept: the catalogue's price then).
   */
  readonly scheduledPrice: number | null
  readonly discountPercent: number | null
  readonly discountMonthsLeft: number | null
  /** A checkout coupon's amount off the option's price at each renewal, for `couponPeriodsLeft` more (null: for good). */
  readonly couponDiscount: number | null
  readonly couponPeriodsLeft: number | null
  readonly pastDueSince: Date | null
  readonly canceledAt: Date | null
  readonly startsAt: Date | null
  readonly createdAt: Date
  readonly updatedAt: Date
  /** Of the current billing option. */
  readonly billingInterval: BillingInterval | null
  readonly productTitle: string
}

export type SubscriptionChanges = Partial<
  Omit<SubscriptionRow, "id" | "communityId" | "createdAt" | "billingInterval" | "productTitle">
>

export interface AddOnRow {
  readonly id: string
  readonly subscriptionId: string
  readonly productId: string
  readonly title: string
  readonly price: number
  readonly createdAt: Date
}

export interface BillingRow {
  readonly id: string
  readonly communityId: string
  readonly subscriptionId: string
  readonly key: string
  readonly reason: "initial" | "renewal" | "proration" | "add_on" | "resume"
  readonly periodStart: Date | null
  readonly periodEnd: Date | null
  readonly listAmount: number
  readonly discount: number
  readonly amount: number
  readonly currency: string
  readonly paymentMethod: string | null
  readonly fee: number
  readonly net: number
  readonly status: BillingStatus
  /** Attempts at charging it; while `charging`, the number of the attempt at the gateway. */
  readonly attempts: number
  /** The gateway's id of the last attempt (a PaymentIntent at Stripe). */
  readonly gatewayChargeId: string | null
  readonly failureReason: string | null
  readonly refundedAmount: number
  readonly paidAt: Date | null
  readonly createdAt: Date
}

/** A refund of a billing asked of the gateway (`subscription_refunds`). */
export interface RefundRow {
  readonly id: string
  readonly communityId: string
  readonly subscriptionId: string
  readonly billingId: string
  readonly amount: number
  readonly status: "pending" | "succeeded" | "failed"
  readonly reason: string
  /** The team's cancel with refund: the subscription ends once the refund is given. */
  readonly endsSubscription: boolean
  readonly gatewayRefundId: string | null
  readonly failureReason: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** A stored `Idempotency-Key` of a route that charges or refunds (`answer` null: still in flight). */
export interface KeyRow {
  readonly fingerprint: string
  readonly answer: unknown
  readonly createdAt: Date
}

export interface PlanProduct {
  readonly id: string
  readonly title: string
  readonly price: number
  readonly currency: string
  readonly billingInterval: BillingInterval | null
  readonly status: "DRAFT" | "ACTIVE"
  readonly kind: "option" | "add_on"
  readonly groupId: string
}

export interface ListFilters {
  readonly profileId?: string | undefined
  readonly status?: SubscriptionStatus | undefined
  readonly subscriptionGroupId?: string | undefined
}

export interface TeamRow extends SubscriptionRow {
  readonly fullName: string
  readonly email: string
}
