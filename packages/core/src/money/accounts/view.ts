import type { CommunityId } from "../../domain/Ids"
import { currencyOfCountry } from "../../domain/Money"
import { needsSubmit, stageOf } from "./Policy"
import type { BusinessRow, PayoutRow, Review } from "./Repo"

const iso = (date: Date | null) => date === null ? null : date.toISOString()

/** The review fields; all null (`configured: false`) while nothing was saved. */
const reviewView = (row: Review | undefined) => ({
  configured: row !== undefined,
  status: row?.status ?? null,
  needsSubmit: row === undefined ? false : needsSubmit(stageOf(row)),
  rejectionReason: row?.rejectionReason ?? null,
  submittedAt: row === undefined ? null : iso(row.submittedAt),
  reviewedAt: row === undefined ? null : iso(row.reviewedAt),
  createdAt: row === undefined ? null : row.createdAt.toISOString(),
  updatedAt: row === undefined ? null : row.updatedAt.toISOString()
})

/** Business information as the owner entered it; the empty state (every field null) while none was saved. */
export const businessView = (communityId: CommunityId, row: BusinessRow | undefined) => ({
  communityId,
  country: row?.country ?? null,
  currency: row === undefined ? null : currencyOfCountry(row.country),
  legalName: row?.legalName ?? null,
  taxId: row?.taxId ?? null,
  taxIdType: row?.taxIdType ?? null,
  address: row?.address ?? null,
  email: row?.email ?? null,
  phone: row?.phone ?? null,
  ...reviewView(row)
})

/** Payout settings as the owner entered them; the empty state (every field null) while none were saved. */
export const payoutView = (communityId: CommunityId, row: PayoutRow | undefined) => ({
  communityId,
  method: row?.method ?? null,
  pixKey: row?.pixKey ?? null,
  pixKeyType: row?.pixKeyType ?? null,
  bankAccount: row?.bankAccount ?? null,
  ...reviewView(row)
})

export const payoutStatusView = (row: PayoutRow | undefined) => {
  const { configured, needsSubmit, rejectionReason, reviewedAt, status, submittedAt } = reviewView(row)
  return { configured, status, needsSubmit, rejectionReason, submittedAt, reviewedAt }
}
