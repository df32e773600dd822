import { HttpApiEndpoint, OpenApi } from "@effect/platform"
import { Ok } from "../../domain/Envelope"
import { ParametersRefused, WriteRefused } from "../../http/requestFailures"
import { MemberScope } from "../../http/Security"
import { CoSpeakerAnswer, Negotiation, Submission, SubmissionIdParam } from "./schemas"

/** What several submission endpoints say alike, and the endpoint shapes of state moves. */
export const SEE =
  "A draft is seen only by its speakers (404 for anyone else); a submission of a soft-deleted call, or of another community, is 404. Organisers (owner, admin, moderator of the community, or an accepted owner of the call), reviewers of the submission's track and its speakers see it; any other member gets 403."
/** The organisation's side of one submission: not for an organiser who is one of its speakers. */
export const NOT_OWN =
  "An organiser who is one of the submission's speakers (proposer or accepted co-speaker) gets 403: another organiser of the call decides on it, as no one reviews or votes on their own proposal."
export const ORGANISER =
  "Organisers only: owner, admin or moderator of the community, or an accepted owner of the call (403 otherwise)."
export const MOVE =
  "State moves follow design/states.md \"Call for papers\"; a move the current state does not allow answers 409 with `errors[0].param = \"status\"` and the allowed moves. The submission row is locked for the move, so concurrent moves settle once. The other side is e-mailed through the outbox."

export const move = <const Name extends string>(name: Name, path: string, description: string) =>
  HttpApiEndpoint.post(name, `/call4papers/submissions/:sid/${path}`)
    .setPath(SubmissionIdParam)
    .addSuccess(Ok(Submission))
    .addError(ParametersRefused)
    .addError(WriteRefused)
    .middleware(MemberScope)
    .annotate(OpenApi.Description, `${description} ${MOVE}`)

export const offerMove = <const Name extends string>(name: Name, path: string, description: string) =>
  HttpApiEndpoint.post(name, `/call4papers/submissions/:sid/${path}`)
    .setPath(SubmissionIdParam)
    .addSuccess(Ok(Negotiation))
    .addError(ParametersRefused)
    .addError(WriteRefused)
    .middleware(MemberScope)
    .annotate(OpenApi.Description, `${description} ${MOVE}`)

export const CO_SPEAKERS =
  "Naming co-speakers (`coSpeakers`) does not make them speakers: nothing may act on someone without their consent. Each newly named person is `invited` (an `invitation` notification, e-mailed unless they turned that kind's e-mail off); they count as a speaker (speaker bank, their submission lists, visibility, reviews and votes) only once they accept with their own token (`POST /api/call4papers/submissions/{sid}/co-speaker/accept`, or `/co-speaker/decline`). The proposer and organisers see invited and declined co-speakers with their `status`; everyone else sees the accepted ones."

export const CONSENT =
  "Not in the contract's route list: these routes exist because a co-speaker named by the proposer is only invited (see `coSpeakers` on create and edit), and someone must be able to give or refuse that consent. They follow the owner and reviewer invitations: the invited person answers with their own token only (staff acting as them with X-ProfileId get 403); a caller with no co-speaker invitation on the submission, or a submission of another community, 404; an invitation already answered, 409 (`param: status`; `invited -> accepted | declined`, both final). The submission row is locked, so concurrent answers settle once. The other speakers are told the answer (`submission_update`, e-mailed unless turned off)."

export const coSpeakerAnswer = <const Name extends string>(name: Name, path: string, description: string) =>
  HttpApiEndpoint.post(name, `/call4papers/submissions/:sid/co-speaker/${path}`)
    .setPath(SubmissionIdParam)
    .addSuccess(Ok(CoSpeakerAnswer))
    .addError(ParametersRefused)
    .addError(WriteRefused)
    .middleware(MemberScope)
    .annotate(OpenApi.Description, `${description} ${CONSENT}`)

export const TERMS =
  "Terms: `format` (e.g. talk, workshop), `durationMinutes`, `trackId` (a track of the call, else 400), `fee` (integer minor units) with `currency` (ISO 4217; required with a fee), `note`. Fields left out keep the previous offer's value (the first offer starts from the proposal's track)."
