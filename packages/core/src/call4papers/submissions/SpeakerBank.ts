import { Clock, Effect } from "effect"
import { conflict, fieldError, forbidden, invalidField } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { type PageQuery, paginate } from "../../domain/Pagination"
import { requireVerifiedEmail } from "../../domain/Policy"
import { isStaff } from "../../domain/Role"
import { Ids } from "../../platform/Ids"
import { traced } from "../../platform/traced"
import { requireOrganiser } from "../calls/Policy"
import { SubmissionMessages as M } from "./messages"
import { SubmissionsRepo } from "./Repo"
import { SubmissionAccess } from "./SubmissionAccess"
import { SubmissionMail } from "./SubmissionMail"
import { IdCursor } from "./submissionRules"

/** The speaker bank: who proposed in the community's calls, and inviting one of them to a call. */
export class SpeakerBank extends Effect.Service<SpeakerBank>()("@roda/core/call4papers/SpeakerBank", {
  effect: Effect.gen(function*() {
    const repo = yield* SubmissionsRepo
    const ids = yield* Ids
    const { invite } = yield* SubmissionMail
    const { visibleCall } = yield* SubmissionAccess
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    /**
     * Whose bank the member reads: staff read the whole community's (`undefined`); an accepted owner of
     * a call reads the bank of the calls they own only (their profile id), never other calls' speakers
     * and proposals, which they may not see either (a blind call's reviewer who opens a call of their own
     * must not learn its speakers); anyone else 403.
     */
    const bankScope = (member: Member) =>
      Effect.gen(function*() {
        if (isStaff(member.role)) return undefined
        if (yield* repo.ownsAnyCall(member.communityId, member.profileId)) return member.profileId
        return yield* Effect.fail(forbidden(M.speakersRefused))
      })

    const speakers = traced("Submissions.speakers")(function*(member: Member, query: PageQuery) {
      const ownerProfileId = yield* bankScope(member)
      const page = yield* paginate(
        query,
        IdCursor,
        (after, limit) => repo.bank(member.communityId, { after, limit, ownerProfileId }),
        (row) => [row.profileId]
      )
      const proposals = yield* repo.submissionsOfSpeakers(
        member.communityId,
        page.items.map((row) => row.profileId),
        ownerProfileId
      )
      return {
        items: page.items.map((person) => ({
          profileId: person.profileId,
          fullName: person.fullName,
          avatarUrl: person.avatarUrl,
          submissions: proposals.filter((row) => row.speakerProfileId === person.profileId).map((row) => ({
            id: row.id,
            callId: row.callId,
            callTitle: row.callTitle,
            title: row.title,
            trackName: row.trackName,
            status: row.status,
            role: row.speakerRole === "proposer" ? "proposer" as const : "co_speaker" as const
          }))
        })),
        pagination: page.pagination
      }
    })

    const inviteSpeaker = traced("Submissions.inviteSpeaker")(function*(
      member: Member,
      callId: string,
      input: { readonly profileId: string; readonly message?: string | null | undefined }
    ) {
      const { call, roles } = yield* visibleCall(member, callId)
      yield* requireOrganiser(roles)
      // issue 52: inviting others by e-mail needs a confirmed e-mail (as profile invitations do)
      yield* requireVerifiedEmail(member.account)
      if (call.status !== "published") {
        const message = M.callNotPublished(call.status)
        return yield* Effect.fail(conflict(message, [fieldError("status", message)]))
      }
      const profileId = input.profileId.toLowerCase()
      // organisers who are not staff invite from the bank of the calls they own (see `bankScope`)
      const ownerProfileId = roles.staff ? undefined : member.profileId
      if (!(yield* repo.inBank(member.communityId, profileId, ownerProfileId))) {
        return yield* Effect.fail(invalidField("profileId", M.notInBank))
      }
      const id = yield* ids.next
      const at = yield* now
      const inserted = yield* repo.insertInvitation({
        id,
        communityId: member.communityId,
        callId: call.id,
        profileId,
        invitedByProfileId: member.profileId,
        message: input.message ?? null,
        createdAt: at
      })
      if (!inserted) {
        return yield* Effect.fail(conflict(M.alreadyInvited, [fieldError("profileId", M.alreadyInvited)]))
      }
      const note = input.message ? `\n\n${input.message}` : ""
      yield* invite(
        member.communityId,
        [profileId],
        { actorProfileId: member.profileId, subject: { type: "call", id: call.id, title: call.title } },
        "speaker-invitation",
        `Convite para enviar uma proposta: ${call.title} / Invitation to submit: ${call.title}`,
        `Você foi convidado a enviar uma proposta para a chamada "${call.title}".${note}\n\n` +
          `You are invited to submit a proposal to the call "${call.title}".${note}\n`
      )
      return { id, callId: call.id, profileId, message: input.message ?? null, createdAt: at.toISOString() }
    })

    return { speakers, inviteSpeaker }
  }),
  dependencies: [SubmissionsRepo.Default, SubmissionAccess.Default, SubmissionMail.Default]
}) {}
