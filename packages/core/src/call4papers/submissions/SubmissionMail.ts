import { Effect } from "effect"
import { Mailer } from "../../platform/Mailer"
import { type OfferSide } from "./Policy"
import { type SubmissionRow, SubmissionsRepo } from "./Repo"

/** The e-mails of submissions: to the other side of a move, and the invitations to co-speak. */
export class SubmissionMail extends Effect.Service<SubmissionMail>()("@roda/core/call4papers/SubmissionMail", {
  effect: Effect.gen(function*() {
    const repo = yield* SubmissionsRepo
    const mailer = yield* Mailer

    const send = (
      communityId: string,
      recipients: ReadonlyArray<string>,
      kind: string,
      subject: string,
      body: string
    ) =>
      Effect.gen(function*() {
        const emails = yield* repo.emailsOf(communityId, recipients)
        yield* Effect.forEach(
          emails,
          (to) => mailer.send({ to, communityId, kind: `call4papers.${kind}`, subject, text: body }),
          { discard: true }
        )
      })

    /** Tells the other side of a move: the proposer, or the organisation (the call's creator and owners). */
    const notify = (submission: SubmissionRow, to: OfferSide, kind: string, what: { pt: string; en: string }) =>
      Effect.gen(function*() {
        const recipients = to === "speaker"
          ? [submission.proposerProfileId]
          : yield* repo.organiserProfiles(submission.communityId, submission.callId)
        yield* send(
          submission.communityId,
          recipients,
          kind,
          `${submission.title}: ${what.pt} / ${what.en}`,
          `Proposta "${submission.title}" na chamada "${submission.callTitle}": ${what.pt}\n\n` +
            `Submission "${submission.title}" to the call "${submission.callTitle}": ${what.en}\n`
        )
      })

    /**
     * Asks each newly named co-speaker for their consent, by e-mail: they are `invited`, not speakers,
     * until they answer with their own token (`co-speaker/accept` or `co-speaker/decline`).
     */
    const inviteCoSpeakers = (
      communityId: string,
      submissionId: string,
      title: string,
      callTitle: string,
      profileIds: ReadonlyArray<string>
    ) =>
      Effect.forEach(profileIds, (profileId) =>
        send(
          communityId,
          [profileId],
          "co-speaker-invitation",
          `Convite de coautoria: ${title} / Co-speaker invitation: ${title}`,
          `Você foi convidado(a) como coautor(a) da proposta "${title}" na chamada "${callTitle}". ` +
            `Você só aparece como palestrante se aceitar: POST /api/call4papers/submissions/${submissionId}/co-speaker/accept ` +
            `(ou /co-speaker/decline para recusar).\n\n` +
            `You were invited as a co-speaker of the submission "${title}" to the call "${callTitle}". ` +
            `You are a speaker only if you accept: POST /api/call4papers/submissions/${submissionId}/co-speaker/accept ` +
            `(or /co-speaker/decline to refuse).\n`
        ), { discard: true })

    return { send, notify, inviteCoSpeakers }
  }),
  dependencies: [SubmissionsRepo.Default]
}) {}
