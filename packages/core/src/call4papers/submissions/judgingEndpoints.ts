import { HttpApiEndpoint, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../../domain/AppError"
import { Ok, Page } from "../../domain/Envelope"
import { declared } from "../../domain/Failure"
import { Body } from "../../domain/Fields"
import { PageQuery } from "../../domain/Pagination"
import { BodyRefused, ParametersRefused, WriteRefused } from "../../http/requestFailures"
import { MemberScope } from "../../http/Security"
import { ORGANISER, SEE } from "./endpointKinds"
import {
  BallotItem,
  CallIdParam,
  Note,
  OwnReview,
  QueueItem,
  QueueQuery,
  ReviewProgress,
  Reviews,
  Score,
  SubmissionIdParam,
  VoteResults
} from "./schemas"

/** Judging: reviews, the review queue and progress, the community vote. */
export const meReviews = HttpApiEndpoint.get("meReviews", "/call4papers/me/reviews")
  .setUrlParams(QueueQuery)
  .addSuccess(Page(QueueItem))
  .addError(declared(InvalidInput, "invalid_input"))
  .addError(ParametersRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    "The caller's review queue: submitted or negotiating submissions of the tracks they review (accepted invitations), their own left out, each with `myReview` (null until reviewed). `pending=true` keeps those not reviewed yet. Keyset by creation."
  )
  .annotate(OpenApi.Summary, "List the caller's review queue")

export const review = HttpApiEndpoint.put("review", "/call4papers/submissions/:sid/review")
  .setPath(SubmissionIdParam)
  .setPayload(Body({ score: Score("score"), comment: Schema.optional(Note) }))
  .addSuccess(Ok(OwnReview))
  .addError(declared(Forbidden, "not_reviewer", "own_submission_review", "space_content_forbidden"))
  .addError(declared(NotFound, "call_not_found", "not_found", "space_unknown"))
  .addError(declared(Conflict, "not_reviewable"))
  .addError(BodyRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    "Creates or replaces the caller's review: `score` (integer 1..5, else 400) and `comment`. Reviewers of the submission's track (accepted) and organisers (403 for anyone else, and for the submission's own speakers). Only `enviada` or `em_negociacao` submissions (409 otherwise)."
  )
  .annotate(OpenApi.Summary, "Review a submission")

export const reviews = HttpApiEndpoint.get("reviews", "/call4papers/submissions/:sid/reviews")
  .setPath(SubmissionIdParam)
  .addSuccess(Ok(Reviews))
  .addError(declared(Forbidden, "cannot_see", "space_content_forbidden"))
  .addError(declared(NotFound, "call_not_found", "not_found", "space_unknown"))
  .addError(ParametersRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    `${SEE} Consolidated reviews: \`mean\` (two decimals, null without reviews), \`count\`, \`distribution\` of scores 1..5, and each review. Reviewer names are never shown to the submission's speakers; with the call's \`anonymousReviews\`, only organisers see them (\`reviewerNamesHidden\`).`
  )
  .annotate(OpenApi.Summary, "List a submission's reviews")

export const vote = HttpApiEndpoint.put("vote", "/call4papers/submissions/:sid/vote")
  .setPath(SubmissionIdParam)
  .setPayload(Body({ vote: Score("vote") }))
  .addSuccess(Ok(Schema.Struct({ submissionId: Schema.String, vote: Schema.Number })))
  .addError(declared(Forbidden, "own_submission_vote", "space_content_forbidden", "vote_own_consent"))
  .addError(declared(NotFound, "call_not_found", "not_found", "space_unknown"))
  .addError(declared(Conflict, "not_on_ballot", "voting_off"))
  .addError(BodyRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    "Any member votes, with their own access: a vote is personal, so staff acting as someone (X-ProfileId) get 403 on voting and on removing a vote. `vote` is an integer 1 to 5 (spec §8; else 400, param `vote`). One vote per person and submission, replaced by a new one (concurrent votes leave one). The call must have community voting (409, param `communityVoting`); the submission must be `enviada` or `em_negociacao` (409, param `status`); speakers do not vote on their own submission (403). Drafts of others are 404."
  )
  .annotate(OpenApi.Summary, "Vote on a submission")

export const unvote = HttpApiEndpoint.del("unvote", "/call4papers/submissions/:sid/vote")
  .setPath(SubmissionIdParam)
  .addSuccess(Ok(Schema.Struct({ submissionId: Schema.String, vote: Schema.Null, removed: Schema.Boolean })))
  .addError(declared(Forbidden, "own_submission_vote", "space_content_forbidden", "vote_own_consent"))
  .addError(declared(NotFound, "call_not_found", "not_found", "space_unknown"))
  .addError(declared(Conflict, "not_on_ballot", "voting_off"))
  .addError(ParametersRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    "Removes the caller's own vote (`removed: false` when there was none). Same conditions as voting (X-ProfileId: 403)."
  )
  .annotate(OpenApi.Summary, "Remove one's vote on a submission")

export const reviewProgress = HttpApiEndpoint.get("reviewProgress", "/call4papers/:id/review-progress")
  .setPath(CallIdParam)
  .addSuccess(Ok(ReviewProgress))
  .addError(declared(Forbidden, "organiser_required", "space_content_forbidden"))
  .addError(declared(NotFound, "call_not_found", "space_unknown"))
  .addError(ParametersRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    `${ORGANISER} Per track: submitted submissions (drafts and withdrawn left out), how many have a review, and the reviews written; per accepted reviewer: the submissions of their tracks (their own left out) and how many they reviewed.`
  )
  .annotate(OpenApi.Summary, "Get a call's review progress")

export const ballot = HttpApiEndpoint.get("ballot", "/call4papers/:id/votable-submissions")
  .setPath(CallIdParam)
  .setUrlParams(PageQuery)
  .addSuccess(Page(BallotItem))
  .addError(declared(InvalidInput, "invalid_input"))
  .addError(declared(Forbidden, "space_content_forbidden"))
  .addError(declared(NotFound, "call_not_found", "space_unknown"))
  .addError(declared(Conflict, "voting_off"))
  .addError(ParametersRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    "The open-vote ballot for any member: the call's `enviada` and `em_negociacao` submissions, the caller's own left out, each with `myVote` (null until voted). A call without community voting: 409 (param `communityVoting`). Keyset by creation."
  )
  .annotate(OpenApi.Summary, "List submissions open to vote")

export const voteResults = HttpApiEndpoint.get("voteResults", "/call4papers/:id/vote-results")
  .setPath(CallIdParam)
  .addSuccess(Ok(VoteResults))
  .addError(declared(Forbidden, "organiser_required", "space_content_forbidden"))
  .addError(declared(NotFound, "call_not_found", "space_unknown"))
  .addError(ParametersRefused)
  .middleware(MemberScope)
  .annotate(
    OpenApi.Description,
    `${ORGANISER} Per submitted submission of the call: \`count\`, \`mean\` (two decimals) and \`distribution\` of votes 1..5, best mean first.`
  )
  .annotate(OpenApi.Summary, "Get a call's vote results")
