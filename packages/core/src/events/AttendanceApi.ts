import { HttpApiEndpoint, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../domain/AppError"
import { Ok, Page } from "../domain/Envelope"
import { declared } from "../domain/Failure"
import { Body, Trimmed } from "../domain/Fields"
import { Uuid } from "../domain/Ids"
import { PageQuery } from "../domain/Pagination"
import { OneOf } from "../domain/Role"
import { BodyRefused, ParametersRefused, WriteRefused } from "../http/requestFailures"
import { MemberScope } from "../http/Security"
import { participantStatuses } from "./Policy"

/** The check-in and attendance endpoints of the events group (added in `Api.ts`). */

const EventIdParam = (EventId: Schema.Schema<string>) => Schema.Struct({ id: EventId })

export const CheckInBody = Body({
  profileId: Schema.optional(Uuid),
  code: Schema.optional(Trimmed(40))
})

const CheckedIn = Schema.Struct({
  eventId: Schema.String,
  profileId: Schema.String,
  fullName: Schema.String,
  avatarUrl: Schema.NullOr(Schema.String),
  status: OneOf(...participantStatuses),
  checkedInAt: Schema.String,
  /** True when the participant had been checked in before (nothing was written). */
  alreadyCheckedIn: Schema.Boolean
})

const Attendee = Schema.Struct({
  profileId: Schema.String,
  fullName: Schema.String,
  avatarUrl: Schema.NullOr(Schema.String),
  checkedInAt: Schema.String
})

const AttendancePage = Schema.Struct({
  ...Page(Attendee).fields,
  counts: Schema.Struct({ going: Schema.Number, checkedIn: Schema.Number })
})

const MANAGERS =
  "Owner, admin, moderator or the event's host (403 otherwise); another community's event is not found (404)."

export const checkInEndpoint = (EventId: Schema.Schema<string>) =>
  HttpApiEndpoint.post("checkIn", "/events/:id/check-in")
    .setPath(EventIdParam(EventId))
    .setPayload(CheckInBody)
    .addSuccess(Ok(CheckedIn))
    .addError(declared(InvalidInput, "check_in_target"))
    .addError(declared(Forbidden, "event_host_or_staff"))
    .addError(declared(NotFound, "event_not_found", "participant_not_found", "ticket_not_found"))
    .addError(declared(Conflict, "check_in_not_going"))
    .addError(BodyRefused)
    .addError(WriteRefused)
    .middleware(MemberScope)
    .annotate(
      OpenApi.Description,
      `${MANAGERS} Records a participant's arrival. The body names them by \`profileId\` or by \`code\`, the code of their ticket (in the e-mail sent when they became \`going\`, as text and QR code; case, spaces, dashes and the look-alikes I/L/O are forgiven): exactly one of the two, else 400 naming both params. Someone who does not take part in the event (or a code of no ticket of it) answers 404 with \`errors[0].param\` \`profileId\` or \`code\`; a participant waitlisted or cancelled answers 409 (param \`status\`). Idempotent: checking in someone already checked in answers 200 again with the first \`checkedInAt\` and \`alreadyCheckedIn: true\`, and writes nothing (of concurrent calls exactly one writes). The first check-in issues the certificates of the space's active templates when its certificate rule is \`event_attendance\` (a durable job, so they follow within seconds; one per template and person).`
    )
    .annotate(OpenApi.Summary, "Check a participant in")

export const attendanceEndpoint = (EventId: Schema.Schema<string>) =>
  HttpApiEndpoint.get("attendance", "/events/:id/attendance")
    .setPath(EventIdParam(EventId))
    .setUrlParams(PageQuery)
    .addSuccess(AttendancePage)
    .addError(declared(InvalidInput, "invalid_input"))
    .addError(declared(Forbidden, "event_host_or_staff"))
    .addError(declared(NotFound, "event_not_found"))
    .addError(ParametersRefused)
    .middleware(MemberScope)
    .annotate(
      OpenApi.Description,
      `${MANAGERS} The people checked in, by arrival time (keyset: \`limit\`, \`cursor\`), each with \`checkedInAt\`, and \`counts\`: \`going\` (participants going now) and \`checkedIn\` (everyone checked in, a participant who left afterwards included).`
    )
    .annotate(OpenApi.Summary, "List an event's attendance")
