import { catalogueMessages } from "../commerce/catalogue/messages"
import { checkoutMessages } from "../commerce/checkout/messages"
import { communityMessages } from "../communities/messages"
import { courseMessages } from "../courses/messages"
import { Messages as shared } from "../domain/Messages"
import { eventMessages } from "../events/messages"
import { feedMessages } from "../feed/messages"
import { identityMessages } from "../identity/messages"
import { searchMessages } from "../search/messages"
import { socialMessages } from "../social/messages"
import { structureMessages } from "../structure/messages"

/**
 * The package's `Messages` as embedders have known it: the shared catalogue with the messages that
 * moved from it into their features (issue 53 item 5), so that the public export keeps every entry.
 */
export const Messages = {
  ...shared,
  ...identityMessages,
  ...communityMessages,
  ...structureMessages,
  ...courseMessages,
  ...eventMessages,
  ...feedMessages,
  ...searchMessages,
  ...socialMessages,
  addOnUnknown: catalogueMessages.addOnUnknown,
  addOnIsBillingOption: catalogueMessages.addOnIsBillingOption,
  publishNeedsApprovedBusiness: catalogueMessages.publishNeedsApprovedBusiness,
  productCurrencyMismatch: catalogueMessages.productCurrencyMismatch,
  checkoutNeedsApprovedBusiness: checkoutMessages.checkoutNeedsApprovedBusiness
}
