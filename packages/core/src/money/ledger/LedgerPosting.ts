import { Context, type Effect, type Option } from "effect"
import type { CommunityId } from "../../domain/Ids"
import type { SaleAmounts } from "./Pricing"

/** A paid charge, as the ledger records it. */
export interface PaidSale {
  readonly communityId: CommunityId
  /** The charge paid; a charge is recorded at most once. */
  readonly chargeId: string
  readonly amounts: SaleAmounts
  readonly paidAt: Date
  readonly description: string
  /**
   * The gateway settled the charge into the community's own account (Stripe Connect destination
   * charge): its net is `community_gateway_settled`, never pending or available (no manual payout).
   */
  readonly settledByGateway?: boolean | undefined
}

/**
 * A refund of (part of) a recorded sale: `amount` goes back to the buyer; the platform gives back
 * `fee` and `interest` (its parts of it), the community the rest: from the sale's still pending
 * money first, then from available (which may go below zero).
 */
export interface SaleRefund {
  readonly communityId: CommunityId
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
  readonly communityId: CommunityId
  readonly payoutId: string
  readonly move: "request" | "paid" | "return" | "bank_return"
  readonly currency: string
  readonly amount: number
  readonly fee: number
  readonly at: Date
  readonly description: string
}

/**
 * A step of a gateway dispute of a recorded sale, idempotent per dispute and move: `hold` (the
 * disputed amount from available to disputed), `release` (back to available), `fee` (what the
 * gateway charged for the dispute, from available). For a sale the gateway settled to the
 * community's own account, nothing is held here and the fee is taken from that account's side.
 */
export interface DisputeMove {
  readonly communityId: CommunityId
  readonly chargeId: string
  readonly disputeId: string
  readonly move: "hold" | "release" | "fee"
  readonly currency: string
  readonly amount: number
  readonly at: Date
  readonly description: string
}

/**
 * The community's money in one currency: pending, available, on its way to the bank, held by open
 * disputes, and what the gateway settled to the community's own account (never paid out by Roda).
 */
export interface PayoutBalance {
  readonly currency: string
  readonly pending: number
  readonly available: number
  readonly inTransit: number
  readonly disputed: number
  readonly settledByGateway: number
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
  readonly refundable: (communityId: CommunityId, chargeId: string) => Effect.Effect<Option.Option<number>>
  /** Entries of a refund (see `SaleRefund`); which part came from pending and which from available. */
  readonly recordRefund: (
    refund: SaleRefund
  ) => Effect.Effect<{ readonly fromPending: number; readonly fromAvailable: number }>
  /** Whether the charge's sale was settled by the gateway to the community's own account (false when unknown). */
  readonly settledByGateway: (communityId: CommunityId, chargeId: string) => Effect.Effect<boolean>
  /** Entries of a dispute step (see `DisputeMove`); whether it was posted now (false: posted before). */
  readonly recordDispute: (move: DisputeMove) => Effect.Effect<boolean>
  /** Entries of a payout move (see `PayoutMove`). */
  readonly recordPayout: (move: PayoutMove) => Effect.Effect<void>
  /**
   * The community's available balance in `currency`, its row locked until the caller's transaction
   * ends (due releases are posted first): the lock a payout request checks its amount under.
   */
  readonly lockAvailable: (communityId: CommunityId, currency: string) => Effect.Effect<number>
  /** Pending, available and in transit per currency (due releases posted first). */
  readonly payoutBalances: (communityId: CommunityId) => Effect.Effect<ReadonlyArray<PayoutBalance>>
}>() {}
