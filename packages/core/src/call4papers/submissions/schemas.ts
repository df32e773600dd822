import { Schema } from "effect"
import { Body, Name, Trimmed } from "../../domain/Fields"
import { isUuid, Uuid } from "../../domain/Ids"
import { Currency } from "../../domain/Money"
import { PageQuery } from "../../domain/Pagination"
import { OneOf } from "../../domain/Role"
import { CallId } from "../calls/schemas"
import { coSpeakerStatuses, MAX_CO_SPEAKERS, offerSides, offerStatuses, submissionStatuses } from "./Policy"

/** The shapes of the submissions endpoints: answers, bodies, queries and path parameters. */

/** A submission id: a UUID, or 400 `Valid submission ID is required` (format validations are in English). */
export const SubmissionId = Schema.String.pipe(
  Schema.filter((value) => isUuid(value.trim()), { message: () => "Valid submission ID is required" }),
  Schema.annotations({ identifier: "SubmissionId", format: "uuid" })
)

export const SubmissionStatus = OneOf(...submissionStatuses)
export const Abstract = Trimmed(20_000, "must be between 1 and 20000 characters").pipe(
  Schema.filter((value) => (value.length >= 1 && value.length <= 20_000) || "must be between 1 and 20000 characters")
)
export const CoSpeakers = Schema.Array(Uuid).pipe(
  Schema.maxItems(MAX_CO_SPEAKERS, { message: () => `at most ${MAX_CO_SPEAKERS} co-speakers` })
)
export const Score = (what: string) =>
  Schema.Number.pipe(Schema.int(), Schema.between(1, 5)).annotations({
    message: () => ({ message: `${what} must be an integer between 1 and 5`, override: true })
  })
export const Note = Schema.NullOr(Schema.String.pipe(Schema.maxLength(5_000)))

export const Distribution = Schema.Struct({
  "1": Schema.Number,
  "2": Schema.Number,
  "3": Schema.Number,
  "4": Schema.Number,
  "5": Schema.Number
})
export const Tally = { count: Schema.Number, mean: Schema.NullOr(Schema.Number), distribution: Distribution }

export const Person = Schema.Struct({ profileId: Schema.String, fullName: Schema.String })

export const Submission = Schema.Struct({
  id: Schema.String,
  callId: Schema.String,
  callTitle: Schema.String,
  callSlug: Schema.String,
  trackId: Schema.NullOr(Schema.String),
  trackName: Schema.NullOr(Schema.String),
  title: Schema.String,
  abstract: Schema.String,
  status: SubmissionStatus,
  /** The proposer's edits so far (1 = as created); every version is kept. */
  version: Schema.Number,
  /** Null for a reviewer of a call with anonymous reviews. */
  proposer: Schema.NullOr(Person),
  /**
   * Accepted co-speakers; the proposer and organisers also see the invited and declined ones (by
   * `status`). A named co-speaker is a speaker only once they accept.
   */
  coSpeakers: Schema.Array(Schema.Struct({
    ...Person.fields,
    avatarUrl: Schema.NullOr(Schema.String),
    status: OneOf(...coSpeakerStatuses)
  })),
  /** The moves the state allows (who may make each is decided by the route). */
  allowedMoves: Schema.Array(Schema.String),
  decisionNote: Schema.NullOr(Schema.String),
  submittedAt: Schema.NullOr(Schema.String),
  decidedAt: Schema.NullOr(Schema.String),
  confirmedAt: Schema.NullOr(Schema.String),
  withdrawnAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})

export const Version = Schema.Struct({
  version: Schema.Number,
  title: Schema.String,
  abstract: Schema.String,
  trackId: Schema.NullOr(Schema.String),
  coSpeakerProfileIds: Schema.Array(Schema.String),
  createdAt: Schema.String
})

export const SubmissionDetail = Schema.Struct({ ...Submission.fields, versions: Schema.Array(Version) })

export const Terms = Schema.Struct({
  format: Schema.NullOr(Schema.String),
  durationMinutes: Schema.NullOr(Schema.Number),
  trackId: Schema.NullOr(Schema.String),
  trackName: Schema.NullOr(Schema.String),
  /** Integer minor units of `currency`. */
  fee: Schema.NullOr(Schema.Number),
  currency: Schema.NullOr(Schema.String),
  note: Schema.NullOr(Schema.String)
})

export const Offer = Schema.Struct({
  id: Schema.String,
  version: Schema.Number,
  side: OneOf(...offerSides),
  authorProfileId: Schema.String,
  authorName: Schema.String,
  status: OneOf(...offerStatuses),
  terms: Terms,
  createdAt: Schema.String,
  closedAt: Schema.NullOr(Schema.String)
})

export const Negotiation = Schema.Struct({
  submissionId: Schema.String,
  status: SubmissionStatus,
  openOfferId: Schema.NullOr(Schema.String),
  agreedOfferId: Schema.NullOr(Schema.String),
  offers: Schema.Array(Offer)
})

