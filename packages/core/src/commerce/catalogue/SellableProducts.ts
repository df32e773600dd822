import { Context, type Effect, type Option } from "effect"
import type { CommunityId } from "../../domain/Ids"
import type { PaymentMethod } from "../../domain/Money"

/** A product as checkout sells it. */
export interface SellableProduct {
  readonly id: string
  readonly type: "ONE_TIME" | "SUBSCRIPTION"
  readonly title: string
  readonly price: number
  readonly currency: string
  readonly billingInterval: "MONTHLY" | "QUARTERLY" | "SEMIANNUAL" | "ANNUAL" | null
  readonly allowedPaymentMethods: ReadonlyArray<PaymentMethod>
  readonly hasStock: boolean
  readonly stockQuantity: number | null
  readonly status: "DRAFT" | "ACTIVE"
}

/**
 * What checkout reads of the catalogue (which owns `products` and the plans' product lists): a
 * product, the products a plan offers, the plans that offer a product.
 */
export class SellableProducts extends Context.Tag("@roda/core/SellableProducts")<SellableProducts, {
  /** A product of the community; a deleted one only with `includeDeleted` (settling an earlier charge). */
  readonly product: (
    communityId: CommunityId,
    productId: string,
    includeDeleted?: boolean
  ) => Effect.Effect<Option.Option<SellableProduct>>
  /** Products of a plan in the role `kind` (`option`, `add_on`), among `productIds`, not deleted. */
  readonly planProducts: (
    communityId: CommunityId,
    planId: string,
    kind: "option" | "add_on",
    productIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<SellableProduct>>
  /** Ids of the plans offering the product as a billing option (at most two: enough to tell one from many). */
  readonly plansOffering: (communityId: CommunityId, productId: string) => Effect.Effect<ReadonlyArray<string>>
}>() {}
