import { Schema } from "effect"
import { Body, HexColor, Instant, Name, Slug, Trimmed } from "../../domain/Fields"
import { isUuid, Uuid } from "../../domain/Ids"
import { PageQuery } from "../../domain/Pagination"
import { OneOf } from "../../domain/Role"
import { callStatuses, invitationStatuses, spaceModes } from "./Policy"

/** The shapes of the calls endpoints: ids, answers, bodies, queries and path parameters. */
export const idOf = (what: string) =>
  Schema.String.pipe(
    Schema.filter((value) => isUuid(value.trim()), { message: () => `Valid ${what} ID is required` }),
    Schema.annotations({ format: "uuid" })
  )

/** A call id: a UUID, or 400 `Valid call ID is required` (format validations are in English). */
export const CallId = idOf("call").annotations({ identifier: "CallId" })
export const TrackId = idOf("track").annotations({ identifier: "TrackId" })

export const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/
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
export const TimeOfDay = Trimmed(5, "must be a time of day HH:MM (00:00 to 23:59)").pipe(
  Schema.filter((value) => /^([01]\d|2[0-3]):[0-5]\d$/.test(value) || "must be a time of day HH:MM (00:00 to 23:59)")
)

export const Description = Schema.NullOr(Schema.String.pipe(Schema.maxLength(20_000)))
export const Label = Schema.NullOr(Trimmed(200).pipe(Schema.maxLength(200)))
export const CallStatus = OneOf(...callStatuses)
export const InvitationStatus = OneOf(...invitationStatuses)
export const SpaceMode = OneOf(...spaceModes)
export const Position = Schema.Number.pipe(Schema.int(), Schema.between(1, 100_000)).annotations({
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

export const CallDetail = Schema.Struct({
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

export const callFields = {
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

export const trackFields = {
  name: Name(120),
  description: Schema.optional(Description),
  color: Schema.optional(Schema.NullOr(HexColor)),
  position: Schema.optional(Position)
}
export const NewTrack = Body(trackFields)
export const TrackChanges = Body({ ...trackFields, name: Schema.optional(trackFields.name) })

export const dateFields = {
  date: IsoDate,
  label: Schema.optional(Label),
  startTime: Schema.optional(Schema.NullOr(TimeOfDay)),
  endTime: Schema.optional(Schema.NullOr(TimeOfDay))
}
export const NewEventDate = Body(dateFields)
export const EventDateChanges = Body({ ...dateFields, date: Schema.optional(dateFields.date) })

export const Invitee = Body({ profileId: Uuid })

export const CallQuery = Schema.Struct({ ...PageQuery.fields, status: Schema.optional(CallStatus) })

export const CallIdParam = Schema.Struct({ id: CallId })
export const SpaceIdParam = Schema.Struct({ spaceId: Uuid })
export const SlugParam = Schema.Struct({
  spaceId: Uuid,
  slug: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))
})
export const TrackIdParam = Schema.Struct({ trackId: TrackId })
export const DateIdParam = Schema.Struct({ dateId: Uuid })
export const OwnerIdParam = Schema.Struct({ ownerId: Uuid })
export const ReviewerIdParam = Schema.Struct({ reviewerId: Uuid })
