import { Context, type Effect } from "effect"
import type { SaleAmounts } from "./Pricing"

/** A paid charge, as the ledger records it. */
export interface PaidSale {
  readonly communityId: string
  /** The charge paid; a charge is recorded at most once. */
  readonly chargeId: string
  readonly amounts: SaleAmounts
  readonly paidAt: Date
  readonly description: string
}

/**
 * Writes ledger transactions (contract; `money/ledger` implements it). Runs inside the caller's
 * transaction, so a sale and its entries commit together.
 */
export class LedgerPosting extends Context.Tag("@roda/core/LedgerPosting")<LedgerPosting, {
  /** Entries of a paid sale (buyer payment, platform fee, interest, community pending credit); idempotent per charge. */
  readonly recordSale: (sale: PaidSale) => Effect.Effect<void>
}>() {}
