import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../domain/AppError"
import { Ok, Page } from "../domain/Envelope"
import { declared } from "../domain/Failure"
import { Body, HttpUrl, Instant, Name, Slug, TimeZone, Trimmed } from "../domain/Fields"
import { isUuid, Uuid } from "../domain/Ids"
import { PageQuery } from "../domain/Pagination"
import { OneOf } from "../domain/Role"
import { BodyRefused, ParametersRefused, WriteRefused } from "../http/requestFailures"
import { MemberScope, PublicScope } from "../http/Security"
import { attendanceEndpoint, checkInEndpoint } from "./AttendanceApi"
import { eventTypes, participantStatuses, streamStatuses } from "./Policy"

/** An event id: a UUID, or 400 `Valid event ID is required` (format validations are in English). */
export const EventId = Schema.String.pipe(
  Schema.filter((value) => isUuid(value.trim()), { message: () => "Valid event ID is required" }),
  Schema.annotations({ identifier: "EventId", format: "uuid" })
)

const Part = (max: number) => Schema.NullOr(Trimmed(max).pipe(Schema.maxLength(max)))

const Address = Schema.Struct({
  street: Schema.optional(Part(200)),
  number: Schema.optional(Part(30)),
  complement: Schema.optional(Part(200)),
  neighbourhood: Schema.optional(Part(200)),
  city: Schema.optional(Part(200)),
  state: Schema.optional(Part(100)),
  postalCode: Schema.optional(Part(30)),
  country: Schema.optional(Part(100))
})

const EventType = OneOf(...eventTypes)
const Description = Schema.NullOr(Schema.String.pipe(Schema.maxLength(20_000)))
const Capacity = Schema.NullOr(
  Schema.Number.pipe(Schema.int(), Schema.between(1, 1_000_000)).annotations({
    message: () => ({ message: "must be an integer between 1 and 1000000", override: true })
  })
)
const CategoryId = Schema.NullOr(Schema.String.pipe(Schema.maxLength(50)))

const Counts = Schema.Struct({ going: Schema.Number, waitlisted: Schema.Number })

export const Event = Schema.Struct({
  id: Schema.String,
  communityId: Schema.String,
  spaceId: Schema.String,
  hostProfileId: Schema.String,
  title: Schema.String,
  slug: Schema.String,
  description: Schema.NullOr(Schema.String),
  type: EventType,
  startTime: Schema.String,
  endTime: Schema.String,
  timezone: Schema.NullOr(Schema.String),
  capacity: Schema.NullOr(Schema.Number),
  categoryId: Schema.NullOr(Schema.String),
  joinUrl: Schema.NullOr(Schema.String),
  address: Schema.NullOr(Schema.Struct({
    street: Schema.NullOr(Schema.String),
    number: Schema.NullOr(Schema.String),
    complement: Schema.NullOr(Schema.String),
    neighbourhood: Schema.NullOr(Schema.String),
    city: Schema.NullOr(Schema.String),
    state: Schema.NullOr(Schema.String),
    postalCode: Schema.NullOr(Schema.String),
    country: Schema.NullOr(Schema.String)
  })),
  streamStatus: OneOf(...streamStatuses),
  streamStartedAt: Schema.NullOr(Schema.String),
  streamEndedAt: Schema.NullOr(Schema.String),
  counts: Counts,
  seatsLeft: Schema.NullOr(Schema.Number),
  hidden: Schema.Boolean.annotations({
    description:
      "Hidden by a moderator: read only by its host and staff (listed to them only), out of the feed, search, reminders and reports' counts"
  }),
  createdAt: Schema.String,
  updatedAt: Schema.String
})

const Participation = Schema.Struct({
  status: OneOf(...participantStatuses),
  joinedAt: Schema.String,
  checkedInAt: Schema.NullOr(Schema.String)
})

const EventDetail = Schema.Struct({ ...Event.fields, participation: Schema.NullOr(Participation) })

const ParticipateResult = Schema.Struct({
  eventId: Schema.String,
  profileId: Schema.String,
  ...Participation.fields,
  counts: Counts,
  /** Profiles moved from the waitlist to going by this call (a freed seat). */
  promotedProfileIds: Schema.Array(Schema.String)
})

