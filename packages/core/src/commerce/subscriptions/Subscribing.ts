import { Context, type Effect, type Option } from "effect"
import type { CommunityId, ProfileId } from "../../domain/Ids"
import type { PaymentMethod } from "../../domain/Money"
import type { SaleAmounts } from "../../money/ledger/Pricing"
import type { GatewayEvent } from "../../platform/PaymentGateway"

/** A plan checkout, as the subscription it opens. */
export interface OpenedByCheckout {
  readonly communityId: CommunityId
  readonly chargeId: string
  readonly profileId: ProfileId
  readonly subscriptionGroupId: string
  readonly productId: string
  readonly addOnProductIds: ReadonlyArray<string>
  readonly paymentMethod: PaymentMethod
  /** The card the first charge was paid with: renewals are charged to it. */
  readonly cardToken: string | null
  /** The coupon of the checkout: a `repeating` or `forever` one also discounts the renewals. */
  readonly coupon?:
    | {
      readonly discount: number
      readonly duration: "once" | "repeating" | "forever"
      readonly durationMonths: number | null
    }
    | null
    | undefined
}

/** The first charge of a plan checkout, paid. */
export interface FirstChargePaid {
  readonly communityId: CommunityId
  readonly chargeId: string
  readonly paidAt: Date
  readonly amounts: SaleAmounts
  readonly listAmount: number
  readonly discount: number
}

/** What `Subscribing.start` made of a paid first charge. */
export type FirstChargeOutcome =
  /** The subscription is `active` for its first period, which ends at `end`. */
  | { readonly _tag: "Started"; readonly end: Date }
  /**
   * Its subscription had moved on: the charge is refunded at once and nothing was sold.
   * `keepsCoupon`: the subscription was paid another way and still renews with the discount of this
   * checkout's coupon, so the coupon's use stays counted; otherwise it is given back with the money.
   */
  | { readonly _tag: "RefundedAtOnce"; readonly keepsCoupon: boolean }

/**
 * How checkout opens and starts subscriptions (contract; `commerce/subscriptions` owns the tables
 * and implements it in `SubscribingLive`). Runs in the caller's transaction. Starting a subscription
 * also schedules its lifecycle (renewal at the period end).
 */
export class Subscribing extends Context.Tag("@roda/core/Subscribing")<Subscribing, {
  /** Opens the subscription of a plan checkout, `incomplete` until its first charge is paid. */
  readonly open: (input: OpenedByCheckout) => Effect.Effect<void>
  /**
   * The first charge is paid: the subscription is `active` for its first period (`Started`, its
   * end). One that moved on meanwhile (canceled, expired, or paid another way) stays as it is and the
   * charge is refunded (a job, at once), the buyer told so (an e-mail of kind `refund`):
   * `RefundedAtOnce`, nothing was sold (no access, no sale notice, no receipt; the coupon's use given
   * back unless the subscription keeps its discount). None when no
   * subscription was opened by this charge.
   */
  readonly start: (input: FirstChargePaid) => Effect.Effect<Option.Option<FirstChargeOutcome>>
  /** The first charge expired unpaid: an `incomplete` subscription becomes `incomplete_expired`. */
  readonly expire: (chargeId: string) => Effect.Effect<void>
  /** The subscription a checkout charge opened. */
  readonly ofCharge: (chargeId: string) => Effect.Effect<Option.Option<string>>
  /**
   * The checkout charge that opened a subscription was refunded in full or lost in a dispute at the
   * gateway: the subscription ends now (final `canceled`, access closed).
   */
  readonly chargeTakenBack: (chargeId: string) => Effect.Effect<void>
  /**
   * A gateway event about a subscription's own charge (a renewal, retry, pay-now, change or add-on
   * billing; not a checkout charge), in the caller's transaction: a refund is posted; a dispute holds
   * the disputed money while open, as checkout's do (`ChargeDisputes`); a refund in full or a lost
   * dispute ends the access. The billing's status afterwards; none when the event is not about one.
   */
  readonly gatewayEvent: (event: GatewayEvent) => Effect.Effect<Option.Option<string>>
}>() {}
