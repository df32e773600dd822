import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { CreatedId, Ok, Page } from "../../domain/Envelope"
import { Body, HexColor, Instant, Name, Slug, Trimmed } from "../../domain/Fields"
import { isUuid, Uuid } from "../../domain/Ids"
import { PageQuery } from "../../domain/Pagination"
import { OneOf } from "../../domain/Role"
import { BadRequest, Conflict, Forbidden, NotFound, Unauthorized } from "../../http/ApiErrors"
import { MemberScope, PublicScope } from "../../http/Security"
import { callStatuses, invitationStatuses, spaceModes } from "./Policy"

const idOf = (what: string) =>
  Schema.String.pipe(
    Schema.filter((value) => isUuid(value.trim()), { message: () => `Valid ${what} ID is required` }),
    Schema.annotations({ format: "uuid" })
  )

/** A call id: a UUID, or 400 `Valid call ID is required` (format validations are in English). */
export const CallId = idOf("call").annotations({ identifier: "CallId" })
export const TrackId = idOf("track").annotations({ identifier: "TrackId" })

const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/
/** A calendar day, `YYYY-MM-DD`. */
export const IsoDate = Trimmed(10, "must be an ISO 8601 date (YYYY-MM-DD)").pipe(
  Schema.filter((value) => {
    const parts = isoDate.exec(value)
    if (parts === null) return "must be an ISO 8601 date (YYYY-MM-DD)"
    const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])]
    const date = new Date(Date.UTC(year, month - 1, day))
    return (year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 &&
      date.getUTCDate() === day) || "must be a real calendar date (YYYY-MM-DD)"
  }),
  Schema.annotations({ format: "date" })
)
/** A time of day, `HH:MM` (24 h). */
const TimeOfDay = Trimmed(5, "must be a time of day HH:MM (00:00 to 23:59)").pipe(
  Schema.filter((value) => /^([01]\d|2[0-3]):[0-5]\d$/.test(value) || "must be a time of day HH:MM (00:00 to 23:59)")
)

const Description = Schema.NullOr(Schema.String.pipe(Schema.maxLength(20_000)))
const Label = Schema.NullOr(Trimmed(200).pipe(Schema.maxLength(200)))
const CallStatus = OneOf(...callStatuses)
const InvitationStatus = OneOf(...invitationStatuses)
const SpaceMode = OneOf(...spaceModes)
const Position = Schema.Number.pipe(Schema.int(), Schema.between(1, 100_000)).annotations({
  message: () => ({ message: "must be an integer between 1 and 100000", override: true })
})

export const SpaceConfig = Schema.Struct({
  spaceId: Schema.String,
  mode: SpaceMode,
  /** Whether the caller may open a call in this space. */
  canOpenCall: Schema.Boolean,
  /** Whether the caller may change the configuration (staff). */
  canConfigure: Schema.Boolean,
  updatedAt: Schema.NullOr(Schema.String)
})

export const Call = Schema.Struct({
  id: Schema.String,
  communityId: Schema.String,
  spaceId: Schema.String,
  title: Schema.String,
  slug: Schema.String,
  description: Schema.NullOr(Schema.String),
  status: CallStatus,
  /** The lifecycle routes possible from the current status. */
  allowedMoves: Schema.Array(Schema.String),
  opensAt: Schema.NullOr(Schema.String),
  closesAt: Schema.NullOr(Schema.String),
  acceptingSubmissions: Schema.Boolean,
  communityVoting: Schema.Boolean,
  anonymousReviews: Schema.Boolean,
  createdByProfileId: Schema.String,
  publishedAt: Schema.NullOr(Schema.String),
  closedAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})

const CallDetail = Schema.Struct({
  ...Call.fields,
  /** What the caller is on this call. */
  viewer: Schema.Struct({
    organiser: Schema.Boolean,
    owner: Schema.Boolean,
    reviewerTrackIds: Schema.Array(Schema.String)
  })
})

export const Track = Schema.Struct({
  id: Schema.String,
  callId: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  color: Schema.NullOr(Schema.String),
  position: Schema.Number,
  createdAt: Schema.String,
  updatedAt: Schema.String
})

export const EventDate = Schema.Struct({
  id: Schema.String,
  callId: Schema.String,
  date: Schema.String,
  label: Schema.NullOr(Schema.String),
  startTime: Schema.NullOr(Schema.String),
  endTime: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})

