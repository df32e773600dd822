import type { Effect } from "effect"
import { apiKeysErasure } from "../apiKeys/personalDataErasure"
import { certificatesErasure } from "../certificates/personalDataErasure"
import { checkoutErasure } from "../commerce/checkout/personalDataErasure"
import { subscriptionsErasure } from "../commerce/subscriptions/personalDataErasure"
import { communitiesErasure } from "../communities/personalDataErasure"
import { identityErasure } from "../identity/personalDataErasure"
import { ledgerErasure } from "../money/ledger/personalDataErasure"
import { notificationsErasure } from "../notifications/personalDataErasure"
import { oauthErasure } from "../oauth/personalDataErasure"
import type { ErasureStep } from "../privacy/PersonalData"
import { privacyErasure } from "../privacy/personalDataErasure"
import { socialErasure } from "../social/personalDataErasure"

/**
 * The erasure step of every feature that holds personal data (`<feature>/personalDataErasure.ts`), run
 * in this order in the erasure's transaction. A feature that adds personal data adds its step here.
 */

export const personalDataErasures: ReadonlyArray<Effect.Effect<ErasureStep, never, any>> = [
  // first: a cancel's e-mail still reaches the member's address
  subscriptionsErasure,
  apiKeysErasure,
  oauthErasure,
  // blockers (owned communities); profiles become the former member before others copy the name
  communitiesErasure,
  certificatesErasure,
  socialErasure,
  notificationsErasure,
  checkoutErasure,
  ledgerErasure,
  privacyErasure,
  // last: the address is erased once nothing needs it
  identityErasure
]
