import { Effect, Option } from "effect"
import { conflict, fieldError, forbidden } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { traced } from "../../platform/traced"
import { SubmissionMessages as M } from "./messages"
import { SubmissionsRepo } from "./Repo"
import { SubmissionAccess } from "./SubmissionAccess"
import { SubmissionEvents } from "./SubmissionEvents"
import { SubmissionMail } from "./SubmissionMail"
import { requireOrganisationSide, requireParty } from "./submissionRules"
import { offerView } from "./view"

/** The organisation's decision (declining, deciding), the agenda's confirmation, and the agreement in force. */
export class Deciding extends Effect.Service<Deciding>()("@roda/core/call4papers/Deciding", {
  effect: Effect.gen(function*() {
    const repo = yield* SubmissionsRepo
    const { notify } = yield* SubmissionMail
    const events = yield* SubmissionEvents
    const { fresh, locked, seen } = yield* SubmissionAccess

    /** The organisation refuses: `recusada`, any open offer declined. */
    const decline = traced("Submissions.decline")(function*(
      member: Member,
      id: string,
      input: { readonly note?: string | null | undefined }
    ) {
      const s = yield* seen(member, id)
      yield* requireOrganisationSide(s)
      yield* locked(member, s.submission.id, "decline", (current, to, at) =>
        Effect.gen(function*() {
          yield* repo.closeOpenOffer(member.communityId, current.id, "declined", member.profileId, at)
          const moved = yield* repo.setStatusReturning(
            member.communityId,
            current.id,
            { status: to, decidedAt: at, decisionNote: input.note ?? null },
            at
          )
          yield* notify(current, "speaker", "declined", {
            pt: "a proposta foi recusada.",
            en: "the submission was declined."
          }, member.profileId)
          yield* events.emit("submission.decided", moved)
        }))
      return yield* fresh(member, s.submission.id)
    })

    /**
     * The organisation decides directly. `accept`: an open offer (of either side) is accepted and is
     * the agreement; without one, the proposal's own terms are. `refuse`: like decline.
     */
    const decide = traced("Submissions.decide")(function*(
      member: Member,
      id: string,
      input: { readonly decision: "accept" | "refuse"; readonly note?: string | null | undefined }
    ) {
      const s = yield* seen(member, id)
      yield* requireOrganisationSide(s)
      yield* locked(member, s.submission.id, `decide:${input.decision}`, (current, to, at) =>
        Effect.gen(function*() {
          const closed = yield* repo.closeOpenOffer(
            member.communityId,
            current.id,
            input.decision === "accept" ? "accepted" : "declined",
            member.profileId,
            at
          )
          const moved = yield* repo.setStatusReturning(member.communityId, current.id, {
            status: to,
            decidedAt: at,
            decisionNote: input.note ?? null,
            ...(input.decision === "accept" ? { agreedOfferId: Option.getOrNull(closed) } : {})
          }, at)
          yield* notify(
            current,
            "speaker",
            input.decision === "accept" ? "accepted" : "declined",
            input.decision === "accept"
              ? { pt: "a proposta foi aceita.", en: "the submission was accepted." }
              : { pt: "a proposta foi recusada.", en: "the submission was declined." },
            member.profileId
          )
          yield* events.emit("submission.decided", moved)
        }))
      return yield* fresh(member, s.submission.id)
    })

    /** An accepted submission is put on the agenda (final): by an organiser or the proposer. */
    const confirm = traced("Submissions.confirm")(function*(member: Member, id: string) {
      const s = yield* seen(member, id)
      if (!s.roles.organiser && !s.proposer) return yield* Effect.fail(forbidden(M.onlySpeakerOrOrganiser))
      yield* locked(member, s.submission.id, "confirm", (current, to, at) =>
        Effect.gen(function*() {
          const moved = yield* repo.setStatusReturning(
            member.communityId,
            current.id,
            { status: to, confirmedAt: at },
            at
          )
          yield* notify(current, s.roles.organiser ? "speaker" : "organisation", "confirmed", {
            pt: "a proposta foi confirmada na agenda.",
            en: "the submission was confirmed on the agenda."
          }, member.profileId)
          yield* events.emit("submission.confirmed", moved)
        }))
      return yield* fresh(member, s.submission.id)
    })

    /** The terms in force once accepted: the accepted offer's, or the proposal's own. */
    const agreement = traced("Submissions.agreement")(function*(member: Member, id: string) {
      const s = yield* seen(member, id)
      yield* requireParty(s)
      const submission = s.submission
      if (submission.status !== "aceita" && submission.status !== "confirmada") {
        const message = M.noAgreement(submission.status)
        return yield* Effect.fail(conflict(message, [fieldError("status", message)]))
      }
      const offers = yield* repo.offers(member.communityId, submission.id)
      const agreed = offers.find((row) => row.id === submission.agreedOfferId)
      const terms = agreed === undefined
        ? {
          format: null,
          durationMinutes: null,
          trackId: submission.trackId,
          trackName: submission.trackName,
          fee: null,
          currency: null,
          note: null
        }
        : offerView(agreed).terms
      return {
        submissionId: submission.id,
        status: submission.status,
        title: submission.title,
        abstract: submission.abstract,
        offerId: agreed?.id ?? null,
        offerVersion: agreed?.version ?? null,
        offerSide: agreed?.side ?? null,
        terms,
        acceptedAt: submission.decidedAt?.toISOString() ?? null,
        confirmedAt: submission.confirmedAt?.toISOString() ?? null
      }
    })

    return { decline, decide, confirm, agreement }
  }),
  dependencies: [SubmissionsRepo.Default, SubmissionAccess.Default, SubmissionMail.Default, SubmissionEvents.Default]
}) {}
