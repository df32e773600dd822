import { Effect, Layer } from "effect"
import type { CommunityId } from "../../domain/Ids"
import type { PaymentMethod } from "../../domain/Money"
import { traced } from "../../platform/traced"
import { FeesRepo } from "./FeesRepo"
import { Pricing, type SaleInput } from "./Pricing"
import { feesInForce, maxInstallmentsOf, saleAmounts } from "./salePricing"

/** Prices sales with the community's fees in force (its overrides, else the platform defaults). */
export const PricingLive = Layer.effect(
  Pricing,
  Effect.gen(function*() {
    const repo = yield* FeesRepo
    const price = traced("Pricing.price")(function*(input: SaleInput) {
      const override = yield* repo.override(input.communityId, input.paymentMethod)
      return yield* saleAmounts(input, feesInForce(input.paymentMethod, override))
    })
    const installmentTerms = traced("Pricing.installmentTerms")(
      function*(communityId: CommunityId, paymentMethod: PaymentMethod) {
        const fees = feesInForce(paymentMethod, yield* repo.override(communityId, paymentMethod))
        const maxInstallments = maxInstallmentsOf(paymentMethod)
        return { maxInstallments, interestRateBps: maxInstallments > 1 ? fees.interestRateBps : 0 }
      }
    )
    return { price, installmentTerms }
  })
).pipe(Layer.provide(FeesRepo.Default))