export const Participant = Schema.Struct({
  profileId: Schema.String,
  fullName: Schema.String,
  avatarUrl: Schema.NullOr(Schema.String),
  status: OneOf(...participantStatuses),
  joinedAt: Schema.String,
  checkedInAt: Schema.NullOr(Schema.String)
})

const ParticipantsPage = Schema.Struct({
  ...Page(Participant).fields,
  counts: Counts,
  /** What the caller was shown: `counts` only, going participants, or everyone. */
  visibility: OneOf("counts", "going", "all")
})

const eventFields = {
  title: Name(200),
  slug: Schema.optional(Slug),
  description: Schema.optional(Description),
  type: EventType,
  startTime: Instant,
  endTime: Instant,
  timezone: Schema.optional(Schema.NullOr(TimeZone)),
  capacity: Schema.optional(Capacity),
  categoryId: Schema.optional(CategoryId),
  joinUrl: Schema.optional(Schema.NullOr(HttpUrl)),
  address: Schema.optional(Schema.NullOr(Address))
}

export const NewEvent = Body({
  communityId: Schema.optional(Uuid),
  spaceId: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(100)))),
  ...eventFields
})

export const EventChanges = Body({
  ...eventFields,
  title: Schema.optional(eventFields.title),
  type: Schema.optional(eventFields.type),
  startTime: Schema.optional(eventFields.startTime),
  endTime: Schema.optional(eventFields.endTime)
})

export const EventQuery = Schema.Struct({
  ...PageQuery.fields,
  spaceId: Schema.optional(Uuid),
  upcoming: Schema.optional(OneOf("true", "false"))
})

export const ParticipantQuery = Schema.Struct({
  ...PageQuery.fields,
  status: Schema.optional(OneOf(...participantStatuses))
})

const EventIdParam = Schema.Struct({ id: EventId })
const Identifier = Schema.Struct({
  id: Schema.String.pipe(
    Schema.minLength(1),
    Schema.maxLength(200),
    Schema.annotations({ description: "The event's id or its slug." })
  )
})

const STAFF_OR_HOST = "Owner, admin, moderator or the event's host (403 otherwise)."
const ACCESS = "Reading the event is decided by its space's access rules (403 or 404)."

