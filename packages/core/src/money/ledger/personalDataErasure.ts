import { Effect } from "effect"
import type { ErasureStep } from "../../privacy/PersonalData"

/**
 * The ledger's part of an erasure: entries are append-only and hold amounts, accounts of the
 * community and the references of the sales they record, never a person's name; they stay.
 */
export const ledgerErasure = Effect.succeed<ErasureStep>({
  feature: "money/ledger",
  keeps:
    "ledger entries and balances (amounts and the pseudonymous references of the sales they record), for the same 5 years of tax law; they hold no name.",
  erase: () => Effect.void
})
