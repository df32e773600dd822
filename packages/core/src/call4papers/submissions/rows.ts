import { Option, Schema } from "effect"
import { CommunityId, ProfileId } from "../../domain/Ids"
import { coSpeakerStatuses, offerSides, offerStatuses, type SubmissionStatus, submissionStatuses } from "./Policy"

/** A submission as read: its columns, with the call, the proposer's and the track's names. */
export const SubmissionRow = Schema.Struct({
  id: Schema.String,
  communityId: CommunityId,
  callId: Schema.String,
  callTitle: Schema.String,
  callSlug: Schema.String,
  callStatus: Schema.String,
  callCommunityVoting: Schema.Boolean,
  callAnonymousReviews: Schema.Boolean,
  trackId: Schema.NullOr(Schema.String),
  trackName: Schema.NullOr(Schema.String),
  proposerProfileId: ProfileId,
  proposerName: Schema.String,
  title: Schema.String,
  abstract: Schema.String,
  status: Schema.Literal(...submissionStatuses),
  version: Schema.Number,
  agreedOfferId: Schema.NullOr(Schema.String),
  decisionNote: Schema.NullOr(Schema.String),
  submittedAt: Schema.NullOr(Schema.DateFromSelf),
  decidedAt: Schema.NullOr(Schema.DateFromSelf),
  confirmedAt: Schema.NullOr(Schema.DateFromSelf),
  withdrawnAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type SubmissionRow = typeof SubmissionRow.Type

export const SpeakerRow = Schema.Struct({
  submissionId: Schema.String,
  profileId: ProfileId,
  fullName: Schema.String,
  avatarUrl: Schema.NullOr(Schema.String),
  role: Schema.Literal("proposer", "co_speaker"),
  position: Schema.Number,
  /** Only `accepted` rows are speakers; a named co-speaker is `invited` until they answer. */
  status: Schema.Literal(...coSpeakerStatuses)
})
export type SpeakerRow = typeof SpeakerRow.Type

export const VersionRow = Schema.Struct({
  version: Schema.Number,
  title: Schema.String,
  abstract: Schema.String,
  trackId: Schema.NullOr(Schema.String),
  coSpeakerProfileIds: Schema.Array(Schema.String),
  authorProfileId: ProfileId,
  createdAt: Schema.DateFromSelf
})
export type VersionRow = typeof VersionRow.Type

/**
 * A submission after a move, with its speakers and versions, from the move's UPDATE (`setStatusReturning`):
 * the speakers and versions as JSON, their times in epoch milliseconds.
 */
export const MovedRow = Schema.Struct({
  ...SubmissionRow.fields,
  speakers: Schema.Array(SpeakerRow),
  versions: Schema.Array(Schema.Struct({ ...VersionRow.fields, createdAt: Schema.DateFromNumber }))
})
export type MovedRow = typeof MovedRow.Type

export const OfferRow = Schema.Struct({
  id: Schema.String,
  submissionId: Schema.String,
  version: Schema.Number,
  side: Schema.Literal(...offerSides),
  authorProfileId: ProfileId,
  authorName: Schema.String,
  format: Schema.NullOr(Schema.String),
  durationMinutes: Schema.NullOr(Schema.Number),
  trackId: Schema.NullOr(Schema.String),
  trackName: Schema.NullOr(Schema.String),
  /** bigint as text */
  fee: Schema.NullOr(Schema.String),
  currency: Schema.NullOr(Schema.String),
  note: Schema.NullOr(Schema.String),
  status: Schema.Literal(...offerStatuses),
  createdAt: Schema.DateFromSelf,
  closedAt: Schema.NullOr(Schema.DateFromSelf)
})
export type OfferRow = typeof OfferRow.Type

export interface OfferTerms {
  readonly format: string | null
  readonly durationMinutes: number | null
  readonly trackId: string | null
  readonly fee: number | null
  readonly currency: string | null
  readonly note: string | null
}

export const ReviewRow = Schema.Struct({
  submissionId: Schema.String,
  reviewerProfileId: ProfileId,
  reviewerName: Schema.String,
  score: Schema.Number,
  comment: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type ReviewRow = typeof ReviewRow.Type

/** Mean, count and distribution of scores (reviews) or votes, by submission. */
export const TallyRow = Schema.Struct({
  submissionId: Schema.String,
  count: Schema.Number,
  sum: Schema.Number,
  s1: Schema.Number,
  s2: Schema.Number,
  s3: Schema.Number,
  s4: Schema.Number,
  s5: Schema.Number
})
export type TallyRow = typeof TallyRow.Type

/** Rows of `sql` decoded at the boundary; built once per row shape. */
export const rowsOf = <A, I>(row: Schema.Schema<A, I>) => Schema.decodeUnknown(Schema.Array(row))
export const decodeSubmissions = rowsOf(SubmissionRow)

/** Which submissions of a call a caller may list (an OR of the parts given). */
export interface Visibility {
  /** The caller's profile: their own submissions (as proposer or accepted co-speaker), drafts included. */
  readonly ownProfileId: string
  /** Organiser: every submission but others' drafts. */
  readonly all: boolean
  /** Reviewer: the non-draft submissions of these tracks. */
  readonly trackIds: ReadonlyArray<string>
}

export interface ListFilter {
  readonly after?: readonly [string] | undefined
  readonly limit: number
  readonly status?: SubmissionStatus | undefined
  readonly trackId?: string | undefined
}

export const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

export const tallyColumns = (column: string) =>
  `count(*)::int AS count, coalesce(sum(${column}), 0)::int AS sum,
  (count(*) FILTER (WHERE ${column} = 1))::int AS s1, (count(*) FILTER (WHERE ${column} = 2))::int AS s2,
  (count(*) FILTER (WHERE ${column} = 3))::int AS s3, (count(*) FILTER (WHERE ${column} = 4))::int AS s4,
  (count(*) FILTER (WHERE ${column} = 5))::int AS s5`
