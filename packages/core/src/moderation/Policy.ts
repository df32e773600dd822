import { Effect } from "effect"
import { conflict, fieldError, forbidden } from "../domain/AppError"
import type { Role } from "../domain/Role"
import { moderationMessages as M } from "./messages"

/** What a member may report. */
export const subjectTypes = ["status", "comment", "content", "event", "profile", "submission"] as const
export type SubjectType = typeof subjectTypes[number]

export const reasons = ["spam", "harassment", "hate", "sexual", "violence", "misinformation", "other"] as const
export type Reason = typeof reasons[number]

export const actions = ["dismiss", "hide", "remove"] as const
export type Action = typeof actions[number]

/** What staff do to a member (`POST /api/moderation/members/{profileId}/…`). */
export const memberActions = ["suspend", "unsuspend", "ban", "unban"] as const
export type MemberAction = typeof memberActions[number]

/** Every action the log records: a case's resolution or an action on a member. */
export const logActions = [...actions, ...memberActions] as const

/**
 * Who may act on whom (platform.md "Moderation"): nobody on an owner; only an owner on an admin;
 * owner, admin and moderator on a moderator, member or finance profile. Acting on oneself is
 * refused before (403 `selfAction`).
 */
export const checkMayActOn = (actor: Role, target: Role) => {
  if (target === "owner") return Effect.fail(forbidden(M.ownerUntouchable))
  if (target === "admin" && actor !== "owner") return Effect.fail(forbidden(M.onlyOwnerOnAdmin))
  return Effect.void
}

export const caseStatuses = ["open", "resolved"] as const
export type CaseStatus = typeof caseStatuses[number]

/**
 * The actions each subject type takes (400 `action` for another): `dismiss` closes any case without
 * touching its subject; `hide` and `remove` act on content: social's posts and comments
 * (`SocialModeration`) and events (`EventModeration`).
 * - A profile is a person, not content: its case is closed by `dismiss`, and staff act on the member
 *   through the member routes (`suspend`, `ban`), which the log records with the member's name.
 * - A submission is a speaker's proposal to a call, read only by its speakers and the call's
 *   organisers and reviewers, never published: there is nothing to hide from the community, and its
 *   call's states (`rejected`, a speaker's `withdrawn`) are the organisers' decision, not a moderator's.
 *   Its case is closed by `dismiss`; the organisers reject it in the call.
 */
export const actionsFor: Record<SubjectType, ReadonlyArray<Action>> = {
  status: actions,
  comment: actions,
  content: actions,
  event: actions,
  profile: ["dismiss"],
  submission: ["dismiss"]
}

/**
 * A case: `open -> resolved` (with one of `actions`), final. A new report on a subject whose case
 * was resolved opens a new case; the resolved one stays as decided.
 */
const caseTransitions: Record<CaseStatus, ReadonlyArray<CaseStatus>> = {
  open: ["resolved"],
  resolved: []
}

/** 409 with `param: "status"` and the allowed moves, unless `from -> to` is allowed. */
export const checkCaseMove = (from: CaseStatus, to: CaseStatus) => {
  const allowed = caseTransitions[from]
  if (allowed.includes(to)) return Effect.void
  const message = M.caseMove(from, to, allowed)
  return Effect.fail(conflict(message, [fieldError("status", message)]))
}
