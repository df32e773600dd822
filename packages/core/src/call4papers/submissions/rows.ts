import { Option } from "effect"
import type { CoSpeakerStatus, OfferSide, OfferStatus, SubmissionStatus } from "./Policy"

/** A submission as read: its columns, with the call, the proposer's and the track's names. */
export interface SubmissionRow {
  readonly id: string
  readonly communityId: string
  readonly callId: string
  readonly callTitle: string
  readonly callSlug: string
  readonly callStatus: string
  readonly callCommunityVoting: boolean
  readonly callAnonymousReviews: boolean
  readonly trackId: string | null
  readonly trackName: string | null
  readonly proposerProfileId: string
  readonly proposerName: string
  readonly title: string
  readonly abstract: string
  readonly status: SubmissionStatus
  readonly version: number
  readonly agreedOfferId: string | null
  readonly decisionNote: string | null
  readonly submittedAt: Date | null
  readonly decidedAt: Date | null
  readonly confirmedAt: Date | null
  readonly withdrawnAt: Date | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

export interface SpeakerRow {
  readonly submissionId: string
  readonly profileId: string
  readonly fullName: string
  readonly avatarUrl: string | null
  readonly role: "proposer" | "co_speaker"
  readonly position: number
  /** Only `accepted` rows are speakers; a named co-speaker is `invited` until they answer. */
  readonly status: CoSpeakerStatus
}

export interface VersionRow {
  readonly version: number
  readonly title: string
  readonly abstract: string
  readonly trackId: string | null
  readonly coSpeakerProfileIds: ReadonlyArray<string>
  readonly authorProfileId: string
  readonly createdAt: Date
}

export interface OfferRow {
  readonly id: string
  readonly submissionId: string
  readonly version: number
  readonly side: OfferSide
  readonly authorProfileId: string
  readonly authorName: string
  readonly format: string | null
  readonly durationMinutes: number | null
  readonly trackId: string | null
  readonly trackName: string | null
  /** bigint as text */
  readonly fee: string | null
  readonly currency: string | null
  readonly note: string | null
  readonly status: OfferStatus
  readonly createdAt: Date
  readonly closedAt: Date | null
}

export interface OfferTerms {
  readonly format: string | null
  readonly durationMinutes: number | null
  readonly trackId: string | null
  readonly fee: number | null
  readonly currency: string | null
  readonly note: string | null
}

export interface ReviewRow {
  readonly submissionId: string
  readonly reviewerProfileId: string
  readonly reviewerName: string
  readonly score: number
  readonly comment: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** Mean, count and distribution of scores (reviews) or votes, by submission. */
export interface TallyRow {
  readonly submissionId: string
  readonly count: number
  readonly sum: number
  readonly s1: number
  readonly s2: number
  readonly s3: number
  readonly s4: number
  readonly s5: number
}

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
