import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Ok, Page } from "../../domain/Envelope"
import { Body, Name, Trimmed } from "../../domain/Fields"
import { isUuid, Uuid } from "../../domain/Ids"
import { Currency } from "../../domain/Money"
import { PageQuery } from "../../domain/Pagination"
import { OneOf } from "../../domain/Role"
import { BadRequest, Conflict, Forbidden, NotFound, Unauthorized } from "../../http/ApiErrors"
import { MemberScope } from "../../http/Security"
import { CallId } from "../calls/Api"
import { coSpeakerStatuses, MAX_CO_SPEAKERS, offerSides, offerStatuses, submissionStatuses } from "./Policy"

/** A submission id: a UUID, or 400 `Valid submission ID is required` (format validations are in English). */
export const SubmissionId = Schema.String.pipe(
  Schema.filter((value) => isUuid(value.trim()), { message: () => "Valid submission ID is required" }),
  Schema.annotations({ identifier: "SubmissionId", format: "uuid" })
)

const SubmissionStatus = OneOf(...submissionStatuses)
const Abstract = Trimmed(20_000, "must be between 1 and 20000 characters").pipe(
  Schema.filter((value) => (value.length >= 1 && value.length <= 20_000) || "must be between 1 and 20000 characters")
)
const CoSpeakers = Schema.Array(Uuid).pipe(
  Schema.maxItems(MAX_CO_SPEAKERS, { message: () => `at most ${MAX_CO_SPEAKERS} co-speakers` })
)
const Score = (what: string) =>
  Schema.Number.pipe(Schema.int(), Schema.between(1, 5)).annotations({
    message: () => ({ message: `${what} must be an integer between 1 and 5`, override: true })
  })
const Note = Schema.NullOr(Schema.String.pipe(Schema.maxLength(5_000)))

const Distribution = Schema.Struct({
  "1": Schema.Number,
  "2": Schema.Number,
  "3": Schema.Number,
  "4": Schema.Number,
  "5": Schema.Number
})
const Tally = { count: Schema.Number, mean: Schema.NullOr(Schema.Number), distribution: Distribution }

const Person = Schema.Struct({ profileId: Schema.String, fullName: Schema.String })

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

const Version = Schema.Struct({
  version: Schema.Number,
  title: Schema.String,
  abstract: Schema.String,
  trackId: Schema.NullOr(Schema.String),
  coSpeakerProfileIds: Schema.Array(Schema.String),
  createdAt: Schema.String
})

const SubmissionDetail = Schema.Struct({ ...Submission.fields, versions: Schema.Array(Version) })

const Terms = Schema.Struct({
  format: Schema.NullOr(Schema.String),
  durationMinutes: Schema.NullOr(Schema.Number),
  trackId: Schema.NullOr(Schema.String),
  trackName: Schema.NullOr(Schema.String),
  /** Integer minor units of `currency`. */
  fee: Schema.NullOr(Schema.Number),
  currency: Schema.NullOr(Schema.String),
  note: Schema.NullOr(Schema.String)
})

