import { Context, type Effect } from "effect"
import type { Coded, InvalidInput } from "../../domain/AppError"
import type { CommunityId } from "../../domain/Ids"
import type { PaymentMethod } from "../../domain/Money"

export interface SaleInput {
  readonly communityId: CommunityId
  /** Price after discounts, in minor units. */
  readonly amount: number
  readonly currency: string
  readonly paymentMethod: PaymentMethod
  /** 1..12; more than 1 only for CREDIT_CARD. */
  readonly installments: number
}

/** What a sale costs the buyer and leaves the community; every figure in minor units. */
export interface SaleAmounts {
  readonly amount: number
  readonly currency: string
  readonly paymentMethod: PaymentMethod
  readonly installments: number
  /** Monthly interest rate in basis points (289 = 2.89 %); 0 at one installment. */
  readonly interestRateBps: number
  /** Each installment (Price table), rounded half-even to the minor unit. */
  readonly installmentAmount: number
  /** What the buyer pays: `installmentAmount * installments`. */
  readonly total: number
  /** `total - amount`: buyer-paid interest. */
  readonly interest: number
  /** Platform fee: percentage (basis points) of `amount` plus a fixed amount. */
  readonly feePercentBps: number
  readonly feeFixed: number
  readonly fee: number
  /** What the community receives: `amount - fee`, never below 0. */
  readonly net: number
}

/**
 * Prices a sale: installment interest and platform fee (contract; `money/ledger` implements it).
 * `POST /api/fees/simulate`, quotes and checkout all go through it.
 */
/** 400 on `amount` or `installments`, the reason in the message. */
export type PricingRefused = Coded<
  InvalidInput,
  "amount_range" | "installments_range" | "installments_only_card" | "installments_too_small"
>

export class Pricing extends Context.Tag("@roda/core/Pricing")<Pricing, {
  /** 400 (param `installments`) when the method does not allow that many installments. */
  readonly price: (input: SaleInput) => Effect.Effect<SaleAmounts, PricingRefused>
  /** How a method may be split: most installments and the community's monthly interest rate (bps, 0 without installments). */
  readonly installmentTerms: (
    communityId: CommunityId,
    paymentMethod: PaymentMethod
  ) => Effect.Effect<{ readonly maxInstallments: number; readonly interestRateBps: number }>
}>() {}
