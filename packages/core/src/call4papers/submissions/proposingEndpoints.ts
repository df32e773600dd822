import { HttpApiEndpoint, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../../domain/AppError"
import { Ok, Page } from "../../domain/Envelope"
import { declared } from "../../domain/Failure"
import { Body } from "../../domain/Fields"
import { Uuid } from "../../domain/Ids"
import { PageQuery } from "../../domain/Pagination"
import { BodyRefused, ParametersRefused, WriteRefused } from "../../http/requestFailures"
import { MemberScope } from "../../http/Security"
import { CO_SPEAKERS, coSpeakerAnswer, move, ORGANISER, SEE } from "./endpointKinds"
import {
  CallIdParam,
  NewSubmission,
  Note,
  OwnQuery,
  Speaker,
  SpeakerInvitation,
  Submission,
  SubmissionChanges,
  SubmissionDetail,
  SubmissionIdParam,
  SubmissionQuery
} from "./schemas"

/** Proposing: the caller's lists, the speaker bank, co-speakers' consent, drafts, submitting and withdrawing. */
export const meSubmissions = HttpApiEndpoint.get("meSubmissions", "/call4papers/me/submissions")
  .setUrlParams(OwnQuery)
  .addSuccess(Page(Submission))
  .addError(declared(InvalidInput, "invalid_input"))
  .addError(declared(NotFound, "call_not_found"))
  .addError(ParametersRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    "The caller's own submissions (as proposer or accepted co-speaker; the X-ProfileId profile when acting) across the calls of the community, drafts included, by creation (keyset: `limit`, `cursor`); `status` filters."
  )
  .annotate(OpenApi.Summary, "List the caller's submissions")

export const speakers = HttpApiEndpoint.get("speakers", "/call4papers/speakers")
  .setUrlParams(PageQuery)
  .addSuccess(Page(Speaker))
  .addError(declared(InvalidInput, "invalid_input"))
  .addError(declared(Forbidden, "speakers_refused"))
  .addError(ParametersRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    "The speaker bank: everyone who proposed (or accepted to co-speak on) a submitted proposal in a live call of the community, one entry per person with their proposals across calls (drafts left out). No e-mail or phone. Owner, admin and moderator read the whole bank; an accepted owner of some call reads the bank of the calls they own only (the speakers and proposals of those calls, never other calls'); anyone else 403. Keyset by profile id."
  )
  .annotate(OpenApi.Summary, "List the speaker bank")

export const inviteSpeaker = HttpApiEndpoint.post("inviteSpeaker", "/call4papers/:id/invite-speaker")
  .setPath(CallIdParam)
  .setPayload(Body({ profileId: Uuid, message: Schema.optional(Note) }))
  .addSuccess(Ok(SpeakerInvitation), { status: 201 })
  .addError(declared(InvalidInput, "not_in_bank"))
  .addError(declared(Forbidden, "email_not_verified", "organiser_required", "space_content_forbidden"))
  .addError(declared(NotFound, "call_not_found", "space_unknown"))
  .addError(declared(Conflict, "already_invited", "call_not_published"))
  .addError(BodyRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    `${ORGANISER} Invites a person from the speaker bank (\`GET /api/call4papers/speakers\`) to submit to this call, by e-mail; an organiser who is not staff invites from the bank of the calls they own. Someone not in the bank: 400 (param \`profileId\`); invited before: 409 (param \`profileId\`); a call that is not published: 409 (param \`status\`). 403 when the caller has not confirmed their e-mail yet.`
  )
  .annotate(OpenApi.Summary, "Invite a speaker to a call")

export const acceptCoSpeaking = coSpeakerAnswer(
  "acceptCoSpeaking",
  "accept",
  "The invited co-speaker accepts: from now on they are a speaker of the submission (`invited -> accepted`). Someone who reviewed or voted on it gets 403 (no one speaks on a proposal they judged; a review or vote and an acceptance take the submission's row lock, so they cannot both pass). A submission that was withdrawn (`retirada`) or refused (`recusada`) takes no new co-speaker: 409 (param `status`); declining stays possible."
)
  .addError(declared(Forbidden, "co_speaker_after_judging", "co_speaker_own_consent"))
  .addError(declared(NotFound, "co_speaker_invitation_not_found", "not_found"))
  .addError(declared(Conflict, "co_speaker_closed", "co_speaker_move_refused"))
  .annotate(OpenApi.Summary, "Accept a co-speaker invitation")

export const declineCoSpeaking = coSpeakerAnswer(
  "declineCoSpeaking",
  "decline",
  "The invited co-speaker declines: they never become a speaker of it (`invited -> declined`); the proposer sees the refusal."
)
  .addError(declared(Forbidden, "co_speaker_after_judging", "co_speaker_own_consent"))
  .addError(declared(NotFound, "co_speaker_invitation_not_found", "not_found"))
  .addError(declared(Conflict, "co_speaker_closed", "co_speaker_move_refused"))
  .annotate(OpenApi.Summary, "Decline a co-speaker invitation")

export const detail = HttpApiEndpoint.get("detail", "/call4papers/submissions/:sid")
  .setPath(SubmissionIdParam)
  .addSuccess(Ok(SubmissionDetail))
  .addError(declared(Forbidden, "cannot_see", "space_content_forbidden"))
  .addError(declared(NotFound, "call_not_found", "not_found", "space_unknown"))
  .addError(ParametersRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    `${SEE} Organisers and speakers also get \`versions\`: every text the proposer saved, oldest first.`
  )
  .annotate(OpenApi.Summary, "Get a submission")

export const update = HttpApiEndpoint.put("update", "/call4papers/submissions/:sid")
  .setPath(SubmissionIdParam)
  .setPayload(SubmissionChanges)
  .addSuccess(Ok(SubmissionDetail))
  .addError(declared(InvalidInput, "co_speaker_self", "co_speaker_unknown", "track_unknown"))
  .addError(declared(Forbidden, "cannot_see", "only_proposer", "space_content_forbidden"))
  .addError(declared(NotFound, "call_not_found", "not_found", "space_unknown"))
  .addError(declared(Conflict, "move_refused"))
  .addError(BodyRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    "The proposer edits their own submission (403 for anyone else), only in `rascunho` (409 after, `param: status`). Partial: `title`, `abstract`, `trackId` (a live track of the call, else 400), `coSpeakers` (profile ids of active members, replacing the list: accepted co-speakers who stay on it stay accepted, new ones are invited, those left off are removed). Each edit is kept as a new version. " +
      CO_SPEAKERS
  )
  .annotate(OpenApi.Summary, "Edit a draft submission")

export const submit = move(
  "submit",
  "submit",
  "The proposer: `rascunho -> enviada`, while the call accepts submissions (published, inside its window; else 409)."
)
  .addError(declared(Forbidden, "only_proposer", "space_content_forbidden"))
  .addError(declared(NotFound, "call_not_found", "not_found", "space_unknown"))
  .addError(declared(Conflict, "call_not_open", "move_refused"))
  .annotate(OpenApi.Summary, "Submit a proposal")

export const withdraw = move(
  "withdraw",
  "withdraw",
  "The proposer withdraws: `rascunho | enviada | em_negociacao -> retirada` (final); an open offer is closed."
)
  .addError(declared(Forbidden, "only_proposer", "space_content_forbidden"))
  .addError(declared(NotFound, "call_not_found", "not_found", "space_unknown"))
  .addError(declared(Conflict, "move_refused"))
  .annotate(OpenApi.Summary, "Withdraw a submission")

export const list = HttpApiEndpoint.get("list", "/call4papers/:id/submissions")
  .setPath(CallIdParam)
  .setUrlParams(SubmissionQuery)
  .addSuccess(Page(Submission))
  .addError(declared(InvalidInput, "invalid_input"))
  .addError(declared(Forbidden, "space_content_forbidden"))
  .addError(declared(NotFound, "call_not_found", "space_unknown"))
  .addError(ParametersRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    "Contextual: organisers see every submission but others' drafts, reviewers the submitted ones of their tracks, everyone their own (drafts included). `status` and `trackId` filter; keyset by creation (`limit`, `cursor`). A draft call is 404 except to its organisers."
  )
  .annotate(OpenApi.Summary, "List a call's submissions")

export const create = HttpApiEndpoint.post("create", "/call4papers/:id/submissions")
  .setPath(CallIdParam)
  .setPayload(NewSubmission)
  .addSuccess(Ok(SubmissionDetail), { status: 201 })
  .addError(declared(InvalidInput, "co_speaker_self", "co_speaker_unknown", "track_unknown"))
  .addError(declared(Forbidden, "cannot_see", "space_content_forbidden"))
  .addError(declared(NotFound, "call_not_found", "not_found", "space_unknown"))
  .addError(declared(Conflict, "call_not_open"))
  .addError(BodyRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    "Any member proposes (the X-ProfileId profile when acting becomes the proposer): `title`, `abstract`, `trackId` (optional; a live track of this call, else 400), `coSpeakers` (optional profile ids of active members, at most 5; else 400). The call must accept submissions: published and inside its window (409, param `status`). The submission starts as `rascunho`, version 1. " +
      CO_SPEAKERS
  )
  .annotate(OpenApi.Summary, "Propose a submission")

export const mySubmissions = HttpApiEndpoint.get("mySubmissions", "/call4papers/:id/my-submissions")
  .setPath(CallIdParam)
  .setUrlParams(OwnQuery)
  .addSuccess(Page(Submission))
  .addError(declared(InvalidInput, "invalid_input"))
  .addError(declared(NotFound, "call_not_found"))
  .addError(ParametersRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    "The caller's own submissions to this call (proposer or accepted co-speaker), drafts included."
  )
  .annotate(OpenApi.Summary, "List the caller's submissions to a call")
