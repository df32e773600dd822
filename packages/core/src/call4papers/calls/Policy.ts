import { Effect } from "effect"
import { conflict, fieldError, forbidden } from "../../domain/AppError"
import type { Message } from "../../domain/Text"
import type { CallRolesOf } from "./CallRoles"
import { CallMessages } from "./messages"
import type { CallStatus } from "./statuses"

export { callStatuses } from "./statuses"
export type { CallStatus } from "./statuses"

/** Who may open calls in a call4papers space: staff only, or any member (who becomes its owner). */
export const spaceModes = ["organisers", "members"] as const
export type SpaceMode = typeof spaceModes[number]
export const defaultSpaceMode: SpaceMode = "organisers"

export const invitationStatuses = ["pending", "accepted", "declined"] as const
export type InvitationStatus = typeof invitationStatuses[number]

/**
 * The call machine (design/states.md "Call for papers"): `draft -> published -> closed`,
 * `closed -> published` (reopen), `published -> draft` (unpublish); soft delete from any state.
 * `PATCH /{id}/status` follows this table.
 */
const callTransitions: Record<CallStatus, ReadonlyArray<CallStatus>> = {
  draft: ["published"],
  published: ["draft", "closed"],
  closed: ["published"]
}

/** The named lifecycle routes: each one is one edge of the table above, from one state only. */
export const callMoves = {
  publish: { from: "draft", to: "published" },
  unpublish: { from: "published", to: "draft" },
  close: { from: "published", to: "closed" },
  reopen: { from: "closed", to: "published" }
} as const satisfies Record<string, { readonly from: CallStatus; readonly to: CallStatus }>
export type CallMove = keyof typeof callMoves

export const allowedCallStatuses = (from: CallStatus): ReadonlyArray<CallStatus> => callTransitions[from]

/** The named moves possible from a state (`publish` from draft, …). */
export const allowedCallMoves = (from: CallStatus): ReadonlyArray<CallMove> =>
  (Object.keys(callMoves) as Array<CallMove>).filter((move) => callMoves[move].from === from)

const refused = <Code extends string>(message: Message<Code>) =>
  Effect.fail(conflict(message, [fieldError("status", message)]))

/** 409 (`param: status`, the allowed target statuses in the message) unless `from -> to` is in the table. */
export const checkCallStatus = (from: CallStatus, to: CallStatus) => {
  const allowed = allowedCallStatuses(from)
  return allowed.includes(to) ? Effect.void : refused(CallMessages.callStatusMove(from, to, allowed))
}

/** 409 (`param: status`, the allowed moves in the message) unless the named move starts from `from`. */
export const checkCallMove = (from: CallStatus, move: CallMove) =>
  callMoves[move].from === from
    ? Effect.void
    : refused(CallMessages.callMoveRefused(move, from, allowedCallMoves(from)))

/** Invitations (owners, track reviewers): `pending -> accepted | declined`; both answers are final. */
const invitationTransitions: Record<InvitationStatus, ReadonlyArray<InvitationStatus>> = {
  pending: ["accepted", "declined"],
  accepted: [],
  declined: []
}

export const allowedInvitationMoves = (from: InvitationStatus) => invitationTransitions[from]

export const checkInvitationMove = (from: InvitationStatus, to: InvitationStatus) => {
  const allowed = allowedInvitationMoves(from)
  return allowed.includes(to) ? Effect.void : refused(CallMessages.invitationMove(from, to, allowed))
}

/** 403 unless the caller organises the call (community staff or an accepted owner). */
export const requireOrganiser = (roles: CallRolesOf) =>
  roles.organiser ? Effect.void : Effect.fail(forbidden(CallMessages.organiserRequired))