export class EventsApi extends HttpApiGroup.make("events")
  .annotateContext(OpenApi.annotations({
    title: "Events",
    description: "Events with participation, live-stream state and iCalendar export."
  }))
  .add(
    HttpApiEndpoint.get("categories", "/events/categories")
      .addSuccess(Ok(Schema.Array(Schema.Struct({ id: Schema.String, name: Schema.String }))))
      .middleware(PublicScope)
      .annotate(
        OpenApi.Description,
        "Public. The event categories: ids and names in the caller's language (Accept-Language; Portuguese by default). An event's `categoryId` is one of these ids."
      )
      .annotate(OpenApi.Summary, "List event categories")
  )
  .add(
    HttpApiEndpoint.get("list", "/events")
      .setUrlParams(EventQuery)
      .addSuccess(Page(Event))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(ParametersRefused)
      .middleware(PublicScope)
      .annotate(
        OpenApi.Description,
        `Public (token optional). Events of the spaces whose content the caller may read (staff: every space), by start time then id (keyset: \`limit\`, \`cursor\`); \`spaceId\` keeps one space, \`upcoming=true\` only events that have not ended. \`joinUrl\` is null in lists except for staff and the host: open the detail.`
      )
      .annotate(OpenApi.Summary, "List events")
  )
  .add(
    HttpApiEndpoint.post("create", "/events")
      .setPayload(NewEvent)
      .addSuccess(Ok(Event), { status: 201 })
      .addError(
        declared(
          InvalidInput,
          "event_address_part_required",
          "event_address_required",
          "event_category_unknown",
          "event_times_order",
          "not_an_events_space",
          "space_id_required",
          "space_not_found"
        )
      )
      .addError(declared(Forbidden, "role_required", "space_content_forbidden"))
      .addError(declared(NotFound, "event_not_found"))
      .addError(declared(Conflict, "slug_taken"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "Owner, admin or moderator; the acting profile (X-ProfileId when acting) becomes the host. `spaceId` is required (400 `ID do espaço é obrigatório.`) and must name a space of this community whose module is `events` (400). `startTime` must be before `endTime` (400, param `endTime`); ISO 8601 with an offset. `type: in_person` needs an `address` with `street`, `number` and `city` (400, param `address` or `address.<part>` for each missing part); `complement`, `neighbourhood`, `state`, `postalCode` and `country` are optional. `type: online` needs no address (one sent is kept); there is no hybrid type. Unknown keys, inside `address` too, answer 400. `joinUrl` (online link) is shown only to participants going, the host and staff. `capacity` (1 or more) is optional: none means unlimited. `categoryId` must be one of `GET /api/events/categories` (400). `slug` is generated from the title when absent (accents removed; `-2`, `-3`… when taken); an explicit slug already used in the community answers 409. Reminders are e-mailed to the participants going 24 h and 1 h before the start (durable jobs; a reminder whose moment has already passed is not scheduled)."
      )
      .annotate(OpenApi.Summary, "Create an event")
  )
  .add(
    HttpApiEndpoint.get("detail", "/events/:id")
      .setPath(Identifier)
      .addSuccess(Ok(EventDetail))
      .addError(declared(Forbidden, "space_content_forbidden"))
      .addError(declared(NotFound, "event_not_found", "space_unknown"))
      .addError(ParametersRefused)
      .middleware(PublicScope)
      .annotate(
        OpenApi.Description,
        `Public (token optional). By id or slug; a removed event is not found. ${ACCESS} Carries \`counts\` (going, waitlisted), \`seatsLeft\` (null without capacity) and, for a member, \`participation\` (the acting profile's status, or null). \`joinUrl\` only for participants going, the host and staff (null otherwise).`
      )
      .annotate(OpenApi.Summary, "Get an event by id or slug")
  )
  .add(
    HttpApiEndpoint.put("update", "/events/:id")
      .setPath(EventIdParam)
      .setPayload(EventChanges)
      .addSuccess(Ok(Event))
      .addError(
        declared(
          InvalidInput,
          "event_address_part_required",
          "event_address_required",
          "event_category_unknown",
          "event_times_order"
        )
      )
      .addError(declared(Forbidden, "event_host_or_staff"))
      .addError(declared(NotFound, "event_not_found"))
      .addError(declared(Conflict, "event_capacity_below_going", "slug_taken"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF_OR_HOST} Partial update; the result obeys the rules of creation (times, address, category, slug 409). Raising or removing \`capacity\` promotes waitlisted people in order; lowering it below the number going answers 409 (param \`capacity\`): seats already given are never taken back. A new time (\`startTime\`, \`endTime\`) or place (\`type\`, \`address\`, \`joinUrl\`) e-mails the participants going, with the updated \`.ics\`, in the same transaction; a new start moves the reminders. People promoted by a raised capacity get their ticket e-mail.`
      )
      .annotate(OpenApi.Summary, "Update an event")
  )
  .add(
    HttpApiEndpoint.del("remove", "/events/:id")
      .setPath(EventIdParam)
      .addSuccess(Ok(Schema.Null))
      .addError(declared(Forbidden, "event_host_or_staff"))
      .addError(declared(NotFound, "event_not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF_OR_HOST} Removes the event (soft delete: it leaves lists, the feed and search, its slug is free again; participation rows are kept). The participants going get a cancellation e-mail and no reminder.`
      )
      .annotate(OpenApi.Summary, "Delete an event")
  )
  .add(
    HttpApiEndpoint.post("participate", "/events/:id/participate")
      .setPath(EventIdParam)
      .addSuccess(Ok(ParticipateResult))
      .addError(declared(Forbidden, "member_suspended", "space_content_forbidden"))
      .addError(declared(NotFound, "event_not_found", "space_unknown"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `Toggles the caller's participation (the X-ProfileId profile when acting). Not taking part, or cancelled: becomes \`going\` when a seat is free (or there is no capacity), else \`waitlisted\` at the end of the line. Going or waitlisted: becomes \`cancelled\`; a seat freed by someone going promotes the oldest waitlisted person (\`promotedProfileIds\`). The event row is locked for the whole move, so going never exceeds capacity under concurrent calls. Whoever becomes \`going\` (the caller, or someone promoted) gets the ticket e-mail, written in the same transaction: the ticket's code (16 characters, random, unique in the event; kept when leaving and joining again) as text and as a QR code (inline PNG), and the event as an \`.ics\` attachment; staff check them in with it (\`POST /api/events/{id}/check-in\`). ${ACCESS}`
      )
      .annotate(OpenApi.Summary, "Toggle participation in an event")
  )
  .add(
    HttpApiEndpoint.get("participants", "/events/:id/participants")
      .setPath(EventIdParam)
      .setUrlParams(ParticipantQuery)
      .addSuccess(ParticipantsPage)
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(declared(Forbidden, "space_content_forbidden"))
      .addError(declared(NotFound, "event_not_found", "space_unknown"))
      .addError(ParametersRefused)
      .middleware(PublicScope)
      .annotate(
        OpenApi.Description,
        `Public (token optional). ${ACCESS} Always \`counts\` (going, waitlisted). What else depends on the caller (\`visibility\`): an anonymous visitor (or a non-member) gets counts only, never names (\`data\` empty, \`visibility: counts\`); a member sees the people going (\`visibility: going\`); staff and the host see everyone, waitlisted and cancelled included, and may filter by \`status\` (\`visibility: all\`). In line order (joined time, then arrival), keyset-paginated (\`limit\`, \`cursor\`).`
      )
      .annotate(OpenApi.Summary, "List an event's participants")
  )
  .add(checkInEndpoint(EventId))
  .add(attendanceEndpoint(EventId))
  .add(
    HttpApiEndpoint.post("startStream", "/events/:id/start-stream")
      .setPath(EventIdParam)
      .addSuccess(Ok(Event))
      .addError(declared(Forbidden, "event_host_or_staff"))
      .addError(declared(NotFound, "event_not_found"))
      .addError(declared(Conflict, "stream_status_move"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF_OR_HOST} Stream moves: \`idle -> live\` (start-stream, records \`streamStartedAt\`), \`live -> ended\` (stop-stream, records \`streamEndedAt\`); \`ended\` is final. Any other move (starting twice, starting an ended stream) answers 409 with \`errors[0].param = "status"\` and the allowed moves.`
      )
      .annotate(OpenApi.Summary, "Start an event's stream")
  )
  .add(
    HttpApiEndpoint.post("stopStream", "/events/:id/stop-stream")
      .setPath(EventIdParam)
      .addSuccess(Ok(Event))
      .addError(declared(Forbidden, "event_host_or_staff"))
      .addError(declared(NotFound, "event_not_found"))
      .addError(declared(Conflict, "stream_status_move"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF_OR_HOST} \`live -> ended\`, recording \`streamEndedAt\`. Stopping a stream that never started (or already ended) answers 409 with \`errors[0].param = "status"\` and the allowed moves.`
      )
      .annotate(OpenApi.Summary, "Stop an event's stream")
  )
  .add(
    HttpApiEndpoint.get("calendar", "/events/:id/calendar.ics")
      .setPath(Identifier)
      .addSuccess(HttpApiSchema.Text({ contentType: "text/calendar" }))
      .addError(declared(Forbidden, "space_content_forbidden"))
      .addError(declared(NotFound, "event_not_found", "space_unknown"))
      .addError(ParametersRefused)
      .middleware(PublicScope)
      .annotate(
        OpenApi.Description,
        `Public (token optional). By id or slug. ${ACCESS} The event as an iCalendar file (text/calendar) with one VEVENT: UID, DTSTAMP (the event's last change), DTSTART and DTEND in UTC, SUMMARY, DESCRIPTION, LOCATION (the address, or \`Online\`) and URL (the join link, only for whoever may see it in the detail).`
      )
      .annotate(OpenApi.Summary, "Download an event as iCalendar")
  )
  .prefix("/api")
{}