export const Owner = Schema.Struct({
  id: Schema.String,
  callId: Schema.String,
  profileId: Schema.String,
  fullName: Schema.String,
  avatarUrl: Schema.NullOr(Schema.String),
  status: InvitationStatus,
  invitedByProfileId: Schema.NullOr(Schema.String),
  invitedAt: Schema.String,
  respondedAt: Schema.NullOr(Schema.String)
})

export const Reviewer = Schema.Struct({ ...Owner.fields, trackId: Schema.String })

export const Invitation = Schema.Struct({
  kind: OneOf("owner", "reviewer"),
  id: Schema.String,
  callId: Schema.String,
  callTitle: Schema.String,
  callSlug: Schema.String,
  spaceId: Schema.String,
  trackId: Schema.NullOr(Schema.String),
  trackName: Schema.NullOr(Schema.String),
  invitedByProfileId: Schema.NullOr(Schema.String),
  invitedAt: Schema.String
})

const callFields = {
  title: Name(200),
  slug: Schema.optional(Slug),
  description: Schema.optional(Description),
  opensAt: Schema.optional(Schema.NullOr(Instant)),
  closesAt: Schema.optional(Schema.NullOr(Instant)),
  communityVoting: Schema.optional(Schema.Boolean),
  anonymousReviews: Schema.optional(Schema.Boolean)
}

export const NewCall = Body({
  communityId: Schema.optional(Uuid),
  spaceId: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(100)))),
  ...callFields
})
export const CallChanges = Body({ ...callFields, title: Schema.optional(callFields.title) })

const trackFields = {
  name: Name(120),
  description: Schema.optional(Description),
  color: Schema.optional(Schema.NullOr(HexColor)),
  position: Schema.optional(Position)
}
export const NewTrack = Body(trackFields)
export const TrackChanges = Body({ ...trackFields, name: Schema.optional(trackFields.name) })

const dateFields = {
  date: IsoDate,
  label: Schema.optional(Label),
  startTime: Schema.optional(Schema.NullOr(TimeOfDay)),
  endTime: Schema.optional(Schema.NullOr(TimeOfDay))
}
export const NewEventDate = Body(dateFields)
export const EventDateChanges = Body({ ...dateFields, date: Schema.optional(dateFields.date) })

export const Invitee = Body({ profileId: Uuid })

export const CallQuery = Schema.Struct({ ...PageQuery.fields, status: Schema.optional(CallStatus) })

const CallIdParam = Schema.Struct({ id: CallId })
const SpaceIdParam = Schema.Struct({ spaceId: Uuid })
const SlugParam = Schema.Struct({ spaceId: Uuid, slug: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)) })
const TrackIdParam = Schema.Struct({ trackId: TrackId })
const DateIdParam = Schema.Struct({ dateId: Uuid })
const OwnerIdParam = Schema.Struct({ ownerId: Uuid })
const ReviewerIdParam = Schema.Struct({ reviewerId: Uuid })

const ORGANISER =
  "Organisers only: owner, admin or moderator of the community, or an accepted owner of the call (403 otherwise)."
const SEE_CALL =
  "A call is read through its space's access rules (403 or 404); a draft is seen only by its organisers (404 for anyone else), a soft-deleted call by nobody (404)."

const lifecycle = <const Name extends string>(name: Name, path: string, move: string) =>
  HttpApiEndpoint.post(name, `/call4papers/:id/${path}`)
    .setPath(CallIdParam)
    .addSuccess(Ok(Call))
    .addError(BadRequest)
    .addError(Forbidden)
    .addError(NotFound)
    .addError(Conflict)
    .middleware(MemberScope)
    .annotate(
      OpenApi.Description,
      `${ORGANISER} ${move} From any other state: 409 with \`errors[0].param = "status"\` and the allowed moves.`
    )

