import type { SellableProduct } from "../catalogue/SellableProducts"

const monthsOf: Record<NonNullable<SellableProduct["billingInterval"]>, number> = {
  MONTHLY: 1,
  QUARTERLY: 3,
  SEMIANNUAL: 6,
  ANNUAL: 12
}

/** `start` plus `months` calendar months in UTC; a day the target month lacks becomes its last day (Jan 31 → Feb 28). */
export const addMonths = (start: Date, months: number): Date => {
  const target = new Date(start.getTime())
  const day = start.getUTCDate()
  target.setUTCDate(1)
  target.setUTCMonth(target.getUTCMonth() + months)
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
  target.setUTCDate(Math.min(day, lastDay))
  return target
}

/** The end of the first billing period of a subscription product paid at `start`. */
export const periodEnd = (interval: SellableProduct["billingInterval"], start: Date): Date =>
  addMonths(start, monthsOf[interval ?? "MONTHLY"])