const Offer = Schema.Struct({
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

const Negotiation = Schema.Struct({
  submissionId: Schema.String,
  status: SubmissionStatus,
  openOfferId: Schema.NullOr(Schema.String),
  agreedOfferId: Schema.NullOr(Schema.String),
  offers: Schema.Array(Offer)
})

const Agreement = Schema.Struct({
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

const Review = Schema.Struct({
  reviewerProfileId: Schema.NullOr(Schema.String),
  reviewerName: Schema.NullOr(Schema.String),
  score: Schema.Number,
  comment: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})

const OwnReview = Schema.Struct({ submissionId: Schema.String, ...Review.fields })

const Reviews = Schema.Struct({
  submissionId: Schema.String,
  ...Tally,
  reviewerNamesHidden: Schema.Boolean,
  reviews: Schema.Array(Review)
})

const QueueItem = Schema.Struct({
  ...Submission.fields,
  myReview: Schema.NullOr(Schema.Struct({
    score: Schema.Number,
    comment: Schema.NullOr(Schema.String),
    updatedAt: Schema.NullOr(Schema.String)
  }))
})

const ReviewProgress = Schema.Struct({
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

const BallotItem = Schema.Struct({ ...Submission.fields, myVote: Schema.NullOr(Schema.Number) })

const VoteResults = Schema.Struct({
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

const Speaker = Schema.Struct({
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

const CoSpeakerAnswer = Schema.Struct({
  submissionId: Schema.String,
  profileId: Schema.String,
  status: OneOf(...coSpeakerStatuses)
})

const SpeakerInvitation = Schema.Struct({
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

const Decision = Body({ decision: OneOf("accept", "refuse"), note: Schema.optional(Note) })

const SubmissionQuery = Schema.Struct({
  ...PageQuery.fields,
  status: Schema.optional(SubmissionStatus),
  trackId: Schema.optional(Uuid)
})
const OwnQuery = Schema.Struct({ ...PageQuery.fields, status: Schema.optional(SubmissionStatus) })
const QueueQuery = Schema.Struct({ ...PageQuery.fields, pending: Schema.optional(OneOf("true", "false")) })

const CallIdParam = Schema.Struct({ id: CallId })
const SubmissionIdParam = Schema.Struct({ sid: SubmissionId })

const SEE =
  "A draft is seen only by its speakers (404 for anyone else); a submission of a soft-deleted call, or of another community, is 404. Organisers (owner, admin, moderator of the community, or an accepted owner of the call), reviewers of the submission's track and its speakers see it; any other member gets 403."
/** The organisation's side of one submission: not for an organiser who is one of its speakers. */
const NOT_OWN =
  "An organiser who is one of the submission's speakers (proposer or accepted co-speaker) gets 403: another organiser of the call decides on it, as no one reviews or votes on their own proposal."
const ORGANISER =
  "Organisers only: owner, admin or moderator of the community, or an accepted owner of the call (403 otherwise)."
const MOVE =
  "State moves follow design/states.md \"Call for papers\"; a move the current state does not allow answers 409 with `errors[0].param = \"status\"` and the allowed moves. The submission row is locked for the move, so concurrent moves settle once. The other side is e-mailed through the outbox."

const move = <const Name extends string>(name: Name, path: string, description: string) =>
  HttpApiEndpoint.post(name, `/call4papers/submissions/:sid/${path}`)
    .setPath(SubmissionIdParam)
    .addSuccess(Ok(Submission))
    .addError(BadRequest)
    .addError(Forbidden)
    .addError(NotFound)
    .addError(Conflict)
    .middleware(MemberScope)
    .annotate(OpenApi.Description, `${description} ${MOVE}`)

const offerMove = <const Name extends string>(name: Name, path: string, description: string) =>
  HttpApiEndpoint.post(name, `/call4papers/submissions/:sid/${path}`)
    .setPath(SubmissionIdParam)
    .addSuccess(Ok(Negotiation))
    .addError(BadRequest)
    .addError(Forbidden)
    .addError(NotFound)
    .addError(Conflict)
    .middleware(MemberScope)
    .annotate(OpenApi.Description, `${description} ${MOVE}`)

const CO_SPEAKERS =
  "Naming co-speakers (`coSpeakers`) does not make them speakers: nothing may act on someone without their consent. Each newly named person is `invited` and e-mailed; they count as a speaker (speaker bank, their submission lists, visibility, reviews and votes) only once they accept with their own token (`POST /api/call4papers/submissions/{sid}/co-speaker/accept`, or `/co-speaker/decline`). The proposer and organisers see invited and declined co-speakers with their `status`; everyone else sees the accepted ones."

const CONSENT =
  "Not in the contract's route list: these routes exist because a co-speaker named by the proposer is only invited (see `coSpeakers` on create and edit), and someone must be able to give or refuse that consent. They follow the owner and reviewer invitations: the invited person answers with their own token only (staff acting as them with X-ProfileId get 403); a caller with no co-speaker invitation on the submission, or a submission of another community, 404; an invitation already answered, 409 (`param: status`; `invited -> accepted | declined`, both final). The submission row is locked, so concurrent answers settle once. The proposer is e-mailed the answer."

const coSpeakerAnswer = <const Name extends string>(name: Name, path: string, description: string) =>
  HttpApiEndpoint.post(name, `/call4papers/submissions/:sid/co-speaker/${path}`)
    .setPath(SubmissionIdParam)
    .addSuccess(Ok(CoSpeakerAnswer))
    .addError(BadRequest)
    .addError(Forbidden)
    .addError(NotFound)
    .addError(Conflict)
    .middleware(MemberScope)
    .annotate(OpenApi.Description, `${description} ${CONSENT}`)

const TERMS =
  "Terms: `format` (e.g. talk, workshop), `durationMinutes`, `trackId` (a track of the call, else 400), `fee` (integer minor units) with `currency` (ISO 4217; required with a fee), `note`. Fields left out keep the previous offer's value (the first offer starts from the proposal's track)."

export class SubmissionsApi extends HttpApiGroup.make("call4papersSubmissions")
  .annotateContext(OpenApi.annotations({
    title: "Submissions",
    description: "Proposals to calls for papers: drafts, submission, reviews, votes, negotiation and agreement."
  }))
  .add(
    HttpApiEndpoint.get("meSubmissions", "/call4papers/me/submissions")
      .setUrlParams(OwnQuery)
      .addSuccess(Page(Submission))
      .addError(BadRequest)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "The caller's own submissions (as proposer or accepted co-speaker; the X-ProfileId profile when acting) across the calls of the community, drafts included, by creation (keyset: `limit`, `cursor`); `status` filters."
      )
      .annotate(OpenApi.Summary, "List the caller's submissions")
  )
  .add(
    HttpApiEndpoint.get("meReviews", "/call4papers/me/reviews")
      .setUrlParams(QueueQuery)
      .addSuccess(Page(QueueItem))
      .addError(BadRequest)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "The caller's review queue: submitted or negotiating submissions of the tracks they review (accepted invitations), their own left out, each with `myReview` (null until reviewed). `pending=true` keeps those not reviewed yet. Keyset by creation."
      )
      .annotate(OpenApi.Summary, "List the caller's review queue")
  )
  .add(
    HttpApiEndpoint.get("speakers", "/call4papers/speakers")
      .setUrlParams(PageQuery)
      .addSuccess(Page(Speaker))
      .addError(BadRequest)
      .addError(Forbidden)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "The speaker bank: everyone who proposed (or accepted to co-speak on) a submitted proposal in a live call of the community, one entry per person with their proposals across calls (drafts left out). No e-mail or phone. Owner, admin and moderator read the whole bank; an accepted owner of some call reads the bank of the calls they own only (the speakers and proposals of those calls, never other calls'); anyone else 403. Keyset by profile id."
      )
      .annotate(OpenApi.Summary, "List the speaker bank")
  )
  .add(
    HttpApiEndpoint.post("inviteSpeaker", "/call4papers/:id/invite-speaker")
      .setPath(CallIdParam)
      .setPayload(Body({ profileId: Uuid, message: Schema.optional(Note) }))
      .addSuccess(Ok(SpeakerInvitation), { status: 201 })
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${ORGANISER} Invites a person from the speaker bank (\`GET /api/call4papers/speakers\`) to submit to this call, by e-mail; an organiser who is not staff invites from the bank of the calls they own. Someone not in the bank: 400 (param \`profileId\`); invited before: 409 (param \`profileId\`); a call that is not published: 409 (param \`status\`).`
      )
      .annotate(OpenApi.Summary, "Invite a speaker to a call")
  )
  .add(
    coSpeakerAnswer(
      "acceptCoSpeaking",
      "accept",
      "The invited co-speaker accepts: from now on they are a speaker of the submission (`invited -> accepted`). Someone who reviewed or voted on it gets 403 (no one speaks on a proposal they judged; a review or vote and an acceptance take the submission's row lock, so they cannot both pass). A submission that was withdrawn (`retirada`) or refused (`recusada`) takes no new co-speaker: 409 (param `status`); declining stays possible."
    )
      .annotate(OpenApi.Summary, "Accept a co-speaker invitation")
  )
  .add(
    coSpeakerAnswer(
      "declineCoSpeaking",
      "decline",
      "The invited co-speaker declines: they never become a speaker of it (`invited -> declined`); the proposer sees the refusal."
    )
      .annotate(OpenApi.Summary, "Decline a co-speaker invitation")
  )
  .add(
    HttpApiEndpoint.get("detail", "/call4papers/submissions/:sid")
      .setPath(SubmissionIdParam)
      .addSuccess(Ok(SubmissionDetail))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${SEE} Organisers and speakers also get \`versions\`: every text the proposer saved, oldest first.`
      )
      .annotate(OpenApi.Summary, "Get a submission")
  )
  .add(
    HttpApiEndpoint.put("update", "/call4papers/submissions/:sid")
      .setPath(SubmissionIdParam)
      .setPayload(SubmissionChanges)
      .addSuccess(Ok(SubmissionDetail))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "The proposer edits their own submission (403 for anyone else), only in `rascunho` (409 after, `param: status`). Partial: `title`, `abstract`, `trackId` (a live track of the call, else 400), `coSpeakers` (profile ids of active members, replacing the list: accepted co-speakers who stay on it stay accepted, new ones are invited, those left off are removed). Each edit is kept as a new version. " +
          CO_SPEAKERS
      )
      .annotate(OpenApi.Summary, "Edit a draft submission")
  )
  .add(
    move(
      "submit",
      "submit",
      "The proposer: `rascunho -> enviada`, while the call accepts submissions (published, inside its window; else 409)."
    )
      .annotate(OpenApi.Summary, "Submit a proposal")
  )
  .add(
    move(
      "withdraw",
      "withdraw",
      "The proposer withdraws: `rascunho | enviada | em_negociacao -> retirada` (final); an open offer is closed."
    )
      .annotate(OpenApi.Summary, "Withdraw a submission")
  )
  .add(
    HttpApiEndpoint.put("review", "/call4papers/submissions/:sid/review")
      .setPath(SubmissionIdParam)
      .setPayload(Body({ score: Score("score"), comment: Schema.optional(Note) }))
      .addSuccess(Ok(OwnReview))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "Creates or replaces the caller's review: `score` (integer 1..5, else 400) and `comment`. Reviewers of the submission's track (accepted) and organisers (403 for anyone else, and for the submission's own speakers). Only `enviada` or `em_negociacao` submissions (409 otherwise)."
      )
      .annotate(OpenApi.Summary, "Review a submission")
  )
  .add(
    HttpApiEndpoint.get("reviews", "/call4papers/submissions/:sid/reviews")
      .setPath(SubmissionIdParam)
      .addSuccess(Ok(Reviews))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${SEE} Consolidated reviews: \`mean\` (two decimals, null without reviews), \`count\`, \`distribution\` of scores 1..5, and each review. Reviewer names are never shown to the submission's speakers; with the call's \`anonymousReviews\`, only organisers see them (\`reviewerNamesHidden\`).`
      )
      .annotate(OpenApi.Summary, "List a submission's reviews")
  )
  .add(
    HttpApiEndpoint.put("vote", "/call4papers/submissions/:sid/vote")
      .setPath(SubmissionIdParam)
      .setPayload(Body({ vote: Score("vote") }))
      .addSuccess(Ok(Schema.Struct({ submissionId: Schema.String, vote: Schema.Number })))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "Any member votes, with their own access: a vote is personal, so staff acting as someone (X-ProfileId) get 403 on voting and on removing a vote. `vote` is an integer 1 to 5 (spec §8; else 400, param `vote`). One vote per person and submission, replaced by a new one (concurrent votes leave one). The call must have community voting (409, param `communityVoting`); the submission must be `enviada` or `em_negociacao` (409, param `status`); speakers do not vote on their own submission (403). Drafts of others are 404."
      )
      .annotate(OpenApi.Summary, "Vote on a submission")
  )
  .add(
    HttpApiEndpoint.del("unvote", "/call4papers/submissions/:sid/vote")
      .setPath(SubmissionIdParam)
      .addSuccess(Ok(Schema.Struct({ submissionId: Schema.String, vote: Schema.Null, removed: Schema.Boolean })))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "Removes the caller's own vote (`removed: false` when there was none). Same conditions as voting (X-ProfileId: 403)."
      )
      .annotate(OpenApi.Summary, "Remove one's vote on a submission")
  )
  .add(
    HttpApiEndpoint.get("negotiation", "/call4papers/submissions/:sid/negotiation")
      .setPath(SubmissionIdParam)
      .addSuccess(Ok(Negotiation))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "Organisers and the speakers (403 otherwise). Every offer ever made, oldest first, each kept with its terms and fate: `open` (at most one), `retracted`, `superseded` (answered by a counter), `accepted`, `declined`, `closed` (the submission was withdrawn)."
      )
      .annotate(OpenApi.Summary, "Get a submission's negotiation")
  )
  .add(
    offerMove(
      "counterOffer",
      "counter-offer",
      `${ORGANISER} \`enviada | em_negociacao -> em_negociacao\` with a new open offer of the organisation, answering the speaker's open counter if any; while the organisation's own offer is open: 409 (retract it first). ${NOT_OWN} ${TERMS}`
    ).setPayload(OfferTerms)
      .annotate(OpenApi.Summary, "Make a counter-offer")
  )
  .add(
    offerMove(
      "retract",
      "counter-offer/retract",
      "The author side of the open offer takes it back (the organisation's by an organiser, the speaker's by the proposer; 403 for the other side): `em_negociacao -> enviada`."
    )
      .annotate(OpenApi.Summary, "Retract the open offer")
  )
  .add(
    offerMove(
      "speakerCounter",
      "speaker-counter",
      `The proposer answers the organisation's open offer with their own (409 when none is open): \`em_negociacao -> em_negociacao\`. Only the proposer's own token: staff acting as them (X-ProfileId) get 403. ${TERMS}`
    ).setPayload(OfferTerms)
      .annotate(OpenApi.Summary, "Counter the organisation's offer")
  )
  .add(
    move(
      "accept",
      "accept",
      `Accepts the other side's open offer (the proposer accepts the organisation's, with their own token only: staff acting as them with X-ProfileId get 403; an organiser the speaker's; 409 for one's own side's offer): \`em_negociacao -> aceita\`; its terms become the agreement. ${NOT_OWN}`
    )
      .annotate(OpenApi.Summary, "Accept the open offer")
  )
  .add(
    move(
      "decline",
      "decline",
      `${ORGANISER} The organisation refuses: \`enviada | em_negociacao -> recusada\` (final); an open offer is declined. No body (a note goes with \`decide\`). ${NOT_OWN}`
    )
      .annotate(OpenApi.Summary, "Decline a submission")
  )
  .add(
    move(
      "decide",
      "decide",
      `${ORGANISER} Decides directly: \`decision: accept\` (\`enviada | em_negociacao -> aceita\`; an open offer is accepted and is the agreement, else the proposal's own terms are) or \`refuse\` (\`-> recusada\`); optional \`note\`. ${NOT_OWN}`
    ).setPayload(Decision)
      .annotate(OpenApi.Summary, "Decide on a submission")
  )
  .add(
    move(
      "confirm",
      "confirm",
      "An organiser or the proposer confirms the agenda: `aceita -> confirmada`, the module's final state."
    )
      .annotate(OpenApi.Summary, "Confirm an accepted submission")
  )
  .add(
    HttpApiEndpoint.get("agreement", "/call4papers/submissions/:sid/agreement")
      .setPath(SubmissionIdParam)
      .addSuccess(Ok(Agreement))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "Organisers and the speakers (403 otherwise). The terms in force once accepted (`aceita` or `confirmada`; 409 before): the accepted offer's, or, when accepted directly without one, the proposal's own (its track)."
      )
      .annotate(OpenApi.Summary, "Get a submission's agreement")
  )
  .add(
    HttpApiEndpoint.get("list", "/call4papers/:id/submissions")
      .setPath(CallIdParam)
      .setUrlParams(SubmissionQuery)
      .addSuccess(Page(Submission))
      .addError(BadRequest)
      .addError(NotFound)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "Contextual: organisers see every submission but others' drafts, reviewers the submitted ones of their tracks, everyone their own (drafts included). `status` and `trackId` filter; keyset by creation (`limit`, `cursor`). A draft call is 404 except to its organisers."
      )
      .annotate(OpenApi.Summary, "List a call's submissions")
  )
  .add(
    HttpApiEndpoint.post("create", "/call4papers/:id/submissions")
      .setPath(CallIdParam)
      .setPayload(NewSubmission)
      .addSuccess(Ok(SubmissionDetail), { status: 201 })
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "Any member proposes (the X-ProfileId profile when acting becomes the proposer): `title`, `abstract`, `trackId` (optional; a live track of this call, else 400), `coSpeakers` (optional profile ids of active members, at most 5; else 400). The call must accept submissions: published and inside its window (409, param `status`). The submission starts as `rascunho`, version 1. " +
          CO_SPEAKERS
      )
      .annotate(OpenApi.Summary, "Propose a submission")
  )
  .add(
    HttpApiEndpoint.get("mySubmissions", "/call4papers/:id/my-submissions")
      .setPath(CallIdParam)
      .setUrlParams(OwnQuery)
      .addSuccess(Page(Submission))
      .addError(BadRequest)
      .addError(NotFound)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "The caller's own submissions to this call (proposer or accepted co-speaker), drafts included."
      )
      .annotate(OpenApi.Summary, "List the caller's submissions to a call")
  )
  .add(
    HttpApiEndpoint.get("reviewProgress", "/call4papers/:id/review-progress")
      .setPath(CallIdParam)
      .addSuccess(Ok(ReviewProgress))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${ORGANISER} Per track: submitted submissions (drafts and withdrawn left out), how many have a review, and the reviews written; per accepted reviewer: the submissions of their tracks (their own left out) and how many they reviewed.`
      )
      .annotate(OpenApi.Summary, "Get a call's review progress")
  )
  .add(
    HttpApiEndpoint.get("ballot", "/call4papers/:id/votable-submissions")
      .setPath(CallIdParam)
      .setUrlParams(PageQuery)
      .addSuccess(Page(BallotItem))
      .addError(BadRequest)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "The open-vote ballot for any member: the call's `enviada` and `em_negociacao` submissions, the caller's own left out, each with `myVote` (null until voted). A call without community voting: 409 (param `communityVoting`). Keyset by creation."
      )
      .annotate(OpenApi.Summary, "List submissions open to vote")
  )
  .add(
    HttpApiEndpoint.get("voteResults", "/call4papers/:id/vote-results")
      .setPath(CallIdParam)
      .addSuccess(Ok(VoteResults))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${ORGANISER} Per submitted submission of the call: \`count\`, \`mean\` (two decimals) and \`distribution\` of votes 1..5, best mean first.`
      )
      .annotate(OpenApi.Summary, "Get a call's vote results")
  )
  .addError(Unauthorized)
  .prefix("/api")
{}
