import { Effect } from "effect"
import { conflict, fieldError } from "../../domain/AppError"
import type { Role } from "../../domain/Role"
import { catalogueMessages } from "./messages"

/** Owner and admin create, edit and remove products, plans, offers and tiers (spec §5). */
export const catalogueManagers: ReadonlyArray<Role> = ["owner", "admin"]
/** Finance reads sales, so it reads what is sold too. */
export const catalogueReaders: ReadonlyArray<Role> = ["owner", "admin", "finance"]

export const productTypes = ["ONE_TIME", "SUBSCRIPTION"] as const
export type ProductType = typeof productTypes[number]
export const productStatuses = ["DRAFT", "ACTIVE"] as const
export type ProductStatus = typeof productStatuses[number]
export const billingIntervals = ["MONTHLY", "QUARTERLY", "SEMIANNUAL", "ANNUAL"] as const
export type BillingInterval = typeof billingIntervals[number]

export const intervalMonths: Record<BillingInterval, number> = {
  MONTHLY: 1,
  QUARTERLY: 3,
  SEMIANNUAL: 6,
  ANNUAL: 12
}

/** What a plan add-on must be (spec §2: "monthly product ids that are not plan options"). */
export const isMonthlySubscription = (product: { readonly type: string; readonly billingInterval: string | null }) =>
  product.type === "SUBSCRIPTION" && product.billingInterval === "MONTHLY"

/**
 * Product states (spec §3): `DRAFT -> ACTIVE` (publish: needs approved business information in the
 * product's currency); `ACTIVE -> DRAFT` (unpublish: new sales stop, what was sold is untouched).
 */
const productTransitions: Record<ProductStatus, ReadonlyArray<ProductStatus>> = {
  DRAFT: ["ACTIVE"],
  ACTIVE: ["DRAFT"]
}

/** 409 with `param: "status"` and the allowed moves, unless `from -> to` is allowed. */
export const checkProductMove = (from: ProductStatus, to: ProductStatus) => {
  const allowed = productTransitions[from]
  if (allowed.includes(to)) return Effect.void
  const message = catalogueMessages.productStatusMove(from, to, allowed)
  return Effect.fail(conflict(message, [fieldError("status", message)]))
}
