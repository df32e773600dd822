import { Effect } from "effect"
import type { ErasureStep } from "../../privacy/PersonalData"

/**
 * Checkout's part of an erasure: orders stay as they are. Purchases, charges, refunds and disputes
 * hold amounts, dates and the buyer's profile id, never a copy of the buyer's name or e-mail (receipts
 * read them from the account when sent), so the pseudonymised profile is all that names the buyer.
 */
export const checkoutErasure = Effect.succeed<ErasureStep>({
  feature: "commerce/checkout",
  keeps:
    "orders (purchases, charges, refunds, disputes) with their amounts, dates and the pseudonymous account and profile ids, for 5 years as Brazilian tax law requires (CTN arts. 173 and 174) and for consumer-law claims (CDC art. 27); the buyer's name and e-mail are not copied into them.",
  erase: () => Effect.void
})
