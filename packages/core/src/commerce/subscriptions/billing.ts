import { roundHalfEven } from "../../domain/Money"

export type BillingInterval = "MONTHLY" | "QUARTERLY" | "SEMIANNUAL" | "ANNUAL"

export const monthsOf = (interval: BillingInterval | null): number =>
  ({ MONTHLY: 1, QUARTERLY: 3, SEMIANNUAL: 6, ANNUAL: 12 })[interval ?? "MONTHLY"]

/** `start` plus `months` calendar months in UTC; a day the target month lacks becomes its last day. */
export const addMonths = (start: Date, months: number): Date => {
  const target = new Date(start.getTime())
  const day = start.getUTCDate()
  target.setUTCDate(1)
  target.setUTCMonth(target.getUTCMonth() + months)
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
  target.setUTCDate(Math.min(day, lastDay))
  return target
}

/**
 * The end of period `index` counted from the billing anchor: always from the anchor, so a period
 * that starts on the 31st comes back to the 31st (Jan 31, Feb 28, Mar 31) instead of drifting.
 */
export const periodEndAt = (anchor: Date, months: number, index: number): Date => addMonths(anchor, months * index)

export interface Amounts {
  /** Before the discount. */
  readonly listAmount: number
  readonly discount: number
  /** What is charged. */
  readonly amount: number
}

/**
 * `numerator / denominator` of a list price, less a percentage discount, rounded half-even once:
 * `amount = round(numerator * (100 - percent) / (denominator * 100))`; `listAmount` is the same
 * figure without the discount (rounded on its own, for display), `discount` the difference.
 */
export const discounted = (numerator: bigint, denominator: bigint, percent: number | null): Amounts => {
  const positive = numerator < 0n ? 0n : numerator
  const listAmount = Number(roundHalfEven(positive, denominator))
  const amount = Number(roundHalfEven(positive * BigInt(100 - (percent ?? 0)), denominator * 100n))
  return { listAmount, discount: Math.max(0, listAmount - amount), amount }
}

/** Whole seconds from `from` to `to`, never below 0. */
export const secondsBetween = (from: Date, to: Date): bigint =>
  BigInt(Math.max(0, Math.floor((to.getTime() - from.getTime()) / 1000)))

/** A renewal: the option's price plus the add-ons (monthly prices times the months of the period). */
export const renewalAmounts = (
  price: number,
  addOnMonthlyPrices: ReadonlyArray<number>,
  months: number,
  percent: number | null,
  couponDiscount = 0
): Amounts => {
  const addOns = addOnMonthlyPrices.reduce((sum, addOn) => sum + BigInt(addOn) * BigInt(months), 0n)
  const list = BigInt(price) + addOns
  // a coupon discounts the option (never below 0), then the team's percentage applies to the whole
  const coupon = BigInt(Math.min(couponDiscount, price))
  const amounts = discounted(list - coupon, 1n, percent)
  return { listAmount: Number(list), discount: Number(list) - amounts.amount, amount: amounts.amount }
}

export interface TierChange {
  readonly direction: "upgrade" | "downgrade"
  readonly when: "now" | "period_end"
  /** What is charged now (0 when the change waits for the period end). */
  readonly amounts: Amounts
  /** The period after the change: unchanged, or a new one from now when the interval changes. */
  readonly periodStart: Date
  readonly periodEnd: Date
  readonly effectiveAt: Date
  /** Seconds of the current period left, the proration base. */
  readonly remainingSeconds: number
}

/**
 * A change of billing option. Upgrade when the new option costs more per month. Now, on the same
 * interval: the difference for the seconds left of the period; on another interval: a new period
 * from now, at the new price less the unused part of the current one. Rounded half-even once.
 */
export const tierChange = (input: {
  readonly now: Date
  readonly periodStart: Date
  readonly periodEnd: Date
  readonly current: { readonly price: number; readonly months: number }
  readonly next: { readonly price: number; readonly months: number }
  readonly when: "now" | "period_end" | undefined
  readonly discountPercent: number | null
}): TierChange => {
  const { current, next, now } = input
  const direction = BigInt(next.price) * BigInt(current.months) > BigInt(current.price) * BigInt(next.months)
    ? "upgrade"
    : "downgrade"
  const when = input.when ?? (direction === "upgrade" ? "now" : "period_end")
  const length = secondsBetween(input.periodStart, input.periodEnd)
  const remaining = secondsBetween(now, input.periodEnd)
  if (when === "period_end") {
    return {
      direction,
      when,
      amounts: { listAmount: 0, discount: 0, amount: 0 },
      periodStart: input.periodStart,
      periodEnd: input.periodEnd,
      effectiveAt: input.periodEnd,
      remainingSeconds: Number(remaining)
    }
  }
  const base = length === 0n ? 1n : length
  if (next.months === current.months) {
    return {
      direction,
      when,
      amounts: discounted(BigInt(next.price - current.price) * remaining, base, input.discountPercent),
      periodStart: input.periodStart,
      periodEnd: input.periodEnd,
      effectiveAt: now,
      remainingSeconds: Number(remaining)
    }
  }
  return {
    direction,
    when,
    amounts: discounted(
      BigInt(next.price) * base - BigInt(current.price) * remaining,
      base,
      input.discountPercent
    ),
    periodStart: now,
    periodEnd: addMonths(now, next.months),
    effectiveAt: now,
    remainingSeconds: Number(remaining)
  }
}

/** An add-on taken mid-period: its price for the period, for the seconds left of it. */
export const addOnProration = (input: {
  readonly now: Date
  readonly periodStart: Date
  readonly periodEnd: Date
  readonly monthlyPrice: number
  readonly months: number
  readonly discountPercent: number | null
}): Amounts & { readonly remainingSeconds: number } => {
  const length = secondsBetween(input.periodStart, input.periodEnd)
  const remaining = secondsBetween(input.now, input.periodEnd)
  const amounts = discounted(
    BigInt(input.monthlyPrice) * BigInt(input.months) * remaining,
    length === 0n ? 1n : length,
    input.discountPercent
  )
  return { ...amounts, remainingSeconds: Number(remaining) }
}

/** The unused part of a paid amount for a period, at `now` (a prorated refund). */
export const unusedPart = (amount: number, periodStart: Date, periodEnd: Date, now: Date): number => {
  const length = secondsBetween(periodStart, periodEnd)
  if (length === 0n) return 0
  const remaining = secondsBetween(now, periodEnd)
  return Number(roundHalfEven(BigInt(amount) * (remaining > length ? length : remaining), length))
}
