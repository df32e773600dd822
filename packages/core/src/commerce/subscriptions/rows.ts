import { Schema } from "effect"
import { CsvPage } from "../../domain/Csv"
import { CommunityId, ProfileId } from "../../domain/Ids"
import { PaymentMethod } from "../../domain/Money"
import { billingStatuses, type SubscriptionStatus, subscriptionStatuses } from "./Policy"

/*
 * The rows of subscriptions as `SubscriptionsRepo` reads and writes them, decoded at the boundary
 * (bigint amounts arrive as numbers from both drivers). The decoders are built once, here.
 */

const Interval = Schema.Literal("MONTHLY", "QUARTERLY", "SEMIANNUAL", "ANNUAL")
const Day = Schema.DateFromSelf
const OptionalDay = Schema.NullOr(Schema.DateFromSelf)
const OptionalNumber = Schema.NullOr(Schema.Number)
const OptionalText = Schema.NullOr(Schema.String)

const subscriptionFields = {
  id: Schema.String,
  communityId: CommunityId,
  profileId: ProfileId,
  subscriptionGroupId: Schema.String,
  productId: Schema.String,
  status: Schema.Literal(...subscriptionStatuses),
  cancelAtPeriodEnd: Schema.Boolean,
  currentPeriodStart: OptionalDay,
  currentPeriodEnd: OptionalDay,
  firstChargeId: OptionalText,
  kind: Schema.Literal("paid", "courtesy", "charge"),
  price: Schema.Number,
  currency: Schema.String,
  paymentMethod: Schema.NullOr(PaymentMethod),
  cardToken: OptionalText,
  billingAnchor: OptionalDay,
  periodIndex: Schema.Number,
  pausedUntil: OptionalDay,
  pausedRemainingSeconds: OptionalNumber,
  scheduledProductId: OptionalText,
  /**
   * The price the scheduled option was quoted at when the change was scheduled, what it renews at
   * (null with no schedule, and for schedules made before it was kept: the catalogue's price then).
   */
  scheduledPrice: OptionalNumber,
  discountPercent: OptionalNumber,
  discountMonthsLeft: OptionalNumber,
  /** A checkout coupon's amount off the option's price at each renewal, for `couponPeriodsLeft` more (null: for good). */
  couponDiscount: OptionalNumber,
  couponPeriodsLeft: OptionalNumber,
  pastDueSince: OptionalDay,
  canceledAt: OptionalDay,
  startsAt: OptionalDay,
  createdAt: Day,
  updatedAt: Day,
  /** Of the current billing option. */
  billingInterval: Schema.NullOr(Interval),
  productTitle: Schema.String
}
const SubscriptionRow = Schema.Struct(subscriptionFields)
export type SubscriptionRow = typeof SubscriptionRow.Type

export type SubscriptionChanges = Partial<
  Omit<SubscriptionRow, "id" | "communityId" | "createdAt" | "billingInterval" | "productTitle">
>

const AddOnRow = Schema.Struct({
  id: Schema.String,
  subscriptionId: Schema.String,
  productId: Schema.String,
  title: Schema.String,
  price: Schema.Number,
  createdAt: Day
})
export type AddOnRow = typeof AddOnRow.Type

const BillingRow = Schema.Struct({
  id: Schema.String,
  communityId: CommunityId,
  subscriptionId: Schema.String,
  key: Schema.String,
  reason: Schema.Literal("initial", "renewal", "proration", "add_on", "resume"),
  periodStart: OptionalDay,
  periodEnd: OptionalDay,
  listAmount: Schema.Number,
  discount: Schema.Number,
  amount: Schema.Number,
  currency: Schema.String,
  paymentMethod: OptionalText,
  fee: Schema.Number,
  net: Schema.Number,
  status: Schema.Literal(...billingStatuses),
  /** Attempts at charging it; while `charging`, the number of the attempt at the gateway. */
  attempts: Schema.Number,
  /** The gateway's id of the last attempt (a PaymentIntent at Stripe). */
  gatewayChargeId: OptionalText,
  failureReason: OptionalText,
  refundedAmount: Schema.Number,
  paidAt: OptionalDay,
  createdAt: Day
})
export type BillingRow = typeof BillingRow.Type

/** A refund of a billing asked of the gateway (`subscription_refunds`). */
const RefundRow = Schema.Struct({
  id: Schema.String,
  communityId: CommunityId,
  subscriptionId: Schema.String,
  billingId: Schema.String,
  amount: Schema.Number,
  status: Schema.Literal("pending", "succeeded", "failed"),
  reason: Schema.String,
  /** The team's cancel with refund: the subscription ends once the refund is given. */
  endsSubscription: Schema.Boolean,
  gatewayRefundId: OptionalText,
  failureReason: OptionalText,
  createdAt: Day,
  updatedAt: Day
})
export type RefundRow = typeof RefundRow.Type

/** A stored `Idempotency-Key` of a route that charges or refunds (`answer` null: still in flight). */
const KeyRow = Schema.Struct({ fingerprint: Schema.String, answer: Schema.Unknown, createdAt: Day })
export type KeyRow = typeof KeyRow.Type

const PlanProduct = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  price: Schema.Number,
  currency: Schema.String,
  billingInterval: Schema.NullOr(Interval),
  status: Schema.Literal("DRAFT", "ACTIVE"),
  kind: Schema.Literal("option", "add_on"),
  groupId: Schema.String
})
export type PlanProduct = typeof PlanProduct.Type

export interface ListFilters {
  readonly profileId?: string | undefined
  readonly status?: SubscriptionStatus | undefined
  readonly subscriptionGroupId?: string | undefined
}

const TeamRow = Schema.Struct({ ...subscriptionFields, fullName: Schema.String, email: Schema.String })
export type TeamRow = typeof TeamRow.Type

/** An add-on as a subscription's view shows it. */
export type ShownAddOn = Pick<AddOnRow, "id" | "subscriptionId" | "productId" | "title" | "price">

/** A subscription as the team sees it, with its add-ons (read by the statement that changed it). */
const ViewedRow = Schema.Struct({
  ...TeamRow.fields,
  addOns: Schema.Array(Schema.Struct({
    id: Schema.String,
    subscriptionId: Schema.String,
    productId: Schema.String,
    title: Schema.String,
    price: Schema.Number
  }))
})
export type ViewedRow = typeof ViewedRow.Type

const ProductPrice = Schema.Struct({
  id: Schema.String,
  price: Schema.Number,
  currency: Schema.String,
  billingInterval: Schema.NullOr(Interval)
})
const Contact = Schema.Struct({ id: ProfileId, fullName: Schema.String, email: Schema.String })
const PaymentLink = Schema.Struct({ id: Schema.String, expiresAt: Day, usedAt: OptionalDay })

const rowsOf = <A, I>(row: Schema.Schema<A, I>) => Schema.decodeUnknown(Schema.Array(row))

/** Decoders of the rows above, for the repository's statements. */
export const decode = {
  subscriptions: rowsOf(SubscriptionRow),
  team: rowsOf(TeamRow),
  viewed: rowsOf(ViewedRow),
  addOns: rowsOf(AddOnRow),
  productIds: rowsOf(Schema.Struct({ productId: Schema.String })),
  planProducts: rowsOf(PlanProduct),
  products: rowsOf(ProductPrice),
  billings: rowsOf(BillingRow),
  ids: rowsOf(Schema.Struct({ id: Schema.String })),
  refunds: rowsOf(RefundRow),
  keys: rowsOf(KeyRow),
  contacts: rowsOf(Contact),
  links: rowsOf(PaymentLink),
  csvPage: rowsOf(CsvPage)
}