export class CallsApi extends HttpApiGroup.make("call4papersCalls")
  .annotateContext(OpenApi.annotations({
    title: "Calls for papers",
    description: "Calls for papers: space configuration, lifecycle, tracks, reviewers, event dates and owners."
  }))
  .add(
    HttpApiEndpoint.get("spaceConfig", "/call4papers/spaces/:spaceId")
      .setPath(SpaceIdParam)
      .addSuccess(Ok(SpaceConfig))
      .addError(BadRequest)
      .addError(NotFound)
      .middleware(PublicScope)
      .annotate(
        OpenApi.Description,
        "Public (token optional). The configuration of a call4papers space: `mode` (`organisers`: only owner, admin or moderator open calls; `members`: any member may open one and becomes its owner; default `organisers`), and what the caller may do (`canOpenCall`, `canConfigure`). A space hidden from the caller, of another community, or of another module answers 404."
      )
      .annotate(OpenApi.Summary, "Get a call-for-papers space's configuration")
  )
  .add(
    HttpApiEndpoint.put("configureSpace", "/call4papers/spaces/:spaceId")
      .setPath(SpaceIdParam)
      .setPayload(Body({ mode: SpaceMode }))
      .addSuccess(Ok(SpaceConfig))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, "Owner, admin or moderator. Sets the space mode (`organisers` or `members`).")
      .annotate(OpenApi.Summary, "Configure a call-for-papers space")
  )
  .add(
    HttpApiEndpoint.get("spaceCalls", "/call4papers/spaces/:spaceId/calls")
      .setPath(SpaceIdParam)
      .setUrlParams(CallQuery)
      .addSuccess(Page(Call))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(PublicScope)
      .annotate(
        OpenApi.Description,
        "Public (token optional). The calls of a space, newest first (keyset: `limit`, `cursor`; `status` filters). Anonymous callers and members see published and closed calls; drafts only staff and the call's owners. The space's access rules apply (403 or 404)."
      )
      .annotate(OpenApi.Summary, "List a space's calls")
  )
  .add(
    HttpApiEndpoint.get("callBySlug", "/call4papers/spaces/:spaceId/calls/:slug")
      .setPath(SlugParam)
      .addSuccess(Ok(CallDetail))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(PublicScope)
      .annotate(OpenApi.Description, `Public (token optional). A call by its slug in the space. ${SEE_CALL}`)
      .annotate(OpenApi.Summary, "Get a call by slug")
  )
  .add(
    HttpApiEndpoint.get("myInvitations", "/call4papers/me/invitations")
      .setUrlParams(PageQuery)
      .addSuccess(Page(Invitation))
      .addError(BadRequest)
      .addError(Forbidden)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "The caller's pending invitations in this community, both kinds (`kind`: `owner` of a call, `reviewer` of a track), oldest first (keyset). Answer them with `POST /owners/{ownerId}/accept|decline` or `POST /track-reviewers/{reviewerId}/accept|decline`."
      )
      .annotate(OpenApi.Summary, "List the caller's call invitations")
  )
  .add(
    HttpApiEndpoint.post("open", "/call4papers")
      .setPayload(NewCall)
      .addSuccess(Ok(Call), { status: 201 })
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "Opens a call in `draft` (design/states.md \"Call for papers\"). `spaceId` is required (400 `ID do espaço é obrigatório.`) and must name a call4papers space of this community (400). In a space of mode `organisers` only owner, admin or moderator may open calls (403); in mode `members` any member may. The creator becomes an accepted owner of the call. `slug` is generated from the title when absent; an explicit slug taken in the space answers 409. `opensAt` must be before `closesAt` (400, param `closesAt`). `communityVoting` turns on the open community vote; `anonymousReviews` hides reviewer names from proposers. The caller's e-mail must be confirmed (403 `Confirme seu e-mail antes…` otherwise; issue 52)."
      )
      .annotate(OpenApi.Summary, "Open a call for papers")
  )
  .add(
    HttpApiEndpoint.get("detail", "/call4papers/:id")
      .setPath(CallIdParam)
      .addSuccess(Ok(CallDetail))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(PublicScope)
      .annotate(
        OpenApi.Description,
        `Public when published (token optional). ${SEE_CALL} \`viewer\` tells what the caller is on the call (organiser, owner, the tracks they review).`
      )
      .annotate(OpenApi.Summary, "Get a call for papers")
  )
  .add(
    HttpApiEndpoint.put("update", "/call4papers/:id")
      .setPath(CallIdParam)
      .setPayload(CallChanges)
      .addSuccess(Ok(Call))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${ORGANISER} Partial edit of title, slug (409 when taken in the space), description, opensAt/closesAt (in order, else 400), communityVoting, anonymousReviews. The status changes only through the lifecycle routes.`
      )
      .annotate(OpenApi.Summary, "Update a call for papers")
  )
  .add(
    HttpApiEndpoint.del("remove", "/call4papers/:id")
      .setPath(CallIdParam)
      .addSuccess(Ok(Schema.Null))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${ORGANISER} Soft delete from any state: the call and everything under it (tracks, dates, owners, reviewers, submissions) answer 404 from then on; its slug is free again.`
      )
      .annotate(OpenApi.Summary, "Delete a call for papers")
  )
  .add(
    HttpApiEndpoint.patch("setStatus", "/call4papers/:id/status")
      .setPath(CallIdParam)
      .setPayload(Body({ status: CallStatus }))
      .addSuccess(Ok(Call))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${ORGANISER} Moves the call along its machine: \`draft -> published\`, \`published -> draft | closed\`, \`closed -> published\`. Any other move (the same status included) answers 409 with \`errors[0].param = "status"\` and the allowed statuses.`
      )
      .annotate(OpenApi.Summary, "Change a call's status")
  )
  .add(
    lifecycle(
      "publish",
      "publish",
      "`draft -> published`: the call is seen by everyone who may read its space and takes submissions (inside `opensAt`/`closesAt` when set)."
    )
      .annotate(OpenApi.Summary, "Publish a call")
  )
  .add(
    lifecycle(
      "unpublish",
      "unpublish",
      "`published -> draft` (spec §3): hidden again from everyone but its organisers."
    )
      .annotate(OpenApi.Summary, "Unpublish a call")
  )
  .add(
    lifecycle("close", "close", "`published -> closed`: still visible, takes no more submissions.").annotate(
      OpenApi.Summary,
      "Close a call"
    )
  )
  .add(
    lifecycle("reopen", "reopen", "`closed -> published`: takes submissions again.").annotate(
      OpenApi.Summary,
      "Reopen a call"
    )
  )
  .add(
    HttpApiEndpoint.get("tracks", "/call4papers/:id/tracks")
      .setPath(CallIdParam)
      .setUrlParams(PageQuery)
      .addSuccess(Page(Track))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(PublicScope)
      .annotate(OpenApi.Description, `Public (token optional). The call's tracks by position. ${SEE_CALL}`)
      .annotate(OpenApi.Summary, "List a call's tracks")
  )
  .add(
    HttpApiEndpoint.post("createTrack", "/call4papers/:id/tracks")
      .setPath(CallIdParam)
      .setPayload(NewTrack)
      .addSuccess(Ok(Track), { status: 201 })
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${ORGANISER} \`name\` is required and unique in the call, case-insensitively (409, param \`name\`); \`position\` defaults to the end.`
      )
      .annotate(OpenApi.Summary, "Create a track")
  )
  .add(
    HttpApiEndpoint.put("updateTrack", "/call4papers/tracks/:trackId")
      .setPath(TrackIdParam)
      .setPayload(TrackChanges)
      .addSuccess(Ok(Track))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${ORGANISER} Partial edit: name (unique in the call), description, color, position.`
      )
      .annotate(OpenApi.Summary, "Update a track")
  )
  .add(
    HttpApiEndpoint.del("removeTrack", "/call4papers/tracks/:trackId")
      .setPath(TrackIdParam)
      .addSuccess(Ok(Schema.Null))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${ORGANISER} Removes the track (soft delete: submissions keep it; its reviewers lose their role on it; new submissions cannot choose it).`
      )
      .annotate(OpenApi.Summary, "Delete a track")
  )
  .add(
    HttpApiEndpoint.get("reviewers", "/call4papers/tracks/:trackId/reviewers")
      .setPath(TrackIdParam)
      .setUrlParams(PageQuery)
      .addSuccess(Page(Reviewer))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${ORGANISER} The track's reviewers and their invitations (every status), oldest first.`
      )
      .annotate(OpenApi.Summary, "List a track's reviewers")
  )
  .add(
    HttpApiEndpoint.post("inviteReviewer", "/call4papers/tracks/:trackId/reviewers")
      .setPath(TrackIdParam)
      .setPayload(Invitee)
      .addSuccess(Ok(CreatedId), { status: 201 })
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${ORGANISER} Invites an active member (\`profileId\`, 400 when not a member of this community) to review the track; answers \`data.id\`, the reviewer id the accept, decline and remove routes take, and e-mails the person. The invitation is \`pending\` until answered; already pending or accepted: 409; a declined one is invited again (same id).`
      )
      .annotate(OpenApi.Summary, "Invite a track reviewer")
  )
  .add(
    HttpApiEndpoint.del("removeReviewer", "/call4papers/track-reviewers/:reviewerId")
      .setPath(ReviewerIdParam)
      .addSuccess(Ok(Schema.Null))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, `${ORGANISER} The reviewer may also remove themself (step down).`)
      .annotate(OpenApi.Summary, "Remove a track reviewer")
  )
  .add(
    HttpApiEndpoint.post("acceptReviewer", "/call4papers/track-reviewers/:reviewerId/accept")
      .setPath(ReviewerIdParam)
      .addSuccess(Ok(Reviewer))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "The invited person only (403 otherwise): `pending -> accepted`. An answered invitation answers 409 (`param: status`, allowed moves)."
      )
      .annotate(OpenApi.Summary, "Accept a reviewer invitation")
  )
  .add(
    HttpApiEndpoint.post("declineReviewer", "/call4papers/track-reviewers/:reviewerId/decline")
      .setPath(ReviewerIdParam)
      .addSuccess(Ok(Reviewer))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, "The invited person only: `pending -> declined` (409 once answered).")
      .annotate(OpenApi.Summary, "Decline a reviewer invitation")
  )
  .add(
    HttpApiEndpoint.get("eventDates", "/call4papers/:id/event-dates")
      .setPath(CallIdParam)
      .setUrlParams(PageQuery)
      .addSuccess(Page(EventDate))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(PublicScope)
      .annotate(OpenApi.Description, `Public (token optional). The event's days in date order. ${SEE_CALL}`)
      .annotate(OpenApi.Summary, "List a call's event dates")
  )
  .add(
    HttpApiEndpoint.post("addEventDate", "/call4papers/:id/event-dates")
      .setPath(CallIdParam)
      .setPayload(NewEventDate)
      .addSuccess(Ok(EventDate), { status: 201 })
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${ORGANISER} \`date\` (YYYY-MM-DD), \`label\`, optional \`startTime\`/\`endTime\` (HH:MM; start before end, else 400 param \`endTime\`). A day already listed answers 409 (param \`date\`).`
      )
      .annotate(OpenApi.Summary, "Add an event date")
  )
  .add(
    HttpApiEndpoint.put("updateEventDate", "/call4papers/event-dates/:dateId")
      .setPath(DateIdParam)
      .setPayload(EventDateChanges)
      .addSuccess(Ok(EventDate))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${ORGANISER} Partial edit of \`date\`, \`label\`, \`startTime\`, \`endTime\` (same rules).`
      )
      .annotate(OpenApi.Summary, "Update an event date")
  )
  .add(
    HttpApiEndpoint.del("removeEventDate", "/call4papers/event-dates/:dateId")
      .setPath(DateIdParam)
      .addSuccess(Ok(Schema.Null))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, ORGANISER)
      .annotate(OpenApi.Summary, "Delete an event date")
  )
  .add(
    HttpApiEndpoint.get("owners", "/call4papers/:id/owners")
      .setPath(CallIdParam)
      .setUrlParams(PageQuery)
      .addSuccess(Page(Owner))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${ORGANISER} The call's owners and their invitations (every status), oldest first.`
      )
      .annotate(OpenApi.Summary, "List a call's owners")
  )
  .add(
    HttpApiEndpoint.post("inviteOwner", "/call4papers/:id/owners")
      .setPath(CallIdParam)
      .setPayload(Invitee)
      .addSuccess(Ok(CreatedId), { status: 201 })
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${ORGANISER} Invites an active member (\`profileId\`, 400 when not a member of this community) to own the call; answers \`data.id\`, the owner id the accept, decline and remove routes take, and e-mails the person. An accepted owner has organiser rights on this call only. Already pending or accepted: 409; a declined one is invited again (same id).`
      )
      .annotate(OpenApi.Summary, "Invite a call owner")
  )
  .add(
    HttpApiEndpoint.del("removeOwner", "/call4papers/owners/:ownerId")
      .setPath(OwnerIdParam)
      .addSuccess(Ok(Schema.Null))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, `${ORGANISER} An owner may also remove themself (step down).`)
      .annotate(OpenApi.Summary, "Remove a call owner")
  )
  .add(
    HttpApiEndpoint.post("acceptOwner", "/call4papers/owners/:ownerId/accept")
      .setPath(OwnerIdParam)
      .addSuccess(Ok(Owner))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "The invited person only (403 otherwise): `pending -> accepted`. An answered invitation answers 409 (`param: status`, allowed moves)."
      )
      .annotate(OpenApi.Summary, "Accept a call owner invitation")
  )
  .add(
    HttpApiEndpoint.post("declineOwner", "/call4papers/owners/:ownerId/decline")
      .setPath(OwnerIdParam)
      .addSuccess(Ok(Owner))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, "The invited person only: `pending -> declined` (409 once answered).")
      .annotate(OpenApi.Summary, "Decline a call owner invitation")
  )
  .addError(Unauthorized)
  .prefix("/api")
{}
