import { HttpApiEndpoint, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../../domain/AppError"
import { Ok, Page } from "../../domain/Envelope"
import { declared } from "../../domain/Failure"
import { PageQuery } from "../../domain/Pagination"
import { BodyRefused, ParametersRefused, WriteRefused } from "../../http/requestFailures"
import { MemberScope, PublicScope } from "../../http/Security"
import { ORGANISER, SEE_CALL } from "./endpointKinds"
import {
  CallIdParam,
  DateIdParam,
  EventDate,
  EventDateChanges,
  NewEventDate,
  NewTrack,
  Track,
  TrackChanges,
  TrackIdParam
} from "./schemas"

/** A call's tracks and event dates. */
export const tracks = HttpApiEndpoint.get("tracks", "/call4papers/:id/tracks")
  .setPath(CallIdParam)
  .setUrlParams(PageQuery)
  .addSuccess(Page(Track))
  .addError(declared(InvalidInput, "invalid_input"))
  .addError(declared(Forbidden, "space_content_forbidden"))
  .addError(declared(NotFound, "call_not_found", "space_unknown"))
  .addError(ParametersRefused)
  .middleware(PublicScope)
  .annotate(OpenApi.Description, `Public (token optional). The call's tracks by position. ${SEE_CALL}`)
  .annotate(OpenApi.Summary, "List a call's tracks")

export const createTrack = HttpApiEndpoint.post("createTrack", "/call4papers/:id/tracks")
  .setPath(CallIdParam)
  .setPayload(NewTrack)
  .addSuccess(Ok(Track), { status: 201 })
  .addError(declared(Forbidden, "organiser_required"))
  .addError(declared(NotFound, "call_not_found"))
  .addError(declared(Conflict, "track_name_taken"))
  .addError(BodyRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    `${ORGANISER} \`name\` is required and unique in the call, case-insensitively (409, param \`name\`); \`position\` defaults to the end.`
  )
  .annotate(OpenApi.Summary, "Create a track")

export const updateTrack = HttpApiEndpoint.put("updateTrack", "/call4papers/tracks/:trackId")
  .setPath(TrackIdParam)
  .setPayload(TrackChanges)
  .addSuccess(Ok(Track))
  .addError(declared(Forbidden, "organiser_required"))
  .addError(declared(NotFound, "call_not_found", "track_not_found"))
  .addError(declared(Conflict, "track_name_taken"))
  .addError(BodyRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    `${ORGANISER} Partial edit: name (unique in the call), description, color, position.`
  )
  .annotate(OpenApi.Summary, "Update a track")

export const removeTrack = HttpApiEndpoint.del("removeTrack", "/call4papers/tracks/:trackId")
  .setPath(TrackIdParam)
  .addSuccess(Ok(Schema.Null))
  .addError(declared(Forbidden, "organiser_required"))
  .addError(declared(NotFound, "call_not_found", "track_not_found"))
  .addError(ParametersRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    `${ORGANISER} Removes the track (soft delete: submissions keep it; its reviewers lose their role on it; new submissions cannot choose it).`
  )
  .annotate(OpenApi.Summary, "Delete a track")

export const eventDates = HttpApiEndpoint.get("eventDates", "/call4papers/:id/event-dates")
  .setPath(CallIdParam)
  .setUrlParams(PageQuery)
  .addSuccess(Page(EventDate))
  .addError(declared(InvalidInput, "invalid_input"))
  .addError(declared(Forbidden, "space_content_forbidden"))
  .addError(declared(NotFound, "call_not_found", "space_unknown"))
  .addError(ParametersRefused)
  .middleware(PublicScope)
  .annotate(OpenApi.Description, `Public (token optional). The event's days in date order. ${SEE_CALL}`)
  .annotate(OpenApi.Summary, "List a call's event dates")

export const addEventDate = HttpApiEndpoint.post("addEventDate", "/call4papers/:id/event-dates")
  .setPath(CallIdParam)
  .setPayload(NewEventDate)
  .addSuccess(Ok(EventDate), { status: 201 })
  .addError(declared(InvalidInput, "event_times_order"))
  .addError(declared(Forbidden, "organiser_required"))
  .addError(declared(NotFound, "call_not_found", "event_date_not_found"))
  .addError(declared(Conflict, "event_date_taken"))
  .addError(BodyRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    `${ORGANISER} \`date\` (YYYY-MM-DD), \`label\`, optional \`startTime\`/\`endTime\` (HH:MM; start before end, else 400 param \`endTime\`). A day already listed answers 409 (param \`date\`).`
  )
  .annotate(OpenApi.Summary, "Add an event date")

export const updateEventDate = HttpApiEndpoint.put("updateEventDate", "/call4papers/event-dates/:dateId")
  .setPath(DateIdParam)
  .setPayload(EventDateChanges)
  .addSuccess(Ok(EventDate))
  .addError(declared(InvalidInput, "event_times_order"))
  .addError(declared(Forbidden, "organiser_required"))
  .addError(declared(NotFound, "call_not_found", "event_date_not_found"))
  .addError(declared(Conflict, "event_date_taken"))
  .addError(BodyRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    `${ORGANISER} Partial edit of \`date\`, \`label\`, \`startTime\`, \`endTime\` (same rules).`
  )
  .annotate(OpenApi.Summary, "Update an event date")

export const removeEventDate = HttpApiEndpoint.del("removeEventDate", "/call4papers/event-dates/:dateId")
  .setPath(DateIdParam)
  .addSuccess(Ok(Schema.Null))
  .addError(declared(Forbidden, "organiser_required"))
  .addError(declared(NotFound, "call_not_found", "event_date_not_found"))
  .addError(ParametersRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(OpenApi.Description, ORGANISER)
  .annotate(OpenApi.Summary, "Delete an event date")
