import { Effect, Layer } from "effect"
import type { PaymentMethod } from "../../domain/Money"
import { FeesRepo } from "./FeesRepo"
import { Pricing, type SaleInput } from "./Pricing"
import { feesInForce, maxInstallmentsOf, saleAmounts } from "./salePricing"

/** Prices sales with the community's fees in force (its overrides, else the platform defaults). */
export const PricingLive = Layer.effect(
  Pricing,
  Effect.gen(function*() {
    const repo = yield* FeesRepo
    const price = Effect.fn("Pricing.price")(function*(input: SaleInput) {
      const override = yield* repo.override(input.communityId, input.paymentMethod)
      return yield* saleAmounts(input, feesInForce(input.paymentMethod, override))
    })
    const installmentTerms = Effect.fn("Pricing.installmentTerms")(
      function*(communityId: string, paymentMethod: PaymentMethod) {
        const fees = feesInForce(paymentMethod, yield* repo.override(communityId, paymentMethod))
        const maxInstallments = maxInstallmentsOf(paymentMethod)
        return { maxInstallments, interestRateBps: maxInstallments > 1 ? fees.interestRateBps : 0 }
      }
    )
    return { price, installmentTerms }
  })
).pipe(Layer.provide(FeesRepo.Default))
