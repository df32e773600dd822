import { Effect } from "effect"
import { RodaApi } from "../../api/RodaApi"
import { CurrentMember, CurrentVisitor } from "../../domain/Caller"
import { apiGroup } from "../../http/engine/apiGroup"
import { ok, page } from "../../http/Reply"
import { viewerOfVisitor } from "../../structure/Access"
import { Calls } from "./Calls"
import { CallMessages } from "./messages"

const visitor = Effect.map(CurrentVisitor, viewerOfVisitor)

export const CallsHttp = apiGroup(RodaApi, "call4papersCalls", (handlers) =>
  Effect.gen(function*() {
    const calls = yield* Calls
    return handlers
      .handle("spaceConfig", ({ path }) =>
        visitor.pipe(
          Effect.flatMap((viewer) => calls.spaceConfig(viewer, path.spaceId)),
          Effect.flatMap((data) => ok(CallMessages.spaceConfig, data))
        ))
      .handle("configureSpace", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.configureSpace(member, path.spaceId, payload.mode)),
          Effect.flatMap((data) => ok(CallMessages.spaceConfigUpdated, data))
        ))
      .handle("spaceCalls", ({ path, urlParams }) =>
        visitor.pipe(
          Effect.flatMap((viewer) => calls.spaceCalls(viewer, path.spaceId, urlParams)),
          Effect.flatMap((result) => page(CallMessages.calls, result))
        ))
      .handle("callBySlug", ({ path }) =>
        visitor.pipe(
          Effect.flatMap((viewer) => calls.callBySlug(viewer, path.spaceId, path.slug)),
          Effect.flatMap((data) => ok(CallMessages.call, data))
        ))
      .handle("myInvitations", ({ urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.myInvitations(member, urlParams)),
          Effect.flatMap((result) => page(CallMessages.invitations, result))
        ))
      .handle("open", ({ payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.open(member, payload)),
          Effect.flatMap((data) => ok(CallMessages.callCreated, data))
        ))
      .handle("detail", ({ path }) =>
        visitor.pipe(
          Effect.flatMap((viewer) => calls.detail(viewer, path.id)),
          Effect.flatMap((data) => ok(CallMessages.call, data))
        ))
      .handle("update", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.update(member, path.id, payload)),
          Effect.flatMap((data) => ok(CallMessages.callUpdated, data))
        ))
      .handle("remove", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.remove(member, path.id)),
          Effect.zipRight(ok(CallMessages.callDeleted, null))
        ))
      .handle("setStatus", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.setStatus(member, path.id, payload.status)),
          Effect.flatMap((data) => ok(CallMessages.callStatusChanged, data))
        ))
      .handle("publish", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.move(member, path.id, "publish")),
          Effect.flatMap((data) => ok(CallMessages.callPublished, data))
        ))
      .handle("unpublish", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.move(member, path.id, "unpublish")),
          Effect.flatMap((data) => ok(CallMessages.callUnpublished, data))
        ))
      .handle("close", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.move(member, path.id, "close")),
          Effect.flatMap((data) => ok(CallMessages.callClosed, data))
        ))
      .handle("reopen", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.move(member, path.id, "reopen")),
          Effect.flatMap((data) => ok(CallMessages.callReopened, data))
        ))
      .handle("tracks", ({ path, urlParams }) =>
        visitor.pipe(
          Effect.flatMap((viewer) => calls.tracks(viewer, path.id, urlParams)),
          Effect.flatMap((result) => page(CallMessages.tracks, result))
        ))
      .handle("createTrack", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.createTrack(member, path.id, payload)),
          Effect.flatMap((data) => ok(CallMessages.trackCreated, data))
        ))
      .handle("updateTrack", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.updateTrack(member, path.trackId, payload)),
          Effect.flatMap((data) => ok(CallMessages.trackUpdated, data))
        ))
      .handle("removeTrack", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.removeTrack(member, path.trackId)),
          Effect.zipRight(ok(CallMessages.trackDeleted, null))
        ))
      .handle("reviewers", ({ path, urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.reviewers(member, path.trackId, urlParams)),
          Effect.flatMap((result) => page(CallMessages.reviewers, result))
        ))
      .handle("inviteReviewer", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.inviteReviewer(member, path.trackId, payload.profileId)),
          Effect.flatMap((data) => ok(CallMessages.reviewerInvited, data))
        ))
      .handle("removeReviewer", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.removeReviewer(member, path.reviewerId)),
          Effect.zipRight(ok(CallMessages.reviewerRemoved, null))
        ))
      .handle("acceptReviewer", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.answerReviewer(member, path.reviewerId, "accepted")),
          Effect.flatMap((data) => ok(CallMessages.reviewerAccepted, data))
        ))
      .handle("declineReviewer", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.answerReviewer(member, path.reviewerId, "declined")),
          Effect.flatMap((data) => ok(CallMessages.reviewerDeclined, data))
        ))
      .handle("eventDates", ({ path, urlParams }) =>
        visitor.pipe(
          Effect.flatMap((viewer) => calls.eventDates(viewer, path.id, urlParams)),
          Effect.flatMap((result) => page(CallMessages.eventDates, result))
        ))
      .handle("addEventDate", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.addEventDate(member, path.id, payload)),
          Effect.flatMap((data) => ok(CallMessages.eventDateCreated, data))
        ))
      .handle("updateEventDate", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.updateEventDate(member, path.dateId, payload)),
          Effect.flatMap((data) => ok(CallMessages.eventDateUpdated, data))
        ))
      .handle("removeEventDate", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.removeEventDate(member, path.dateId)),
          Effect.zipRight(ok(CallMessages.eventDateDeleted, null))
        ))
      .handle("owners", ({ path, urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.owners(member, path.id, urlParams)),
          Effect.flatMap((result) => page(CallMessages.owners, result))
        ))
      .handle("inviteOwner", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.inviteOwner(member, path.id, payload.profileId)),
          Effect.flatMap((data) => ok(CallMessages.ownerInvited, data))
        ))
      .handle("removeOwner", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.removeOwner(member, path.ownerId)),
          Effect.zipRight(ok(CallMessages.ownerRemoved, null))
        ))
      .handle("acceptOwner", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.answerOwner(member, path.ownerId, "accepted")),
          Effect.flatMap((data) => ok(CallMessages.ownerAccepted, data))
        ))
      .handle("declineOwner", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => calls.answerOwner(member, path.ownerId, "declined")),
          Effect.flatMap((data) => ok(CallMessages.ownerDeclined, data))
        ))
  }))
