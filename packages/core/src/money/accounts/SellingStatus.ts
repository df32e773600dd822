import { Context, type Effect, type Option } from "effect"

/** Approved business information: the country selling is registered in, and its currency. */
export interface ApprovedBusiness {
  readonly country: string
  readonly currency: string
}

/**
 * Whether a community may sell (contract; `money/accounts` implements it). Publishing a product and
 * checkout need approved business information; checkout also needs approved payout settings.
 */
export class SellingStatus extends Context.Tag("@roda/core/SellingStatus")<SellingStatus, {
  /** Currency of new products: the business information's country currency (whatever its status), else BRL. */
  readonly defaultCurrency: (communityId: string) => Effect.Effect<string>
  /** The approved business information; none while it is missing, draft, pending or rejected. */
  readonly approvedBusiness: (communityId: string) => Effect.Effect<Option.Option<ApprovedBusiness>>
  /** Whether the payout settings are approved. */
  readonly payoutsApproved: (communityId: string) => Effect.Effect<boolean>
  /** The method of the approved payout settings (`PIX`, `BANK_ACCOUNT`); none unless approved. */
  readonly approvedPayoutMethod: (communityId: string) => Effect.Effect<Option.Option<string>>
}>() {}
