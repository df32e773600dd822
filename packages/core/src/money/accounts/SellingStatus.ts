import { Context, type Effect, type Option } from "effect"
import type { CommunityId } from "../../domain/Ids"

/** Approved business information: the country selling is registered in, and its currency. */
export interface ApprovedBusiness {
  readonly country: string
  readonly currency: string
}

/** The approved payout settings: their method and where they send money (a Pix key or a bank account). */
export interface ApprovedPayout {
  readonly method: string
  readonly destination: string
}

/**
 * Whether a community may sell (contract; `money/accounts` implements it). Publishing a product and
 * checkout need approved business information; checkout also needs approved payout settings.
 */
export class SellingStatus extends Context.Tag("@roda/core/SellingStatus")<SellingStatus, {
  /** Currency of new products: the business information's country currency (whatever its status), else BRL. */
  readonly defaultCurrency: (communityId: CommunityId) => Effect.Effect<string>
  /** The approved business information; none while it is missing, draft, pending or rejected. */
  readonly approvedBusiness: (communityId: CommunityId) => Effect.Effect<Option.Option<ApprovedBusiness>>
  /** Whether the payout settings are approved. */
  readonly payoutsApproved: (communityId: CommunityId) => Effect.Effect<boolean>
  /** The approved payout settings (method `PIX` or `BANK_ACCOUNT`, and destination); none unless approved. */
  readonly approvedPayout: (communityId: CommunityId) => Effect.Effect<Option.Option<ApprovedPayout>>
}>() {}
