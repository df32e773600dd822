import { HttpApiEndpoint, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../../domain/AppError"
import { CreatedId, Ok, Page } from "../../domain/Envelope"
import { declared } from "../../domain/Failure"
import { PageQuery } from "../../domain/Pagination"
import { BodyRefused, ParametersRefused, WriteRefused } from "../../http/requestFailures"
import { MemberScope } from "../../http/Security"
import { ORGANISER } from "./endpointKinds"
import {
  CallIdParam,
  Invitation,
  Invitee,
  Owner,
  OwnerIdParam,
  Reviewer,
  ReviewerIdParam,
  TrackIdParam
} from "./schemas"

/** Owners of a call and reviewers of its tracks: invitations and their answers. */
export const myInvitations = HttpApiEndpoint.get("myInvitations", "/call4papers/me/invitations")
  .setUrlParams(PageQuery)
  .addSuccess(Page(Invitation))
  .addError(declared(InvalidInput, "invalid_input"))
  .addError(ParametersRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    "The caller's pending invitations in this community, both kinds (`kind`: `owner` of a call, `reviewer` of a track), oldest first (keyset). Answer them with `POST /owners/{ownerId}/accept|decline` or `POST /track-reviewers/{reviewerId}/accept|decline`."
  )
  .annotate(OpenApi.Summary, "List the caller's call invitations")

export const reviewers = HttpApiEndpoint.get("reviewers", "/call4papers/tracks/:trackId/reviewers")
  .setPath(TrackIdParam)
  .setUrlParams(PageQuery)
  .addSuccess(Page(Reviewer))
  .addError(declared(InvalidInput, "invalid_input"))
  .addError(declared(Forbidden, "organiser_required"))
  .addError(declared(NotFound, "call_not_found", "track_not_found"))
  .addError(ParametersRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    `${ORGANISER} The track's reviewers and their invitations (every status), oldest first.`
  )
  .annotate(OpenApi.Summary, "List a track's reviewers")

export const inviteReviewer = HttpApiEndpoint.post("inviteReviewer", "/call4papers/tracks/:trackId/reviewers")
  .setPath(TrackIdParam)
  .setPayload(Invitee)
  .addSuccess(Ok(CreatedId), { status: 201 })
  .addError(declared(InvalidInput, "profile_not_found"))
  .addError(declared(Forbidden, "email_not_verified", "organiser_required"))
  .addError(declared(NotFound, "call_not_found", "track_not_found"))
  .addError(declared(Conflict, "already_reviewer"))
  .addError(BodyRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    `${ORGANISER} Invites an active member (\`profileId\`, 400 when not a member of this community) to review the track; answers \`data.id\`, the reviewer id the accept, decline and remove routes take, and e-mails the person. The invitation is \`pending\` until answered; already pending or accepted: 409; a declined one is invited again (same id). 403 when the caller has not confirmed their e-mail yet.`
  )
  .annotate(OpenApi.Summary, "Invite a track reviewer")

export const removeReviewer = HttpApiEndpoint.del("removeReviewer", "/call4papers/track-reviewers/:reviewerId")
  .setPath(ReviewerIdParam)
  .addSuccess(Ok(Schema.Null))
  .addError(declared(Forbidden, "organiser_required"))
  .addError(declared(NotFound, "call_not_found", "reviewer_not_found"))
  .addError(ParametersRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(OpenApi.Description, `${ORGANISER} The reviewer may also remove themself (step down).`)
  .annotate(OpenApi.Summary, "Remove a track reviewer")

export const acceptReviewer = HttpApiEndpoint.post("acceptReviewer", "/call4papers/track-reviewers/:reviewerId/accept")
  .setPath(ReviewerIdParam)
  .addSuccess(Ok(Reviewer))
  .addError(declared(Forbidden, "invitation_not_yours"))
  .addError(declared(NotFound, "reviewer_not_found"))
  .addError(declared(Conflict, "invitation_move"))
  .addError(ParametersRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    "The invited person only (403 otherwise): `pending -> accepted`. An answered invitation answers 409 (`param: status`, allowed moves)."
  )
  .annotate(OpenApi.Summary, "Accept a reviewer invitation")

export const declineReviewer = HttpApiEndpoint.post(
  "declineReviewer",
  "/call4papers/track-reviewers/:reviewerId/decline"
)
  .setPath(ReviewerIdParam)
  .addSuccess(Ok(Reviewer))
  .addError(declared(Forbidden, "invitation_not_yours"))
  .addError(declared(NotFound, "reviewer_not_found"))
  .addError(declared(Conflict, "invitation_move"))
  .addError(ParametersRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(OpenApi.Description, "The invited person only: `pending -> declined` (409 once answered).")
  .annotate(OpenApi.Summary, "Decline a reviewer invitation")

export const owners = HttpApiEndpoint.get("owners", "/call4papers/:id/owners")
  .setPath(CallIdParam)
  .setUrlParams(PageQuery)
  .addSuccess(Page(Owner))
  .addError(declared(InvalidInput, "invalid_input"))
  .addError(declared(Forbidden, "organiser_required"))
  .addError(declared(NotFound, "call_not_found"))
  .addError(ParametersRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    `${ORGANISER} The call's owners and their invitations (every status), oldest first.`
  )
  .annotate(OpenApi.Summary, "List a call's owners")

export const inviteOwner = HttpApiEndpoint.post("inviteOwner", "/call4papers/:id/owners")
  .setPath(CallIdParam)
  .setPayload(Invitee)
  .addSuccess(Ok(CreatedId), { status: 201 })
  .addError(declared(InvalidInput, "profile_not_found"))
  .addError(declared(Forbidden, "email_not_verified", "organiser_required"))
  .addError(declared(NotFound, "call_not_found"))
  .addError(declared(Conflict, "already_owner"))
  .addError(BodyRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    `${ORGANISER} Invites an active member (\`profileId\`, 400 when not a member of this community) to own the call; answers \`data.id\`, the owner id the accept, decline and remove routes take, and e-mails the person. An accepted owner has organiser rights on this call only. Already pending or accepted: 409; a declined one is invited again (same id). 403 when the caller has not confirmed their e-mail yet.`
  )
  .annotate(OpenApi.Summary, "Invite a call owner")

export const removeOwner = HttpApiEndpoint.del("removeOwner", "/call4papers/owners/:ownerId")
  .setPath(OwnerIdParam)
  .addSuccess(Ok(Schema.Null))
  .addError(declared(Forbidden, "organiser_required"))
  .addError(declared(NotFound, "call_not_found", "owner_not_found"))
  .addError(ParametersRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(OpenApi.Description, `${ORGANISER} An owner may also remove themself (step down).`)
  .annotate(OpenApi.Summary, "Remove a call owner")

export const acceptOwner = HttpApiEndpoint.post("acceptOwner", "/call4papers/owners/:ownerId/accept")
  .setPath(OwnerIdParam)
  .addSuccess(Ok(Owner))
  .addError(declared(Forbidden, "invitation_not_yours"))
  .addError(declared(NotFound, "owner_not_found"))
  .addError(declared(Conflict, "invitation_move"))
  .addError(ParametersRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    "The invited person only (403 otherwise): `pending -> accepted`. An answered invitation answers 409 (`param: status`, allowed moves)."
  )
  .annotate(OpenApi.Summary, "Accept a call owner invitation")

export const declineOwner = HttpApiEndpoint.post("declineOwner", "/call4papers/owners/:ownerId/decline")
  .setPath(OwnerIdParam)
  .addSuccess(Ok(Owner))
  .addError(declared(Forbidden, "invitation_not_yours"))
  .addError(declared(NotFound, "owner_not_found"))
  .addError(declared(Conflict, "invitation_move"))
  .addError(ParametersRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(OpenApi.Description, "The invited person only: `pending -> declined` (409 once answered).")
  .annotate(OpenApi.Summary, "Decline a call owner invitation")
