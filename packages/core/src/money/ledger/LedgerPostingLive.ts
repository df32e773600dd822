import { Effect, Layer } from "effect"
import { Journal } from "./Journal"
import { LedgerPosting } from "./LedgerPosting"

/** Records paid sales in the ledger through the journal (balanced, idempotent per charge). */
export const LedgerPostingLive = Layer.effect(
  LedgerPosting,
  Effect.map(Journal, (journal) => ({
    recordSale: journal.recordSale,
    refundable: journal.refundable,
    recordRefund: journal.recordRefund,
    settledByGateway: journal.settledByGateway,
    recordDispute: journal.recordDispute,
    recordPayout: journal.recordPayout,
    lockAvailable: journal.lockAvailable,
    payoutBalances: journal.payoutBalances
  }))
).pipe(Layer.provide(Journal.Default))
