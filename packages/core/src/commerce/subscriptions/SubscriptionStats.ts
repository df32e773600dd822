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
  /** Their recurring revenue per month at the end of the period, in minor units (annual plans / 12, half-even). */
  readonly mrr: number
}

/**
 * Subscription figures for reports (read contract; `commerce/subscriptions` owns the table). A
 * subscription counts as running from its creation (once it left `incomplete`) until `canceled_at`;
 * its price is the one it was sold at (add-ons not included).
 */
export class SubscriptionStats extends Context.Tag("@roda/core/SubscriptionStats")<SubscriptionStats, {
  /** New and churned per period (one SQL), and running count and MRR at each period's end (one SQL). */
  readonly series: (
    communityId: CommunityId,
    currency: string,
    range: ReportRange
  ) => Effect.Effect<ReadonlyArray<SubscriptionPeriodRow>>
  /** How many subscriptions are in each status now. */
  readonly byStatus: (communityId: CommunityId) => Effect.Effect<ReadonlyArray<{ status: string; count: number }>>
}>() {}
