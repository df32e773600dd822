import { Context, type Effect } from "effect"
import type { CommunityId } from "../../domain/Ids"
import type { ReportRange } from "../../sql/periods"

/** One period and payment method of the sales report, in minor units of one currency. */
export interface SalesPeriodRow {
  readonly period: string
  /** Null for refunds and for sales recorded before methods were kept. */
  readonly paymentMethod: string | null
  /** Paid sales (charges, renewals). */
  readonly sales: number
  /** What buyers paid (interest included). */
  readonly gross: number
  /** Platform fees. */
  readonly fees: number
  /** Installment interest (the platform's). */
  readonly interest: number
  /** What the community was credited. */
  readonly net: number
  /** What went back to buyers. */
  readonly refunds: number
  readonly refundCount: number
}

/**
 * Sales figures for reports (read contract; `money/ledger` implements it over its journal, so
 * checkout sales and subscription renewals count alike). One SQL aggregation per call.
 */
export class SalesStats extends Context.Tag("@roda/core/SalesStats")<SalesStats, {
  readonly series: (
    communityId: CommunityId,
    currency: string,
    range: ReportRange
  ) => Effect.Effect<ReadonlyArray<SalesPeriodRow>>
}>() {}
