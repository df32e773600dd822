import { Effect } from "effect"
import { conflict, fieldError } from "../../domain/AppError"
import { SubmissionMessages } from "./messages"

/**
 * Submission states (design/states.md "Call for papers"). The spec's Portuguese names are kept on the
 * wire: `rascunho` (draft), `enviada` (submitted), `em_negociacao` (an offer is open), `aceita`,
 * `recusada`, `retirada` (withdrawn), `confirmada` (agenda confirmed, final).
 */
export const submissionStatuses = [
  "rascunho",
  "enviada",
  "em_negociacao",
  "aceita",
  "recusada",
  "retirada",
  "confirmada"
] as const
export type SubmissionStatus = typeof submissionStatuses[number]

/** The moves, named as their routes are. `edit` is the proposer's edit (draft only). */
export const submissionMoves = [
  "edit",
  "submit",
  "withdraw",
  "counter-offer",
  "counter-offer/retract",
  "speaker-counter",
  "accept",
  "decline",
  "decide:accept",
  "decide:refuse",
  "confirm"
] as const
export type SubmissionMove = typeof submissionMoves[number]

/**
 * The transition table: for each state, the moves allowed and where they lead. Who may make a move,
 * and which side's offer must be open, is checked by the service; this table only says whether the
 * move exists from that state.
 */
export const submissionTransitions: Record<SubmissionStatus, Partial<Record<SubmissionMove, SubmissionStatus>>> = {
  rascunho: { edit: "rascunho", submit: "enviada", withdraw: "retirada" },
  enviada: {
    withdraw: "retirada",
    "counter-offer": "em_negociacao",
    decline: "recusada",
    "decide:accept": "aceita",
    "decide:refuse": "recusada"
  },
  em_negociacao: {
    withdraw: "retirada",
    "counter-offer": "em_negociacao",
    "counter-offer/retract": "enviada",
    "speaker-counter": "em_negociacao",
    accept: "aceita",
    decline: "recusada",
    "decide:accept": "aceita",
    "decide:refuse": "recusada"
  },
  aceita: { confirm: "confirmada" },
  recusada: {},
  retirada: {},
  confirmada: {}
}

export const allowedSubmissionMoves = (from: SubmissionStatus): ReadonlyArray<SubmissionMove> =>
  submissionMoves.filter((move) => submissionTransitions[from][move] !== undefined)

/** The state `move` leads to from `from`, or 409 with `param: "status"` and the allowed moves. */
export const checkSubmissionMove = (from: SubmissionStatus, move: SubmissionMove) => {
  const to = submissionTransitions[from][move]
  if (to !== undefined) return Effect.succeed(to)
  const message = SubmissionMessages.moveRefused(from, move, allowedSubmissionMoves(from))
  return Effect.fail(conflict(message, [fieldError("status", message)]))
}

/** States in which a co-speaker invitation can no longer be accepted, only declined. */
export const closedToCoSpeakers: ReadonlyArray<SubmissionStatus> = ["recusada", "retirada"]

/** States in which a submission is under consideration: reviewable, on the ballot. */
export const openStatuses: ReadonlyArray<SubmissionStatus> = ["enviada", "em_negociacao"]

/** Who wrote an offer. */
export const offerSides = ["organisation", "speaker"] as const
export type OfferSide = typeof offerSides[number]

/** An offer is `open` until it is retracted, answered by a counter (`superseded`), accepted or declined. */
export const offerStatuses = ["open", "retracted", "superseded", "accepted", "declined", "closed"] as const
export type OfferStatus = typeof offerStatuses[number]

export const otherSide = (side: OfferSide): OfferSide => side === "organisation" ? "speaker" : "organisation"

export const MAX_CO_SPEAKERS = 5

/**
 * A co-speaker named by the proposer is `invited` until they answer with their own token; only
 * `accepted` co-speakers are speakers (bank, lists, visibility). The proposer's own row is `accepted`.
 */
export const coSpeakerStatuses = ["invited", "accepted", "declined"] as const
export type CoSpeakerStatus = typeof coSpeakerStatuses[number]

/** The invited person's answers, named as their routes are (`co-speaker/accept`, `co-speaker/decline`). */
export const coSpeakerMoves = ["accept", "decline"] as const
export type CoSpeakerMove = typeof coSpeakerMoves[number]

/** Co-speaker invitations: `invited -> accepted | declined`; both answers are final. */
export const coSpeakerTransitions: Record<CoSpeakerStatus, Partial<Record<CoSpeakerMove, CoSpeakerStatus>>> = {
  invited: { accept: "accepted", decline: "declined" },
  accepted: {},
  declined: {}
}

export const allowedCoSpeakerMoves = (from: CoSpeakerStatus): ReadonlyArray<CoSpeakerMove> =>
  coSpeakerMoves.filter((move) => coSpeakerTransitions[from][move] !== undefined)

/** The status `move` leads to from `from`, or 409 with `param: "status"` and the allowed moves. */
export const checkCoSpeakerMove = (from: CoSpeakerStatus, move: CoSpeakerMove) => {
  const to = coSpeakerTransitions[from][move]
  if (to !== undefined) return Effect.succeed(to)
  const message = SubmissionMessages.coSpeakerMoveRefused(from, move, allowedCoSpeakerMoves(from))
  return Effect.fail(conflict(message, [fieldError("status", message)]))
}
