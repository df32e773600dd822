import { currencyOfCountry } from "../../domain/Money"
import type { BusinessRow, PayoutRow, Review } from "./Repo"

const iso = (date: Date | null) => date === null ? null : date.toISOString()

const reviewView = (row: Review) => ({
  status: row.status,
  rejectionReason: row.rejectionReason,
  submittedAt: iso(row.submittedAt),
  reviewedAt: iso(row.reviewedAt),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})

export const businessView = (communityId: string, row: BusinessRow) => ({
  communityId,
  country: row.country,
  currency: currencyOfCountry(row.country),
  legalName: row.legalName,
  taxId: row.taxId,
  taxIdType: row.taxIdType,
  address: row.address,
  email: row.email,
  phone: row.phone,
  ...reviewView(row)
})

/** Payout settings as the owner entered them. */
export const payoutView = (communityId: string, row: PayoutRow) => ({
  communityId,
  method: row.method,
  pixKey: row.pixKey,
  pixKeyType: row.pixKeyType,
  bankAccount: row.bankAccount,
  ...reviewView(row)
})

export const payoutStatusView = (row: PayoutRow | undefined) => ({
  configured: row !== undefined,
  status: row?.status ?? null,
  rejectionReason: row?.rejectionReason ?? null,
  submittedAt: row === undefined ? null : iso(row.submittedAt),
  reviewedAt: row === undefined ? null : iso(row.reviewedAt)
})
