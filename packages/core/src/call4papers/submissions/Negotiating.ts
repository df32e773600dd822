import { Effect } from "effect"
import { forbidden, invalidField } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { Ids } from "../../platform/Ids"
import { traced } from "../../platform/traced"
import { SubmissionMessages as M } from "./messages"
import { type OfferSide, type SubmissionMove } from "./Policy"
import { type OfferRow, type OfferTerms, SubmissionsRepo } from "./Repo"
import { SubmissionAccess } from "./SubmissionAccess"
import { SubmissionEvents } from "./SubmissionEvents"
import { SubmissionMail } from "./SubmissionMail"
import {
  type OfferInput,
  refuse,
  requireOrganisationSide,
  requireOwnConsent,
  requireParty,
  requireProposer,
  type Seen
} from "./submissionRules"
import { offerView } from "./view"

/** The negotiation of terms: offers and counter-offers of both sides, retracting, accepting the open offer. */
export class Negotiating extends Effect.Service<Negotiating>()("@roda/core/call4papers/Negotiating", {
  effect: Effect.gen(function*() {
    const repo = yield* SubmissionsRepo
    const ids = yield* Ids
    const { notify } = yield* SubmissionMail
    const events = yield* SubmissionEvents
    const { checkTrack, fresh, locked, seen } = yield* SubmissionAccess

    const negotiation = traced("Submissions.negotiation")(function*(member: Member, id: string) {
      const s = yield* seen(member, id)
      yield* requireParty(s)
      const offers = yield* repo.offers(member.communityId, s.submission.id)
      const open = offers.find((offer) => offer.status === "open")
      return {
        submissionId: s.submission.id,
        status: s.submission.status,
        openOfferId: open?.id ?? null,
        agreedOfferId: s.submission.agreedOfferId,
        offers: offers.map(offerView)
      }
    })

    /** The terms of a new offer: the fields sent, over the last offer's (or the proposal's track). */
    const termsOf = (s: Seen, offers: ReadonlyArray<OfferRow>, input: OfferInput) =>
      Effect.gen(function*() {
        const last = offers[offers.length - 1]
        const base: OfferTerms = last === undefined
          ? {
            format: null,
            durationMinutes: null,
            trackId: s.submission.trackId,
            fee: null,
            currency: null,
            note: null
          }
          : {
            format: last.format,
            durationMinutes: last.durationMinutes,
            trackId: last.trackId,
            fee: last.fee === null ? null : Number(last.fee),
            currency: last.currency,
            note: null
          }
        const trackId = input.trackId === undefined ? base.trackId : yield* checkTrack(s.call, input.trackId)
        const terms: OfferTerms = {
          format: input.format === undefined ? base.format : input.format,
          durationMinutes: input.durationMinutes === undefined ? base.durationMinutes : input.durationMinutes,
          trackId,
          fee: input.fee === undefined ? base.fee : input.fee,
          currency: input.currency === undefined ? base.currency : input.currency,
          note: input.note ?? null
        }
        if (terms.fee !== null && terms.currency === null) {
          return yield* Effect.fail(invalidField("currency", M.currencyRequired))
        }
        return terms
      })

    /** A new offer from `side`, replacing the other side's open one; the submission is `em_negociacao`. */
    const offer = (member: Member, id: string, side: OfferSide, move: SubmissionMove, input: OfferInput) =>
      Effect.gen(function*() {
        const s = yield* seen(member, id)
        if (side === "organisation") yield* requireOrganisationSide(s)
        else {
          yield* requireProposer(s)
          yield* requireOwnConsent(member, s.submission)
        }
        yield* locked(member, s.submission.id, move, (current, to, at) =>
          Effect.gen(function*() {
            const offers = yield* repo.offers(member.communityId, current.id)
            const open = offers.find((row) => row.status === "open")
            if (side === "organisation" && open?.side === "organisation") return yield* refuse(M.offerOpenRetractFirst)
            if (side === "speaker" && open?.side !== "organisation") return yield* refuse(M.speakerCounterNeedsOffer)
            const terms = yield* termsOf({ ...s, submission: current }, offers, input)
            if (open !== undefined) {
              yield* repo.closeOpenOffer(member.communityId, current.id, "superseded", member.actingProfileId, at)
            }
            yield* repo.insertOffer({
              id: yield* ids.next,
              communityId: member.communityId,
              submissionId: current.id,
              side,
              authorProfileId: side === "organisation" ? member.profileId : member.actingProfileId,
              terms,
              now: at
            })
            yield* repo.setStatus(member.communityId, current.id, { status: to }, at)
            yield* notify(
              current,
              side === "organisation" ? "speaker" : "organisation",
              side === "organisation" ? "counter-offer" : "speaker-counter",
              side === "organisation"
                ? { pt: "a organização enviou uma contraproposta.", en: "the organisation sent a counter-offer." }
                : { pt: "o palestrante enviou uma contraproposta.", en: "the speaker sent a counter-offer." },
              member.profileId
            )
          }))
        return yield* negotiation(member, s.submission.id)
      })

    const counterOffer = traced("Submissions.counterOffer")(
      function*(member: Member, id: string, input: OfferInput) {
        return yield* offer(member, id, "organisation", "counter-offer", input)
      }
    )

    const speakerCounter = traced("Submissions.speakerCounter")(function*(
      member: Member,
      id: string,
      input: OfferInput
    ) {
      return yield* offer(member, id, "speaker", "speaker-counter", input)
    })

    /** The open offer's author side takes it back: organisers for the organisation, the proposer for theirs. */
    const retract = traced("Submissions.retract")(function*(member: Member, id: string) {
      const s = yield* seen(member, id)
      yield* requireParty(s)
      yield* locked(member, s.submission.id, "counter-offer/retract", (current, to, at) =>
        Effect.gen(function*() {
          const open = (yield* repo.offers(member.communityId, current.id)).find((row) => row.status === "open")
          if (open === undefined) return yield* refuse(M.noOpenOffer)
          const author = open.side === "organisation" ? s.roles.organiser : s.proposer
          if (!author) return yield* Effect.fail(forbidden(M.retractOnlyAuthor))
          yield* repo.closeOpenOffer(member.communityId, current.id, "retracted", member.actingProfileId, at)
          yield* repo.setStatus(member.communityId, current.id, { status: to }, at)
          yield* notify(current, open.side === "organisation" ? "speaker" : "organisation", "retracted", {
            pt: "a contraproposta aberta foi retirada.",
            en: "the open offer was retracted."
          }, member.profileId)
        }))
      return yield* negotiation(member, s.submission.id)
    })

    /** Accepting the other side's open offer: its terms are the agreement. */
    const accept = traced("Submissions.accept")(function*(member: Member, id: string) {
      const s = yield* seen(member, id)
      yield* requireParty(s)
      yield* locked(member, s.submission.id, "accept", (current, to, at) =>
        Effect.gen(function*() {
          const open = (yield* repo.offers(member.communityId, current.id)).find((row) => row.status === "open")
          if (open === undefined) return yield* refuse(M.noOpenOffer)
          const mayAccept = open.side === "organisation" ? s.proposer : s.roles.organiser
          if (!mayAccept) return yield* refuse(M.acceptOtherSide)
          if (open.side === "organisation") yield* requireOwnConsent(member, current)
          else yield* requireOrganisationSide(s)
          yield* repo.closeOpenOffer(member.communityId, current.id, "accepted", member.actingProfileId, at)
          const moved = yield* repo.setStatusReturning(
            member.communityId,
            current.id,
            { status: to, decidedAt: at, agreedOfferId: open.id },
            at
          )
          yield* notify(current, open.side, "accepted", {
            pt: "a contraproposta foi aceita.",
            en: "the offer was accepted."
          }, member.profileId)
          yield* events.emit("submission.decided", moved)
        }))
      return yield* fresh(member, s.submission.id)
    })

    return { negotiation, counterOffer, speakerCounter, retract, accept }
  }),
  dependencies: [SubmissionsRepo.Default, SubmissionAccess.Default, SubmissionMail.Default, SubmissionEvents.Default]
}) {}
