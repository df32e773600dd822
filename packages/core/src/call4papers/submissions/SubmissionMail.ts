import { Effect } from "effect"
import { Notify } from "../../notifications/Notify"
import { Mailer } from "../../platform/Mailer"
import { type OfferSide } from "./Policy"
import { type SubmissionRow, SubmissionsRepo } from "./Repo"

/**
 * The e-mails of submissions: to the other side of a move, and the invitations (to co-speak, to
 * submit). What reaches speakers and invited members is also their notification (`submission_update`,
 * `invitation`), and their e-mail goes only to those who want that kind by e-mail.
 */
export class SubmissionMail extends Effect.Service<SubmissionMail>()("@roda/core/call4papers/SubmissionMail", {
  effect: Effect.gen(function*() {
    const repo = yield* SubmissionsRepo
    const mailer = yield* Mailer
    const { notifyMailing } = yield* Notify

    const mail = (communityId: string, emails: ReadonlyArray<string>, kind: string, subject: string, body: string) =>
      Effect.forEach(
        [...new Set(emails)],
        (to) => mailer.send({ to, communityId, kind: `call4papers.${kind}`, subject, text: body }),
        { discard: true }
      )

    const send = (
      communityId: string,
      recipients: ReadonlyArray<string>,
      kind: string,
      subject: string,
      body: string
    ) =>
      Effect.flatMap(repo.emailsOf(communityId, recipients), (emails) => mail(communityId, emails, kind, subject, body))

    /** `invitation` to `profileIds` (the actor excepted), then the e-mail to those who want it. */
    const invite = (
      communityId: string,
      profileIds: ReadonlyArray<string>,
      invitation: { actorProfileId: string; subject: { type: string; id: string; title: string } },
      kind: string,
      subject: string,
      body: string
    ) =>
      Effect.flatMap(
        notifyMailing(communityId, { kind: "invitation", recipients: profileIds, ...invitation }),
        (wanting) => send(communityId, wanting, kind, subject, body)
      )

    /**
     * Tells the other side of a move: the organisation (the call's creator and owners) by e-mail; or
     * the speakers (the actor excepted) with a `submission_update`, e-mailed to those who want it.
     */
    const notify = (
      submission: SubmissionRow,
      to: OfferSide,
      kind: string,
      what: { pt: string; en: string },
      actorProfileId: string
    ) =>
      Effect.gen(function*() {
        const { communityId } = submission
        const subject = `${submission.title}: ${what.pt} / ${what.en}`
        const body = `Proposta "${submission.title}" na chamada "${submission.callTitle}": ${what.pt}\n\n` +
          `Submission "${submission.title}" to the call "${submission.callTitle}": ${what.en}\n`
        if (to === "organisation") {
          const organisers = yield* repo.organiserProfiles(communityId, submission.callId)
          return yield* send(communityId, organisers, kind, subject, body)
        }
        const speakers = yield* repo.speakerContacts(communityId, submission.id)
        const wanting = new Set(
          yield* notifyMailing(communityId, {
            kind: "submission_update",
            recipients: speakers.map((speaker) => speaker.profileId),
            actorProfileId,
            subject: { type: "submission", id: submission.id, title: submission.title }
          })
        )
        const emails = speakers.filter((speaker) => wanting.has(speaker.profileId)).map((speaker) => speaker.email)
        yield* mail(communityId, emails, kind, subject, body)
      })

    /**
     * Asks each newly named co-speaker for their consent (`invitation`, and an e-mail): they are
     * `invited`, not speakers, until they answer with their own token (`co-speaker/accept` or `/decline`).
     */
    const inviteCoSpeakers = (
      communityId: string,
      submissionId: string,
      title: string,
      callTitle: string,
      profileIds: ReadonlyArray<string>,
      actorProfileId: string
    ) =>
      profileIds.length === 0 ? Effect.void : invite(
        communityId,
        profileIds,
        { actorProfileId, subject: { type: "submission", id: submissionId, title } },
        "co-speaker-invitation",
        `Convite de coautoria: ${title} / Co-speaker invitation: ${title}`,
        `Você foi convidado(a) como coautor(a) da proposta "${title}" na chamada "${callTitle}". ` +
          `Você só aparece como palestrante se aceitar: POST /api/call4papers/submissions/${submissionId}/co-speaker/accept ` +
          `(ou /co-speaker/decline para recusar).\n\n` +
          `You were invited as a co-speaker of the submission "${title}" to the call "${callTitle}". ` +
          `You are a speaker only if you accept: POST /api/call4papers/submissions/${submissionId}/co-speaker/accept ` +
          `(or /co-speaker/decline to refuse).\n`
      )

    return { send, invite, notify, inviteCoSpeakers }
  }),
  dependencies: [SubmissionsRepo.Default]
}) {}