export const Agreement = Schema.Struct({
  submissionId: Schema.String,
  status: SubmissionStatus,
  title: Schema.String,
  abstract: Schema.String,
  offerId: Schema.NullOr(Schema.String),
  offerVersion: Schema.NullOr(Schema.Number),
  offerSide: Schema.NullOr(OneOf(...offerSides)),
  terms: Terms,
  acceptedAt: Schema.NullOr(Schema.String),
  confirmedAt: Schema.NullOr(Schema.String)
})

export const Review = Schema.Struct({
  reviewerProfileId: Schema.NullOr(Schema.String),
  reviewerName: Schema.NullOr(Schema.String),
  score: Schema.Number,
  comment: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})

export const OwnReview = Schema.Struct({ submissionId: Schema.String, ...Review.fields })

export const Reviews = Schema.Struct({
  submissionId: Schema.String,
  ...Tally,
  reviewerNamesHidden: Schema.Boolean,
  reviews: Schema.Array(Review)
})

export const QueueItem = Schema.Struct({
  ...Submission.fields,
  myReview: Schema.NullOr(Schema.Struct({
    score: Schema.Number,
    comment: Schema.NullOr(Schema.String),
    updatedAt: Schema.NullOr(Schema.String)
  }))
})

export const ReviewProgress = Schema.Struct({
  callId: Schema.String,
  tracks: Schema.Array(Schema.Struct({
    trackId: Schema.String,
    name: Schema.String,
    /** Submitted submissions of the track (drafts and withdrawn ones left out). */
    total: Schema.Number,
    /** Those with at least one review. */
    reviewed: Schema.Number,
    reviews: Schema.Number
  })),
  reviewers: Schema.Array(Schema.Struct({
    profileId: Schema.String,
    fullName: Schema.String,
    trackIds: Schema.Array(Schema.String),
    total: Schema.Number,
    reviewed: Schema.Number
  }))
})

export const BallotItem = Schema.Struct({ ...Submission.fields, myVote: Schema.NullOr(Schema.Number) })

export const VoteResults = Schema.Struct({
  callId: Schema.String,
  communityVoting: Schema.Boolean,
  results: Schema.Array(Schema.Struct({
    submissionId: Schema.String,
    title: Schema.String,
    trackId: Schema.NullOr(Schema.String),
    trackName: Schema.NullOr(Schema.String),
    status: SubmissionStatus,
    ...Tally
  }))
})

export const Speaker = Schema.Struct({
  profileId: Schema.String,
  fullName: Schema.String,
  avatarUrl: Schema.NullOr(Schema.String),
  submissions: Schema.Array(Schema.Struct({
    id: Schema.String,
    callId: Schema.String,
    callTitle: Schema.String,
    title: Schema.String,
    trackName: Schema.NullOr(Schema.String),
    status: SubmissionStatus,
    role: OneOf("proposer", "co_speaker")
  }))
})

export const CoSpeakerAnswer = Schema.Struct({
  submissionId: Schema.String,
  profileId: Schema.String,
  status: OneOf(...coSpeakerStatuses)
})

export const SpeakerInvitation = Schema.Struct({
  id: Schema.String,
  callId: Schema.String,
  profileId: Schema.String,
  message: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})

// request bodies

export const NewSubmission = Body({
  title: Name(200),
  abstract: Abstract,
  trackId: Schema.optional(Schema.NullOr(Uuid)),
  coSpeakers: Schema.optional(CoSpeakers)
})

export const SubmissionChanges = Body({
  title: Schema.optional(Name(200)),
  abstract: Schema.optional(Abstract),
  trackId: Schema.optional(Schema.NullOr(Uuid)),
  coSpeakers: Schema.optional(CoSpeakers)
})

export const OfferTerms = Body({
  format: Schema.optional(Schema.NullOr(Name(60))),
  durationMinutes: Schema.optional(
    Schema.NullOr(
      Schema.Number.pipe(Schema.int(), Schema.between(1, 1440)).annotations({
        message: () => ({ message: "must be an integer between 1 and 1440 (minutes)", override: true })
      })
    )
  ),
  trackId: Schema.optional(Schema.NullOr(Uuid)),
  fee: Schema.optional(
    Schema.NullOr(
      Schema.Number.pipe(Schema.int(), Schema.between(0, 1_000_000_000_000)).annotations({
        message: () => ({ message: "must be an integer number of minor units (cents), 0 or more", override: true })
      })
    )
  ),
  currency: Schema.optional(Schema.NullOr(Currency)),
  note: Schema.optional(Note)
})

export const Decision = Body({ decision: OneOf("accept", "refuse"), note: Schema.optional(Note) })

export const SubmissionQuery = Schema.Struct({
  ...PageQuery.fields,
  status: Schema.optional(SubmissionStatus),
  trackId: Schema.optional(Uuid)
})
export const OwnQuery = Schema.Struct({ ...PageQuery.fields, status: Schema.optional(SubmissionStatus) })
export const QueueQuery = Schema.Struct({ ...PageQuery.fields, pending: Schema.optional(OneOf("true", "false")) })

export const CallIdParam = Schema.Struct({ id: CallId })
export const SubmissionIdParam = Schema.Struct({ sid: SubmissionId })
