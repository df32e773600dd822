import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import { conflict, fieldError } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { type Page, paginate } from "../../domain/Pagination"
import { Ids } from "../../platform/Ids"
import { traced } from "../../platform/traced"
import { transactional } from "../../sql/transaction"
import { acceptsSubmissions, CallRoles } from "../calls/CallRoles"
import { SubmissionMessages as M } from "./messages"
import { type SubmissionRow, SubmissionsRepo } from "./Repo"
import { SubmissionAccess } from "./SubmissionAccess"
import { SubmissionEvents } from "./SubmissionEvents"
import { SubmissionMail } from "./SubmissionMail"
import {
  acceptedOnly,
  byId,
  IdCursor,
  type NewSubmissionInput,
  readable,
  requireProposer,
  selves,
  showsSpeakers,
  speakersFor,
  type SubmissionChangesInput,
  type SubmissionQuery,
  viewOf
} from "./submissionRules"
import { submissionView, versionView } from "./view"

/** A proposer's side: proposing, editing a draft, submitting, withdrawing; the contextual lists. */
export class Proposing extends Effect.Service<Proposing>()("@roda/core/call4papers/Proposing", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* SubmissionsRepo
    const calls = yield* CallRoles
    const ids = yield* Ids
    const { inviteCoSpeakers, notify } = yield* SubmissionMail
    const events = yield* SubmissionEvents
    const { checkCoSpeakers, checkTrack, fresh, locked, seen, visibleCall } = yield* SubmissionAccess
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))
    const transaction = transactional(sql)

    const create = traced("Submissions.create")(
      function*(member: Member, callId: string, input: NewSubmissionInput) {
        const { call } = yield* visibleCall(member, callId)
        if (!acceptsSubmissions(call, yield* now)) {
          const message = M.callNotOpen(call.status)
          return yield* Effect.fail(conflict(message, [fieldError("status", message)]))
        }
        const trackId = yield* checkTrack(call, input.trackId)
        const proposerId = member.actingProfileId
        const coSpeakers = yield* checkCoSpeakers(member, proposerId, input.coSpeakers ?? [])
        const id = yield* ids.next
        const at = yield* now
        yield* transaction(Effect.gen(function*() {
          yield* repo.insert({
            id,
            communityId: member.communityId,
            callId: call.id,
            trackId,
            proposerProfileId: proposerId,
            title: input.title,
            abstract: input.abstract,
            createdAt: at,
            updatedAt: at
          })
          yield* repo.setSpeakers(member.communityId, id, proposerId, coSpeakers)
          yield* repo.insertVersion({
            communityId: member.communityId,
            submissionId: id,
            version: 1,
            title: input.title,
            abstract: input.abstract,
            trackId,
            coSpeakerProfileIds: coSpeakers,
            authorProfileId: proposerId,
            createdAt: at
          })
        }))
        yield* inviteCoSpeakers(member.communityId, id, input.title, call.title, coSpeakers, proposerId)
        return yield* detail(member, id)
      }
    )

    const detail = traced("Submissions.detail")(function*(member: Member, id: string) {
      const s = yield* seen(member, id)
      // a pending invitee reads the submission they are asked to join (not its reviews or versions)
      if (!s.invitee) yield* readable(s)
      const versions = s.speaker || s.roles.organiser ? yield* repo.versions(member.communityId, s.submission.id) : []
      // an accepted co-speaker reads the names the proposer saved only of those who accepted too
      const accepted: ReadonlyArray<string> = acceptedOnly(s.speakers).map((row) => row.profileId)
      const named = (ids: ReadonlyArray<string>) =>
        s.proposer || s.roles.organiser ? ids : ids.filter((profileId) => accepted.includes(profileId))
      return {
        ...viewOf(s),
        versions: versions.map((row) => versionView({ ...row, coSpeakerProfileIds: named(row.coSpeakerProfileIds) }))
      }
    })

    const update = traced("Submissions.update")(
      function*(member: Member, id: string, input: SubmissionChangesInput) {
        const s = yield* seen(member, id)
        if (!s.invitee) yield* readable(s)
        yield* requireProposer(s)
        const trackId = input.trackId === undefined ? s.submission.trackId : yield* checkTrack(s.call, input.trackId)
        const coSpeakers = input.coSpeakers === undefined
          ? s.speakers.filter((row) => row.role === "co_speaker").map((row) => row.profileId)
          : yield* checkCoSpeakers(member, s.submission.proposerProfileId, input.coSpeakers)
        const invited = yield* locked(member, s.submission.id, "edit", (current, _to, at) =>
          Effect.gen(function*() {
            const speakers = yield* repo.speakersOf(member.communityId, [current.id])
            const before: ReadonlyArray<string> = speakers.map((row) => row.profileId)
            const changes = {
              title: input.title ?? current.title,
              abstract: input.abstract ?? current.abstract,
              trackId
            }
            const version = yield* repo.edit(member.communityId, current.id, changes, at)
            if (input.coSpeakers !== undefined) {
              yield* repo.setSpeakers(member.communityId, current.id, current.proposerProfileId, coSpeakers)
            }
            yield* repo.insertVersion({
              communityId: member.communityId,
              submissionId: current.id,
              version,
              ...changes,
              coSpeakerProfileIds: coSpeakers,
              authorProfileId: member.actingProfileId,
              createdAt: at
            })
            const added = input.coSpeakers === undefined ? [] : coSpeakers.filter((id) => !before.includes(id))
            return { title: changes.title, added }
          }))
        yield* inviteCoSpeakers(
          member.communityId,
          s.submission.id,
          invited.title,
          s.call.title,
          invited.added,
          member.actingProfileId
        )
        return yield* detail(member, s.submission.id)
      }
    )

    const submit = traced("Submissions.submit")(function*(member: Member, id: string) {
      const s = yield* seen(member, id)
      yield* requireProposer(s)
      yield* locked(member, s.submission.id, "submit", (current, to, at) =>
        Effect.gen(function*() {
          if (!acceptsSubmissions(s.call, at)) {
            const message = M.callNotOpen(s.call.status)
            return yield* Effect.fail(conflict(message, [fieldError("status", message)]))
          }
          const moved = yield* repo.setStatusReturning(
            member.communityId,
            current.id,
            { status: to, submittedAt: at },
            at
          )
          yield* notify(current, "organisation", "submitted", {
            pt: "nova proposta enviada.",
            en: "a new submission was submitted."
          }, member.actingProfileId)
          yield* events.emit("submission.submitted", moved)
        }))
      return yield* fresh(member, s.submission.id)
    })

    const withdraw = traced("Submissions.withdraw")(function*(member: Member, id: string) {
      const s = yield* seen(member, id)
      yield* requireProposer(s)
      yield* locked(member, s.submission.id, "withdraw", (current, to, at) =>
        Effect.gen(function*() {
          yield* repo.closeOpenOffer(member.communityId, current.id, "closed", member.actingProfileId, at)
          yield* repo.setStatus(member.communityId, current.id, { status: to, withdrawnAt: at }, at)
          if (current.status !== "rascunho") {
            yield* notify(current, "organisation", "withdrawn", {
              pt: "o palestrante retirou a proposta.",
              en: "the speaker withdrew the submission."
            }, member.actingProfileId)
          }
        }))
      return yield* fresh(member, s.submission.id)
    })

    /** A page of submissions with their speakers, as the member sees them. */
    const listOf = (
      member: Member,
      page: Page<SubmissionRow>,
      hide?: (row: SubmissionRow) => boolean,
      organiser = false
    ) =>
      Effect.gen(function*() {
        const speakers = yield* repo.speakersOf(member.communityId, page.items.map((row) => row.id))
        const me = selves(member)
        return {
          items: page.items.map((row) =>
            submissionView(
              row,
              speakersFor(speakers, organiser || me.includes(row.proposerProfileId)),
              hide === undefined ? true : !hide(row)
            )
          ),
          pagination: page.pagination
        }
      })

    /** Organisers see every submission but others' drafts; reviewers their tracks'; everyone their own. */
    const list = traced("Submissions.list")(function*(member: Member, callId: string, query: SubmissionQuery) {
      const { call, roles } = yield* visibleCall(member, callId)
      const page = yield* paginate(query, IdCursor, (after, limit) =>
        repo.list(member.communityId, call.id, {
          ownProfileId: member.actingProfileId,
          all: roles.organiser,
          trackIds: roles.reviewerTrackIds
        }, {
          after,
          limit,
          status: query.status,
          trackId: query.trackId?.toLowerCase()
        }), byId)
      const me = selves(member)
      return yield* listOf(
        member,
        page,
        (row) => !showsSpeakers(call, roles, me.includes(row.proposerProfileId)),
        roles.organiser
      )
    })

    const mine = traced("Submissions.mine")(
      function*(member: Member, callId: string | undefined, query: SubmissionQuery) {
        const call = callId === undefined ? undefined : yield* calls.callFor(member.communityId, callId)
        const page = yield* paginate(
          query,
          IdCursor,
          (after, limit) =>
            repo.listOwn(member.communityId, member.actingProfileId, call?.id, {
              after,
              limit,
              status: query.status
            }),
          byId
        )
        return yield* listOf(member, page)
      }
    )

    return { create, detail, update, submit, withdraw, list, mine }
  }),
  dependencies: [SubmissionsRepo.Default, SubmissionAccess.Default, SubmissionMail.Default, SubmissionEvents.Default]
}) {}
