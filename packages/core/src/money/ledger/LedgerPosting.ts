import { Context, type Effect, type Option } from "effect"
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
 * A refund of (part of) a recorded sale: `amount` goes back to the buyer; the platform gives back
 * `fee` and `interest` (its parts of it), the community the rest: from the sale's still pending
 * money first, then from available (which may go below zero).
 */
export interface SaleRefund {
  readonly communityId: string
  readonly chargeId: string
  /** Unique per refund: posting the same refund twice posts once. */
  readonly refundId: string
  readonly currency: string
  readonly amount: number
  readonly fee: number
  readonly interest: number
  readonly at: Date
  readonly description: string
}

/**
 * A move of a payout in the ledger: `request` (available − amount − fee; in transit + amount),
 * `paid` (in transit → sent to the bank), `return` (a pending or in-transit payout canceled or
 * failed: amount and fee back to available), `bank_return` (a paid payout came back: the same from
 * sent). Idempotent per payout and move.
 */
export interface PayoutMove {
  readonly communityId: string
  readonly payoutId: string
  readonly move: "request" | "paid" | "return" | "bank_return"
  readonly currency: string
  readonly amount: number
  readonly fee: number
  readonly at: Date
  readonly description: string
}

/** The community's money in one currency: pending, available and on its way to the bank. */
export interface PayoutBalance {
  readonly currency: string
  readonly pending: number
  readonly available: number
  readonly inTransit: number
}

/**
 * Writes ledger transactions (contract; `money/ledger` implements it). Runs inside the caller's
 * transaction, so a sale and its entries commit together.
 */
export class LedgerPosting extends Context.Tag("@roda/core/LedgerPosting")<LedgerPosting, {
  /** Entries of a paid sale (buyer payment, platform fee, interest, community pending credit); idempotent per charge. */
  readonly recordSale: (sale: PaidSale) => Effect.Effect<void>
  /**
   * What is left to refund of a charge's sale (its gross less every refund posted against it, from
   * whichever feature), or none when the ledger has no sale for it. It locks the sale until the
   * caller's transaction ends: call it in the refund's transaction, before asking the gateway.
   */
  readonly refundable: (communityId: string, chargeId: string) => Effect.Effect<Option.Option<number>>
  /** Entries of a refund (see `SaleRefund`); which part came from pending and which from available. */
  readonly recordRefund: (
    refund: SaleRefund
  ) => Effect.Effect<{ readonly fromPending: number; readonly fromAvailable: number }>
  /** Entries of a payout move (see `PayoutMove`). */
  readonly recordPayout: (move: PayoutMove) => Effect.Effect<void>
  /**
   * The community's available balance in `currency`, its row locked until the caller's transaction
   * ends (due releases are posted first): the lock a payout request checks its amount under.
   */
  readonly lockAvailable: (communityId: string, currency: string) => Effect.Effect<number>
  /** Pending, available and in transit per currency (due releases posted first). */
  readonly payoutBalances: (communityId: string) => Effect.Effect<ReadonlyArray<PayoutBalance>>
}>() {}
