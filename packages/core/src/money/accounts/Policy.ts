import { Effect } from "effect"
import { conflict, fieldError } from "../../domain/AppError"
import { accountsMessages } from "./messages"

/** Business information and payout settings share one review lifecycle; codes as the spec writes them (§3). */
export const reviewStatuses = ["DRAFT", "PENDING", "APPROVED", "REJECTED"] as const
export type ReviewStatus = typeof reviewStatuses[number]
export type ReviewAction = "edit" | "submit" | "approve" | "reject"

/**
 * Where a record stands. `PENDING` has two stages: submitted and waiting for an operator
 * (`UNDER_REVIEW`, `submittedAt` set), or an approved record that was edited and "needs submit
 * again" (spec §3; `AWAITING_SUBMIT`, `submittedAt` null).
 */
export type ReviewStage = "DRAFT" | "AWAITING_SUBMIT" | "UNDER_REVIEW" | "APPROVED" | "REJECTED"

export const stageOf = (row: { readonly status: ReviewStatus; readonly submittedAt: Date | null }): ReviewStage =>
  row.status === "PENDING" ? (row.submittedAt === null ? "AWAITING_SUBMIT" : "UNDER_REVIEW") : row.status

export const statusOf = (stage: ReviewStage): ReviewStatus =>
  stage === "AWAITING_SUBMIT" || stage === "UNDER_REVIEW" ? "PENDING" : stage

/** Whether the owner has to submit before an operator can approve (never submitted, edited after approval, rejected). */
export const needsSubmit = (stage: ReviewStage): boolean =>
  stage === "DRAFT" || stage === "AWAITING_SUBMIT" || stage === "REJECTED"

/**
 * The lifecycle (spec §3: "approved → edit → PENDING, needs submit again"; "any → submit → under
 * review"):
 * - `edit`: a draft stays draft; a rejected one becomes draft again (reason cleared); a pending one keeps
 *   its stage (under review: the reviewer sees the latest data); an approved one becomes PENDING awaiting
 *   a new submit (selling is suspended until it is approved again);
 * - `submit` from any state goes under review: draft, rejected, awaiting submit and approved records
 *   (an approved one is reviewed again: publishing, checkout and payouts wait for the new approval);
 *   one already under review stays there (idempotent, keeps its place in the queue);
 * - `approve` / `reject` (platform operator): only a submitted PENDING record.
 */
const transitions: Record<ReviewStage, Partial<Record<ReviewAction, ReviewStage>>> = {
  DRAFT: { edit: "DRAFT", submit: "UNDER_REVIEW" },
  AWAITING_SUBMIT: { edit: "AWAITING_SUBMIT", submit: "UNDER_REVIEW" },
  UNDER_REVIEW: { edit: "UNDER_REVIEW", submit: "UNDER_REVIEW", approve: "APPROVED", reject: "REJECTED" },
  APPROVED: { edit: "AWAITING_SUBMIT", submit: "UNDER_REVIEW" },
  REJECTED: { edit: "DRAFT", submit: "UNDER_REVIEW" }
}

/** The actions allowed from a stage. */
export const allowedActions = (from: ReviewStage): ReadonlyArray<ReviewAction> =>
  Object.keys(transitions[from]) as Array<ReviewAction>

/** The stage after `action`, or 409 (`param: status`) naming the allowed actions. */
export const nextStage = (from: ReviewStage, action: ReviewAction) => {
  const to = transitions[from][action]
  if (to !== undefined) return Effect.succeed(to)
  const text = accountsMessages.reviewMove(from === "AWAITING_SUBMIT", statusOf(from), action, allowedActions(from))
  return Effect.fail(conflict(text, [fieldError("status", text)]))
}
