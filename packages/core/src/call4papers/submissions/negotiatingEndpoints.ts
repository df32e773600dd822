import { HttpApiEndpoint, OpenApi } from "@effect/platform"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../../domain/AppError"
import { Ok } from "../../domain/Envelope"
import { declared } from "../../domain/Failure"
import { ParametersRefused } from "../../http/requestFailures"
import { MemberScope } from "../../http/Security"
import { move, NOT_OWN, offerMove, ORGANISER, TERMS } from "./endpointKinds"
import { Agreement, Decision, Negotiation, OfferTerms, SubmissionIdParam } from "./schemas"

/** Negotiating and deciding: offers, counter-offers, acceptance, the decision, the agenda and the agreement. */
export const negotiation = HttpApiEndpoint.get("negotiation", "/call4papers/submissions/:sid/negotiation")
  .setPath(SubmissionIdParam)
  .addSuccess(Ok(Negotiation))
  .addError(declared(Forbidden, "only_speaker_or_organiser", "space_content_forbidden"))
  .addError(declared(NotFound, "call_not_found", "not_found", "space_unknown"))
  .addError(ParametersRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    "Organisers and the speakers (403 otherwise). Every offer ever made, oldest first, each kept with its terms and fate: `open` (at most one), `retracted`, `superseded` (answered by a counter), `accepted`, `declined`, `closed` (the submission was withdrawn)."
  )
  .annotate(OpenApi.Summary, "Get a submission's negotiation")

export const counterOffer = offerMove(
  "counterOffer",
  "counter-offer",
  `${ORGANISER} \`enviada | em_negociacao -> em_negociacao\` with a new open offer of the organisation, answering the speaker's open counter if any; while the organisation's own offer is open: 409 (retract it first). ${NOT_OWN} ${TERMS}`
).setPayload(OfferTerms)
  .addError(declared(InvalidInput, "currency_required", "track_unknown"))
  .addError(
    declared(
      Forbidden,
      "only_proposer",
      "only_speaker_or_organiser",
      "organiser_required",
      "own_submission_decision",
      "space_content_forbidden",
      "speaker_own_consent"
    )
  )
  .addError(declared(NotFound, "call_not_found", "not_found", "space_unknown"))
  .addError(declared(Conflict, "move_refused", "offer_open_retract_first", "speaker_counter_needs_offer"))
  .annotate(OpenApi.Summary, "Make a counter-offer")

export const retract = offerMove(
  "retract",
  "counter-offer/retract",
  "The author side of the open offer takes it back (the organisation's by an organiser, the speaker's by the proposer; 403 for the other side): `em_negociacao -> enviada`."
)
  .addError(declared(Forbidden, "only_speaker_or_organiser", "retract_only_author", "space_content_forbidden"))
  .addError(declared(NotFound, "call_not_found", "not_found", "space_unknown"))
  .addError(declared(Conflict, "move_refused", "no_open_offer"))
  .annotate(OpenApi.Summary, "Retract the open offer")

export const speakerCounter = offerMove(
  "speakerCounter",
  "speaker-counter",
  `The proposer answers the organisation's open offer with their own (409 when none is open): \`em_negociacao -> em_negociacao\`. Only the proposer's own token: staff acting as them (X-ProfileId) get 403. ${TERMS}`
).setPayload(OfferTerms)
  .addError(declared(InvalidInput, "currency_required", "track_unknown"))
  .addError(
    declared(
      Forbidden,
      "only_proposer",
      "only_speaker_or_organiser",
      "organiser_required",
      "own_submission_decision",
      "space_content_forbidden",
      "speaker_own_consent"
    )
  )
  .addError(declared(NotFound, "call_not_found", "not_found", "space_unknown"))
  .addError(declared(Conflict, "move_refused", "offer_open_retract_first", "speaker_counter_needs_offer"))
  .annotate(OpenApi.Summary, "Counter the organisation's offer")

export const accept = move(
  "accept",
  "accept",
  `Accepts the other side's open offer (the proposer accepts the organisation's, with their own token only: staff acting as them with X-ProfileId get 403; an organiser the speaker's; 409 for one's own side's offer): \`em_negociacao -> aceita\`; its terms become the agreement. ${NOT_OWN}`
)
  .addError(
    declared(
      Forbidden,
      "only_speaker_or_organiser",
      "organiser_required",
      "own_submission_decision",
      "space_content_forbidden",
      "speaker_own_consent"
    )
  )
  .addError(declared(NotFound, "call_not_found", "not_found", "space_unknown"))
  .addError(declared(Conflict, "accept_other_side", "move_refused", "no_open_offer"))
  .annotate(OpenApi.Summary, "Accept the open offer")

export const decline = move(
  "decline",
  "decline",
  `${ORGANISER} The organisation refuses: \`enviada | em_negociacao -> recusada\` (final); an open offer is declined. No body (a note goes with \`decide\`). ${NOT_OWN}`
)
  .addError(declared(Forbidden, "organiser_required", "own_submission_decision", "space_content_forbidden"))
  .addError(declared(NotFound, "call_not_found", "not_found", "space_unknown"))
  .addError(declared(Conflict, "move_refused"))
  .annotate(OpenApi.Summary, "Decline a submission")

export const decide = move(
  "decide",
  "decide",
  `${ORGANISER} Decides directly: \`decision: accept\` (\`enviada | em_negociacao -> aceita\`; an open offer is accepted and is the agreement, else the proposal's own terms are) or \`refuse\` (\`-> recusada\`); optional \`note\`. ${NOT_OWN}`
).setPayload(Decision)
  .addError(declared(Forbidden, "organiser_required", "own_submission_decision", "space_content_forbidden"))
  .addError(declared(NotFound, "call_not_found", "not_found", "space_unknown"))
  .addError(declared(Conflict, "move_refused"))
  .annotate(OpenApi.Summary, "Decide on a submission")

export const confirm = move(
  "confirm",
  "confirm",
  "An organiser or the proposer confirms the agenda: `aceita -> confirmada`, the module's final state."
)
  .addError(declared(Forbidden, "only_speaker_or_organiser", "space_content_forbidden"))
  .addError(declared(NotFound, "call_not_found", "not_found", "space_unknown"))
  .addError(declared(Conflict, "move_refused"))
  .annotate(OpenApi.Summary, "Confirm an accepted submission")

export const agreement = HttpApiEndpoint.get("agreement", "/call4papers/submissions/:sid/agreement")
  .setPath(SubmissionIdParam)
  .addSuccess(Ok(Agreement))
  .addError(declared(Forbidden, "only_speaker_or_organiser", "space_content_forbidden"))
  .addError(declared(NotFound, "call_not_found", "not_found", "space_unknown"))
  .addError(declared(Conflict, "no_agreement"))
  .addError(ParametersRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    "Organisers and the speakers (403 otherwise). The terms in force once accepted (`aceita` or `confirmada`; 409 before): the accepted offer's, or, when accepted directly without one, the proposal's own (its track)."
  )
  .annotate(OpenApi.Summary, "Get a submission's agreement")
