import { Effect, Layer } from "effect"
import { FeesRepo } from "./FeesRepo"
import { Pricing, type SaleInput } from "./Pricing"
import { feesInForce, saleAmounts } from "./salePricing"

/** Prices sales with the community's fees in force (its overrides, else the platform defaults). */
export const PricingLive = Layer.effect(
  Pricing,
  Effect.gen(function*() {
    const repo = yield* FeesRepo
    const price = Effect.fn("Pricing.price")(function*(input: SaleInput) {
      const override = yield* repo.override(input.communityId, input.paymentMethod)
      return yield* saleAmounts(input, feesInForce(input.paymentMethod, override))
    })
    return { price }
  })
).pipe(Layer.provide(FeesRepo.Default))
