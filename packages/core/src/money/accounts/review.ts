import { Effect } from "effect"
import { conflict, fieldError } from "../../domain/AppError"
import { accountsMessages } from "./messages"

/** Business information and payout settings share one review lifecycle. */
export type ReviewStatus = "draft" | "pending" | "approved" | "rejected"
export type ReviewAction = "edit" | "submit" | "approve" | "reject"

/**
 * The lifecycle (spec §3: approved information edited goes back to review):
 * - `edit`: a draft stays draft, a rejected one becomes draft again (to be fixed and submitted),
 *   a pending one stays pending (the reviewer sees the latest), an approved one goes to pending;
 * - `submit`: draft or rejected → pending;
 * - `approve` / `reject` (platform operator): pending → approved / rejected.
 */
const transitions: Record<ReviewStatus, Partial<Record<ReviewAction, ReviewStatus>>> = {
  draft: { edit: "draft", submit: "pending" },
  rejected: { edit: "draft", submit: "pending" },
  pending: { edit: "pending", approve: "approved", reject: "rejected" },
  approved: { edit: "pending" }
}

/** The actions allowed from a status. */
export const allowedActions = (from: ReviewStatus): ReadonlyArray<ReviewAction> =>
  Object.keys(transitions[from]) as Array<ReviewAction>

/** The status after `action`, or 409 (`param: status`) naming the allowed actions. */
export const nextStatus = (from: ReviewStatus, action: ReviewAction) => {
  const to = transitions[from][action]
  if (to !== undefined) return Effect.succeed(to)
  const text = accountsMessages.reviewMove(from, action, allowedActions(from))
  return Effect.fail(conflict(text, [fieldError("status", text)]))
}
