import { HttpApiGroup, OpenApi } from "@effect/platform"
import { ballot, meReviews, review, reviewProgress, reviews, unvote, vote, voteResults } from "./judgingEndpoints"
import {
  accept,
  agreement,
  confirm,
  counterOffer,
  decide,
  decline,
  negotiation,
  retract,
  speakerCounter
} from "./negotiatingEndpoints"
import {
  acceptCoSpeaking,
  create,
  declineCoSpeaking,
  detail,
  inviteSpeaker,
  list,
  meSubmissions,
  mySubmissions,
  speakers,
  submit,
  update,
  withdraw
} from "./proposingEndpoints"

/** What a submission is as its detail route answers organisers, for the payloads of its webhooks. */
export { SubmissionDetail } from "./schemas"

export class SubmissionsApi extends HttpApiGroup.make("call4papersSubmissions")
  .annotateContext(OpenApi.annotations({
    title: "Submissions",
    description: "Proposals to calls for papers: drafts, submission, reviews, votes, negotiation and agreement."
  }))
  .add(meSubmissions)
  .add(meReviews)
  .add(speakers)
  .add(inviteSpeaker)
  .add(acceptCoSpeaking)
  .add(declineCoSpeaking)
  .add(detail)
  .add(update)
  .add(submit)
  .add(withdraw)
  .add(review)
  .add(reviews)
  .add(vote)
  .add(unvote)
  .add(negotiation)
  .add(counterOffer)
  .add(retract)
  .add(speakerCounter)
  .add(accept)
  .add(decline)
  .add(decide)
  .add(confirm)
  .add(agreement)
  .add(list)
  .add(create)
  .add(mySubmissions)
  .add(reviewProgress)
  .add(ballot)
  .add(voteResults)
  .prefix("/api")
{}
