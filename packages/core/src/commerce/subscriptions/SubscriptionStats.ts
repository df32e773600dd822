import { Context, type Effect } from "effect"
import type { CommunityId } from "../../domain/Ids"
import type { ReportRange } from "../../sql/periods"

/** One period of the subscriptions report. */
export interface SubscriptionPeriodRow {
  readonly period: string
  /** Subscriptions started in the period. */
  readonly new: number
  /** Subscriptions canceled in the period. */
  readonly churned: number
  /** Subscriptions running at the end of the period. */
  readonly active: number
  /**
   * Their recurring revenue per month at the end of the period, in minor units: each one's price over
   * its interval's months plus its add-ons' monthly prices, 0 for one paused then (summed yearly, / 12
   * once, half-even).
   */
  readonly mrr: number
}

/**
 * Subscription figures for reports (read contract; `commerce/subscriptions` owns the table). A
 * subscription counts as running from its creation (once it left `incomplete`) until `canceled_at`;
 * its price is its current option's (tier changes are not dated), with the add-ons it held at the
 * moment (each from its `created_at` until its `removed_at`, at its monthly price), and nothing
 * while paused (`subscription_pauses`). Discounts and coupons are not subtracted.
 */
export class SubscriptionStats extends Context.Tag("@roda/core/SubscriptionStats")<SubscriptionStats, {
  /** New and churned per period, and running count and MRR at each period's end, in one statement. */
  readonly series: (
    communityId: CommunityId,
    currency: string,
    range: ReportRange
  ) => Effect.Effect<ReadonlyArray<SubscriptionPeriodRow>>
  /** How many subscriptions are in each status now. */
  readonly byStatus: (communityId: CommunityId) => Effect.Effect<ReadonlyArray<{ status: string; count: number }>>
}>() {}
