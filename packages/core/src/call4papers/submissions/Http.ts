import { Effect } from "effect"
import { RodaApi } from "../../api/RodaApi"
import { CurrentMember } from "../../domain/Caller"
import { apiGroup } from "../../http/engine/apiGroup"
import { ok, page } from "../../http/Reply"
import { SubmissionMessages as M } from "./messages"
import { Submissions } from "./Submissions"

export const SubmissionsHttp = apiGroup(
  RodaApi,
  "call4papersSubmissions",
  (handlers) =>
    Effect.gen(function*() {
      const submissions = yield* Submissions
      return handlers
        .handle("meSubmissions", ({ urlParams }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.mine(member, undefined, urlParams)),
            Effect.flatMap((result) => page(M.submissions, result))
          ))
        .handle("meReviews", ({ urlParams }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.reviewQueue(member, urlParams)),
            Effect.flatMap((result) => page(M.reviewQueue, result))
          ))
        .handle("speakers", ({ urlParams }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.speakers(member, urlParams)),
            Effect.flatMap((result) => page(M.speakers, result))
          ))
        .handle("inviteSpeaker", ({ path, payload }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.inviteSpeaker(member, path.id, payload)),
            Effect.flatMap((data) => ok(M.speakerInvited, data))
          ))
        .handle("acceptCoSpeaking", ({ path }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.acceptCoSpeaking(member, path.sid)),
            Effect.flatMap((data) => ok(M.coSpeakerAccepted, data))
          ))
        .handle("declineCoSpeaking", ({ path }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.declineCoSpeaking(member, path.sid)),
            Effect.flatMap((data) => ok(M.coSpeakerDeclined, data))
          ))
        .handle("detail", ({ path }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.detail(member, path.sid)),
            Effect.flatMap((data) => ok(M.submission, data))
          ))
        .handle("update", ({ path, payload }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.update(member, path.sid, payload)),
            Effect.flatMap((data) => ok(M.updated, data))
          ))
        .handle("submit", ({ path }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.submit(member, path.sid)),
            Effect.flatMap((data) => ok(M.submitted, data))
          ))
        .handle("withdraw", ({ path }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.withdraw(member, path.sid)),
            Effect.flatMap((data) => ok(M.withdrawn, data))
          ))
        .handle("review", ({ path, payload }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.review(member, path.sid, payload)),
            Effect.flatMap((data) => ok(M.reviewSaved, data))
          ))
        .handle("reviews", ({ path }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.reviews(member, path.sid)),
            Effect.flatMap((data) => ok(M.reviews, data))
          ))
        .handle("vote", ({ path, payload }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.vote(member, path.sid, payload.vote)),
            Effect.flatMap((data) => ok(M.voteSaved, data))
          ))
        .handle("unvote", ({ path }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.unvote(member, path.sid)),
            Effect.flatMap((data) => ok(M.voteRemoved, data))
          ))
        .handle("negotiation", ({ path }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.negotiation(member, path.sid)),
            Effect.flatMap((data) => ok(M.negotiation, data))
          ))
        .handle("counterOffer", ({ path, payload }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.counterOffer(member, path.sid, payload)),
            Effect.flatMap((data) => ok(M.counterOffered, data))
          ))
        .handle("retract", ({ path }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.retract(member, path.sid)),
            Effect.flatMap((data) => ok(M.retracted, data))
          ))
        .handle("speakerCounter", ({ path, payload }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.speakerCounter(member, path.sid, payload)),
            Effect.flatMap((data) => ok(M.speakerCountered, data))
          ))
        .handle("accept", ({ path }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.accept(member, path.sid)),
            Effect.flatMap((data) => ok(M.accepted, data))
          ))
        .handle("decline", ({ path }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.decline(member, path.sid, {})),
            Effect.flatMap((data) => ok(M.declined, data))
          ))
        .handle("decide", ({ path, payload }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.decide(member, path.sid, payload)),
            Effect.flatMap((data) => ok(M.decided, data))
          ))
        .handle("confirm", ({ path }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.confirm(member, path.sid)),
            Effect.flatMap((data) => ok(M.confirmed, data))
          ))
        .handle("agreement", ({ path }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.agreement(member, path.sid)),
            Effect.flatMap((data) => ok(M.agreement, data))
          ))
        .handle("list", ({ path, urlParams }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.list(member, path.id, urlParams)),
            Effect.flatMap((result) => page(M.submissions, result))
          ))
        .handle("create", ({ path, payload }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.create(member, path.id, payload)),
            Effect.flatMap((data) => ok(M.created, data))
          ))
        .handle("mySubmissions", ({ path, urlParams }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.mine(member, path.id, urlParams)),
            Effect.flatMap((result) => page(M.submissions, result))
          ))
        .handle("reviewProgress", ({ path }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.reviewProgress(member, path.id)),
            Effect.flatMap((data) => ok(M.reviewProgress, data))
          ))
        .handle("ballot", ({ path, urlParams }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.ballot(member, path.id, urlParams)),
            Effect.flatMap((result) => page(M.ballot, result))
          ))
        .handle("voteResults", ({ path }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => submissions.voteResults(member, path.id)),
            Effect.flatMap((data) => ok(M.voteResults, data))
          ))
    })
)
