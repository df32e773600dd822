import type { Text } from "../../domain/Text"
import { accountsMessages as M } from "./messages"
import { stageOf } from "./Policy"
import type { Review } from "./Repo"

export interface Prerequisite {
  readonly code: string
  readonly message: Text
}

const step = (prefix: string, row: Review | undefined, texts: {
  readonly missing: Text
  readonly draft: Text
  readonly pending: Text
  readonly rejected: (reason: string) => Text
}): ReadonlyArray<Prerequisite> => {
  if (row === undefined) return [{ code: `${prefix}_MISSING`, message: texts.missing }]
  switch (stageOf(row)) {
    case "APPROVED":
      return []
    case "DRAFT":
    case "AWAITING_SUBMIT":
      return [{ code: `${prefix}_NOT_SUBMITTED`, message: texts.draft }]
    case "UNDER_REVIEW":
      return [{ code: `${prefix}_UNDER_REVIEW`, message: texts.pending }]
    case "REJECTED":
      return [{ code: `${prefix}_REJECTED`, message: texts.rejected(row.rejectionReason ?? "") }]
  }
}

/** What is still missing before the community may sell (business information) and receive payouts (both). */
export const prerequisitesOf = (business: Review | undefined, payout: Review | undefined) => [
  ...step("BUSINESS_INFORMATION", business, {
    missing: M.businessMissing,
    draft: M.businessDraft,
    pending: M.businessPending,
    rejected: M.businessRejected
  }),
  ...step("PAYOUT_SETTINGS", payout, {
    missing: M.payoutMissing,
    draft: M.payoutDraft,
    pending: M.payoutPending,
    rejected: M.payoutRejected
  })
]
