import { Either } from "effect"
import { invalidField } from "../../domain/AppError"
import { type PaymentMethod, roundHalfEven } from "../../domain/Money"
import { ledgerMessages } from "./messages"
import type { PricingRefused } from "./Pricing"
import type { SaleAmounts, SaleInput } from "./Pricing"

/** What the platform charges for one payment method. */
export interface MethodFees {
  /** Percentage of the amount, in basis points (499 = 4.99 %). */
  readonly percentBps: number
  /** Fixed part, in minor units of the sale's currency. */
  readonly fixed: number
  /** Monthly installment interest in basis points; only CREDIT_CARD sells in installments. */
  readonly interestRateBps: number
}

export const BPS = 10_000
export const MAX_INSTALLMENTS = 12
/** The largest amount priced (minor units): far above any sale, and `12 × installment` stays a safe integer. */
export const MAX_AMOUNT = 100_000_000_000
/** Monthly interest an operator may set for a community (basis points); 0 % would need seller-paid interest. */
export const MIN_INTEREST_BPS = 1
export const MAX_INTEREST_BPS = 1_000

export const DEFAULT_INTEREST_BPS = 289

/** Platform defaults, decided here (a platform operator may override them per community). */
export const defaultFees: Readonly<Record<PaymentMethod, MethodFees>> = {
  CREDIT_CARD: { percentBps: 499, fixed: 49, interestRateBps: DEFAULT_INTEREST_BPS },
  PIX: { percentBps: 199, fixed: 0, interestRateBps: 0 },
  BOLETO: { percentBps: 199, fixed: 249, interestRateBps: 0 }
}

/** Days from payment until a sale's net amount moves from pending to available. */
export const releaseAfterDays: Readonly<Record<PaymentMethod, number>> = {
  CREDIT_CARD: 30,
  PIX: 0,
  BOLETO: 1
}

export const maxInstallmentsOf = (method: PaymentMethod): number => method === "CREDIT_CARD" ? MAX_INSTALLMENTS : 1

/**
 * One installment of the Price table, `pmt = P·i / (1 − (1 + i)^−n)` with `i = rateBps / 10000`,
 * computed exactly as the rational `P·r·N^n / (D·(N^n − D^n))` (D = 10000, N = D + r) and rounded
 * half-even once. No interest at one installment (nor at a zero rate: the amount is split evenly).
 */
export const installmentAmount = (amount: number, rateBps: number, installments: number): number => {
  const P = BigInt(amount)
  const n = BigInt(installments)
  if (installments === 1) return amount
  if (rateBps === 0) return Number(roundHalfEven(P, n))
  const D = BigInt(BPS)
  const r = BigInt(rateBps)
  const Nn = (D + r) ** n
  const Dn = D ** n
  return Number(roundHalfEven(P * r * Nn, D * (Nn - Dn)))
}

/** The platform fee: percentage (rounded half-even) plus the fixed part, never more than the amount. */
export const platformFee = (amount: number, fees: Pick<MethodFees, "percentBps" | "fixed">): number => {
  const percentage = Number(roundHalfEven(BigInt(amount) * BigInt(fees.percentBps), BigInt(BPS)))
  return Math.min(amount, percentage + fees.fixed)
}

const isCount = (value: number) => Number.isSafeInteger(value)

/**
 * Prices a sale with the fees in force: what `Pricing.price` returns, and the only place sale
 * figures are computed. Fails with 400 on an amount or installment count the method cannot take.
 */
export const saleAmounts = (input: SaleInput, fees: MethodFees): Either.Either<SaleAmounts, PricingRefused> => {
  const { amount, installments, paymentMethod } = input
  if (!isCount(amount) || amount < 0 || amount > MAX_AMOUNT) {
    return Either.left(invalidField("amount", ledgerMessages.amountRange(MAX_AMOUNT)))
  }
  if (!isCount(installments) || installments < 1 || installments > MAX_INSTALLMENTS) {
    return Either.left(invalidField("installments", ledgerMessages.installmentsRange(MAX_INSTALLMENTS)))
  }
  if (installments > maxInstallmentsOf(paymentMethod)) {
    return Either.left(invalidField("installments", ledgerMessages.installmentsOnlyCard(paymentMethod)))
  }
  const interestRateBps = installments === 1 ? 0 : fees.interestRateBps
  const each = installmentAmount(amount, interestRateBps, installments)
  const total = each * installments
  if (total < amount || (amount > 0 && each === 0)) {
    return Either.left(
      invalidField("installments", ledgerMessages.installmentsTooSmall(amount, input.currency, installments))
    )
  }
  const fee = platformFee(amount, fees)
  return Either.right({
    amount,
    currency: input.currency,
    paymentMethod,
    installments,
    interestRateBps,
    installmentAmount: each,
    total,
    interest: total - amount,
    feePercentBps: fees.percentBps,
    feeFixed: fees.fixed,
    fee,
    net: amount - fee
  })
}

/** An operator's override as stored: `interestRateBps` null keeps the default interest. */
export interface FeeOverride {
  readonly percentBps: number
  readonly fixed: number
  readonly interestRateBps: number | null
}

/** The fees in force for a method: the community's override, else the platform default. */
export const feesInForce = (method: PaymentMethod, override: FeeOverride | undefined): MethodFees =>
  override === undefined ? defaultFees[method] : {
    percentBps: override.percentBps,
    fixed: override.fixed,
    interestRateBps: method === "CREDIT_CARD" ? override.interestRateBps ?? DEFAULT_INTEREST_BPS : 0
  }
