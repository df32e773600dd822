import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import { conflict, fieldError, forbidden, notFound } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { traced } from "../../platform/traced"
import { transactional } from "../../sql/transaction"
import { SubmissionMessages as M } from "./messages"
import { checkCoSpeakerMove, closedToCoSpeakers, type CoSpeakerMove } from "./Policy"
import { SubmissionsRepo } from "./Repo"
import { SubmissionAccess } from "./SubmissionAccess"
import { SubmissionMail } from "./SubmissionMail"

/** A named co-speaker gives or refuses their consent, with their own token. */
export class CoSpeaking extends Effect.Service<CoSpeaking>()("@roda/core/call4papers/CoSpeaking", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* SubmissionsRepo
    const { notify } = yield* SubmissionMail
    const { findRow } = yield* SubmissionAccess
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))
    const transaction = transactional(sql)

    /**
     * The invited co-speaker answers, with their own token only (staff acting as them with X-ProfileId:
     * 403, as for owner and reviewer invitations). 404 when the caller has no invitation on the
     * submission; 409 when already answered (the transition table), or when accepting a submission that
     * was withdrawn or refused. The submission row is locked, and
     * the answer is a conditional update, so concurrent answers settle once.
     */
    const answerCoSpeaker = (member: Member, id: string, move: CoSpeakerMove) =>
      Effect.gen(function*() {
        const submission = yield* findRow(member.communityId, id)
        const answered = yield* transaction(Effect.gen(function*() {
          const status = yield* repo.lock(member.communityId, submission.id)
          if (status === undefined) return yield* Effect.fail(notFound(M.notFound))
          const rows = (yield* repo.speakersOf(member.communityId, [submission.id])).filter((row) =>
            row.role === "co_speaker"
          )
          const row = rows.find((r) => r.profileId === member.profileId) ??
            rows.find((r) => r.profileId === member.actingProfileId)
          if (row === undefined) return yield* Effect.fail(notFound(M.coSpeakerInvitationNotFound))
          if (row.profileId !== member.profileId) return yield* Effect.fail(forbidden(M.coSpeakerOwnConsent))
          const to = yield* checkCoSpeakerMove(row.status, move)
          // nobody joins a proposal that was withdrawn or refused (declining stays possible)
          if (to === "accepted" && closedToCoSpeakers.includes(status)) {
            const message = M.coSpeakerClosed(status)
            return yield* Effect.fail(conflict(message, [fieldError("status", message)]))
          }
          // no one speaks on a proposal they judged (reviews and votes take the same row lock)
          if (to === "accepted" && (yield* repo.reviewedOrVoted(member.communityId, submission.id, row.profileId))) {
            return yield* Effect.fail(forbidden(M.coSpeakerAfterJudging))
          }
          if (!(yield* repo.answerCoSpeaker(member.communityId, submission.id, row.profileId, to, yield* now))) {
            const again = (yield* repo.speakersOf(member.communityId, [submission.id])).find((r) =>
              r.profileId === row.profileId
            )
            if (again === undefined) return yield* Effect.fail(notFound(M.coSpeakerInvitationNotFound))
            yield* checkCoSpeakerMove(again.status, move)
          }
          return { submissionId: submission.id, profileId: row.profileId, fullName: row.fullName, status: to }
        }))
        yield* notify(
          submission,
          "speaker",
          `co-speaker-${answered.status}`,
          answered.status === "accepted"
            ? { pt: `${answered.fullName} aceitou ser coautor(a).`, en: `${answered.fullName} accepted to co-speak.` }
            : { pt: `${answered.fullName} recusou ser coautor(a).`, en: `${answered.fullName} declined to co-speak.` },
          member.profileId
        )
        return { submissionId: answered.submissionId, profileId: answered.profileId, status: answered.status }
      })

    const acceptCoSpeaking = traced("Submissions.acceptCoSpeaking")(function*(member: Member, id: string) {
      return yield* answerCoSpeaker(member, id, "accept")
    })

    const declineCoSpeaking = traced("Submissions.declineCoSpeaking")(function*(member: Member, id: string) {
      return yield* answerCoSpeaker(member, id, "decline")
    })

    return { acceptCoSpeaking, declineCoSpeaking }
  }),
  dependencies: [SubmissionsRepo.Default, SubmissionAccess.Default, SubmissionMail.Default]
}) {}
