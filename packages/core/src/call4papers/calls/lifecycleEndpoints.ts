import { HttpApiEndpoint, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../../domain/AppError"
import { Ok } from "../../domain/Envelope"
import { declared } from "../../domain/Failure"
import { Body } from "../../domain/Fields"
import { BodyRefused, ParametersRefused, WriteRefused } from "../../http/requestFailures"
import { MemberScope, PublicScope } from "../../http/Security"
import { lifecycle, ORGANISER, SEE_CALL } from "./endpointKinds"
import { Call, CallChanges, CallDetail, CallIdParam, CallStatus, NewCall } from "./schemas"

/** A call's life: opening it, reading, editing, removing it, and its status moves. */
export const open = HttpApiEndpoint.post("open", "/call4papers")
  .setPayload(NewCall)
  .addSuccess(Ok(Call), { status: 201 })
  .addError(declared(InvalidInput, "call_dates_order", "not_a_call_space", "space_id_required", "space_not_found"))
  .addError(declared(Forbidden, "email_not_verified", "role_required", "space_content_forbidden"))
  .addError(declared(NotFound, "call_not_found"))
  .addError(declared(Conflict, "slug_taken"))
  .addError(BodyRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    "Opens a call in `draft` (design/states.md \"Call for papers\"). `spaceId` is required (400 `ID do espaço é obrigatório.`) and must name a call4papers space of this community (400). In a space of mode `organisers` only owner, admin or moderator may open calls (403); in mode `members` any member may. The creator becomes an accepted owner of the call. `slug` is generated from the title when absent; an explicit slug taken in the space answers 409. `opensAt` must be before `closesAt` (400, param `closesAt`). `communityVoting` turns on the open community vote; `anonymousReviews` hides reviewer names from proposers. The caller's e-mail must be confirmed (403 `Confirme seu e-mail antes…` otherwise; issue 52)."
  )
  .annotate(OpenApi.Summary, "Open a call for papers")

export const detail = HttpApiEndpoint.get("detail", "/call4papers/:id")
  .setPath(CallIdParam)
  .addSuccess(Ok(CallDetail))
  .addError(declared(Forbidden, "space_content_forbidden"))
  .addError(declared(NotFound, "call_not_found", "space_unknown"))
  .addError(ParametersRefused)
  .middleware(PublicScope)
  .annotate(
    OpenApi.Description,
    `Public when published (token optional). ${SEE_CALL} \`viewer\` tells what the caller is on the call (organiser, owner, the tracks they review).`
  )
  .annotate(OpenApi.Summary, "Get a call for papers")

export const update = HttpApiEndpoint.put("update", "/call4papers/:id")
  .setPath(CallIdParam)
  .setPayload(CallChanges)
  .addSuccess(Ok(Call))
  .addError(declared(InvalidInput, "call_dates_order"))
  .addError(declared(Forbidden, "organiser_required"))
  .addError(declared(NotFound, "call_not_found"))
  .addError(declared(Conflict, "slug_taken"))
  .addError(BodyRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    `${ORGANISER} Partial edit of title, slug (409 when taken in the space), description, opensAt/closesAt (in order, else 400), communityVoting, anonymousReviews. The status changes only through the lifecycle routes.`
  )
  .annotate(OpenApi.Summary, "Update a call for papers")

export const remove = HttpApiEndpoint.del("remove", "/call4papers/:id")
  .setPath(CallIdParam)
  .addSuccess(Ok(Schema.Null))
  .addError(declared(Forbidden, "organiser_required"))
  .addError(declared(NotFound, "call_not_found"))
  .addError(ParametersRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    `${ORGANISER} Soft delete from any state: the call and everything under it (tracks, dates, owners, reviewers, submissions) answer 404 from then on; its slug is free again.`
  )
  .annotate(OpenApi.Summary, "Delete a call for papers")

export const setStatus = HttpApiEndpoint.patch("setStatus", "/call4papers/:id/status")
  .setPath(CallIdParam)
  .setPayload(Body({ status: CallStatus }))
  .addSuccess(Ok(Call))
  .addError(declared(Forbidden, "organiser_required"))
  .addError(declared(NotFound, "call_not_found"))
  .addError(declared(Conflict, "call_status_move"))
  .addError(BodyRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    `${ORGANISER} Moves the call along its machine: \`draft -> published\`, \`published -> draft | closed\`, \`closed -> published\`. Any other move (the same status included) answers 409 with \`errors[0].param = "status"\` and the allowed statuses.`
  )
  .annotate(OpenApi.Summary, "Change a call's status")

export const publish = lifecycle(
  "publish",
  "publish",
  "`draft -> published`: the call is seen by everyone who may read its space and takes submissions (inside `opensAt`/`closesAt` when set)."
)
  .addError(declared(Forbidden, "organiser_required"))
  .addError(declared(NotFound, "call_not_found"))
  .addError(declared(Conflict, "call_move_refused"))
  .annotate(OpenApi.Summary, "Publish a call")

export const unpublish = lifecycle(
  "unpublish",
  "unpublish",
  "`published -> draft` (spec §3): hidden again from everyone but its organisers."
)
  .addError(declared(Forbidden, "organiser_required"))
  .addError(declared(NotFound, "call_not_found"))
  .addError(declared(Conflict, "call_move_refused"))
  .annotate(OpenApi.Summary, "Unpublish a call")

export const close = lifecycle("close", "close", "`published -> closed`: still visible, takes no more submissions.")
  .addError(declared(Forbidden, "organiser_required"))
  .addError(declared(NotFound, "call_not_found"))
  .addError(declared(Conflict, "call_move_refused"))
  .annotate(
    OpenApi.Summary,
    "Close a call"
  )

export const reopen = lifecycle("reopen", "reopen", "`closed -> published`: takes submissions again.")
  .addError(declared(Forbidden, "organiser_required"))
  .addError(declared(NotFound, "call_not_found"))
  .addError(declared(Conflict, "call_move_refused")).annotate(
    OpenApi.Summary,
    "Reopen a call"
  )
