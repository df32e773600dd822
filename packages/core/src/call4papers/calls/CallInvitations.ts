import { Clock, Effect, Option } from "effect"
import { Memberships } from "../../communities/Memberships"
import { forbidden, invalidField } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { orNotFound } from "../../domain/found"
import { type PageQuery, paginate } from "../../domain/Pagination"
import { requireVerifiedEmail } from "../../domain/Policy"
import { Notify } from "../../notifications/Notify"
import { Ids } from "../../platform/Ids"
import { Mailer } from "../../platform/Mailer"
import { traced } from "../../platform/traced"
import { notFoundAs } from "../lookups"
import { CallAccess } from "./CallAccess"
import { CallRoles } from "./CallRoles"
import { lower, taken, TimeCursor } from "./callRules"
import { CallMessages } from "./messages"
import { checkInvitationMove, type InvitationStatus } from "./Policy"
import { CallsRepo } from "./Repo"
import { invitationView, ownerView, reviewerView } from "./view"

/**
 * Owners of a call and reviewers of its tracks: invited (an `invitation` notification, and an e-mail
 * unless they turned that kind's e-mail off), answered by the invited person only.
 */
export class CallInvitations extends Effect.Service<CallInvitations>()("@roda/core/call4papers/CallInvitations", {
  effect: Effect.gen(function*() {
    const repo = yield* CallsRepo
    const roles = yield* CallRoles
    const memberships = yield* Memberships
    const mailer = yield* Mailer
    const { notifyMailing } = yield* Notify
    const ids = yield* Ids
    const { managed, managedTrack, organise } = yield* CallAccess
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    /** The invitee: a live, accepted profile of the community (400 `profileId` otherwise). */
    const invitee = (communityId: string, profileId: string) =>
      memberships.recipients(communityId, [lower(profileId)]).pipe(
        Effect.flatMap((found) =>
          found[0] === undefined
            ? Effect.fail(invalidField("profileId", CallMessages.profileNotFound))
            : Effect.succeed(found[0])
        )
      )

    const owners = traced("Calls.owners")(function*(member: Member, id: string, query: PageQuery) {
      const call = yield* managed(member, id)
      const page = yield* paginate(
        query,
        TimeCursor,
        (after, limit) => repo.listOwners(member.communityId, call.id, after, limit),
        (row) => [row.invitedAt.toISOString(), row.id]
      )
      return { items: page.items.map(ownerView), pagination: page.pagination }
    })

    const inviteOwner = traced("Calls.inviteOwner")(function*(member: Member, id: string, profileId: string) {
      const call = yield* managed(member, id)
      // issue 52: inviting others by e-mail needs a confirmed e-mail (as profile invitations do)
      yield* requireVerifiedEmail(member.account)
      const person = yield* invitee(member.communityId, profileId)
      const invited = yield* repo.inviteOwner({
        id: yield* ids.next,
        communityId: member.communityId,
        callId: call.id,
        profileId: person.profileId,
        status: "pending",
        invitedByProfileId: member.profileId
      }, yield* now)
      if (Option.isNone(invited)) return yield* Effect.fail(taken("profileId", CallMessages.alreadyOwner))
      const subject = { type: "call", id: call.id, title: call.title }
      if (!(yield* wantsMail(member, person.profileId, subject))) return { id: invited.value }
      yield* mailer.send({
        to: person.email,
        kind: "call4papers-owner-invitation",
        communityId: member.communityId,
        subject: `Convite para organizar a chamada "${call.title}" / Invitation to own the call "${call.title}"`,
        text:
          `Olá, ${person.fullName}!\n\nVocê foi convidado(a) para organizar a chamada de trabalhos "${call.title}".\n` +
          `Veja e responda em GET /api/call4papers/me/invitations (convite ${invited.value}).\n\n` +
          `You were invited to own the call for papers "${call.title}". ` +
          `See and answer it in GET /api/call4papers/me/invitations (invitation ${invited.value}).\n`
      })
      return { id: invited.value }
    })

    /** The invitee's `invitation`: whether they want it by e-mail too (the invitation's own e-mail). */
    const wantsMail = (member: Member, profileId: string, subject: { type: string; id: string; title: string }) =>
      Effect.map(
        notifyMailing(member.communityId, {
          kind: "invitation",
          recipients: [profileId],
          actorProfileId: member.profileId,
          subject
        }),
        (wanting) => wanting.includes(profileId)
      )

    /** An invitation answered by the invited person; concurrent answers settle once (conditional update). */
    const answer = <
      Row extends { readonly id: string; readonly profileId: string; readonly status: InvitationStatus },
      FindError
    >(
      member: Member,
      find: () => Effect.Effect<Row, FindError>,
      write: (status: InvitationStatus, at: Date) => Effect.Effect<boolean>,
      to: InvitationStatus
    ) =>
      Effect.gen(function*() {
        const row = yield* find()
        if (row.profileId !== member.profileId) return yield* Effect.fail(forbidden(CallMessages.invitationNotYours))
        yield* checkInvitationMove(row.status, to)
        if (!(yield* write(to, yield* now))) {
          const current = yield* find()
          yield* checkInvitationMove(current.status, to)
        }
        return yield* find()
      })

    const findOwner = (communityId: string, ownerId: string) =>
      repo.findOwner(communityId, lower(ownerId)).pipe(orNotFound(CallMessages.ownerNotFound))

    const answerOwner = traced("Calls.answerOwner")(function*(
      member: Member,
      ownerId: string,
      to: "accepted" | "declined"
    ) {
      const row = yield* answer(
        member,
        () => findOwner(member.communityId, ownerId),
        (status, at) => repo.answerOwner(member.communityId, lower(ownerId), status, at),
        to
      )
      return ownerView(row)
    })

    const removeOwner = traced("Calls.removeOwner")(function*(member: Member, ownerId: string) {
      const row = yield* findOwner(member.communityId, ownerId)
      const call = yield* roles.callFor(member.communityId, row.callId)
      if (row.profileId !== member.profileId) {
        yield* organise(member, call).pipe(notFoundAs(CallMessages.ownerNotFound))
      }
      yield* repo.deleteOwner(member.communityId, row.id)
    })

    const reviewers = traced("Calls.reviewers")(function*(member: Member, trackId: string, query: PageQuery) {
      const { track } = yield* managedTrack(member, trackId)
      const page = yield* paginate(
        query,
        TimeCursor,
        (after, limit) => repo.listReviewers(member.communityId, track.id, after, limit),
        (row) => [row.invitedAt.toISOString(), row.id]
      )
      return { items: page.items.map(reviewerView), pagination: page.pagination }
    })

    const inviteReviewer = traced("Calls.inviteReviewer")(function*(
      member: Member,
      trackId: string,
      profileId: string
    ) {
      const { track, call } = yield* managedTrack(member, trackId)
      yield* requireVerifiedEmail(member.account)
      const person = yield* invitee(member.communityId, profileId)
      const invited = yield* repo.inviteReviewer(
        {
          id: yield* ids.next,
          communityId: member.communityId,
          callId: call.id,
          trackId: track.id,
          profileId: person.profileId
        },
        member.profileId,
        yield* now
      )
      if (Option.isNone(invited)) return yield* Effect.fail(taken("profileId", CallMessages.alreadyReviewer))
      const subject = { type: "track", id: track.id, title: `${call.title}: ${track.name}` }
      if (!(yield* wantsMail(member, person.profileId, subject))) return { id: invited.value }
      yield* mailer.send({
        to: person.email,
        kind: "call4papers-reviewer-invitation",
        communityId: member.communityId,
        subject: `Convite para avaliar a trilha "${track.name}" / Invitation to review the track "${track.name}"`,
        text: `Olá, ${person.fullName}!\n\nVocê foi convidado(a) para avaliar as propostas da trilha "${track.name}" ` +
          `da chamada "${call.title}".\nVeja e responda em GET /api/call4papers/me/invitations (convite ${invited.value}).\n\n` +
          `You were invited to review the proposals of the track "${track.name}" of the call "${call.title}". ` +
          `See and answer it in GET /api/call4papers/me/invitations (invitation ${invited.value}).\n`
      })
      return { id: invited.value }
    })

    const findReviewer = (communityId: string, reviewerId: string) =>
      repo.findReviewer(communityId, lower(reviewerId)).pipe(orNotFound(CallMessages.reviewerNotFound))

    const answerReviewer = traced("Calls.answerReviewer")(function*(
      member: Member,
      reviewerId: string,
      to: "accepted" | "declined"
    ) {
      const row = yield* answer(
        member,
        () => findReviewer(member.communityId, reviewerId),
        (status, at) => repo.answerReviewer(member.communityId, lower(reviewerId), status, at),
        to
      )
      return reviewerView(row)
    })

    const removeReviewer = traced("Calls.removeReviewer")(function*(member: Member, reviewerId: string) {
      const row = yield* findReviewer(member.communityId, reviewerId)
      const call = yield* roles.callFor(member.communityId, row.callId)
      if (row.profileId !== member.profileId) {
        yield* organise(member, call).pipe(notFoundAs(CallMessages.reviewerNotFound))
      }
      yield* repo.deleteReviewer(member.communityId, row.id)
    })

    const myInvitations = traced("Calls.myInvitations")(function*(member: Member, query: PageQuery) {
      const page = yield* paginate(
        query,
        TimeCursor,
        (after, limit) => repo.pendingInvitations(member.communityId, member.profileId, after, limit),
        (row) => [row.invitedAt.toISOString(), row.id]
      )
      return { items: page.items.map(invitationView), pagination: page.pagination }
    })

    return {
      owners,
      inviteOwner,
      answerOwner,
      removeOwner,
      reviewers,
      inviteReviewer,
      answerReviewer,
      removeReviewer,
      myInvitations
    }
  }),
  dependencies: [CallsRepo.Default, CallAccess.Default, CallRoles.Default]
}) {}
