import { Clock, Effect } from "effect"
import { conflict, fieldError, forbidden } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { type PageQuery, paginate } from "../../domain/Pagination"
import { traced } from "../../platform/traced"
import { requireOrganiser } from "../calls/Policy"
import { SubmissionMessages as M } from "./messages"
import { openStatuses } from "./Policy"
import { SubmissionsRepo } from "./Repo"
import { SubmissionAccess } from "./SubmissionAccess"
import { SubmissionMail } from "./SubmissionMail"
import { acceptedOnly, byId, IdCursor, requireVoting, showsSpeakers } from "./submissionRules"
import { submissionView, tallyView } from "./view"

/** The open community vote on a call's submissions, when the call has community voting. */
export class Voting extends Effect.Service<Voting>()("@roda/core/call4papers/Voting", {
  effect: Effect.gen(function*() {
    const repo = yield* SubmissionsRepo
    const { judging, seen, visibleCall } = yield* SubmissionAccess
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const ballot = traced("Submissions.ballot")(function*(member: Member, callId: string, query: PageQuery) {
      const { call, roles } = yield* visibleCall(member, callId)
      yield* requireVoting(call)
      const page = yield* paginate(
        query,
        IdCursor,
        (after, limit) => repo.ballot(member.communityId, call.id, member.actingProfileId, { after, limit }),
        byId
      )
      const speakers = yield* repo.speakersOf(member.communityId, page.items.map((row) => row.id))
      return {
        items: page.items.map((row) => ({
          ...submissionView(row, acceptedOnly(speakers), showsSpeakers(call, roles, false)),
          myVote: row.myVote
        })),
        pagination: page.pagination
      }
    })

    /**
     * The member's own vote: one per person and submission. A vote is the voter's choice, so staff
     * acting as someone (X-ProfileId) cannot cast, change or remove it in their name (403).
     */
    const votable = (member: Member, id: string) =>
      Effect.gen(function*() {
        if (member.actingProfileId !== member.profileId) return yield* Effect.fail(forbidden(M.voteOwnConsent))
        const s = yield* seen(member, id)
        yield* requireVoting(s.call)
        if (s.speaker) return yield* Effect.fail(forbidden(M.ownSubmissionVote))
        if (!openStatuses.includes(s.submission.status)) {
          const message = M.notOnBallot(s.submission.status)
          return yield* Effect.fail(conflict(message, [fieldError("status", message)]))
        }
        return s
      })

    const vote = traced("Submissions.vote")(function*(member: Member, id: string, value: number) {
      const s = yield* votable(member, id)
      const at = yield* now
      yield* judging(
        member,
        s.submission.id,
        M.ownSubmissionVote,
        repo.upsertVote({
          communityId: member.communityId,
          submissionId: s.submission.id,
          profileId: member.actingProfileId,
          vote: value,
          now: at
        })
      )
      return { submissionId: s.submission.id, vote: value }
    })

    const unvote = traced("Submissions.unvote")(function*(member: Member, id: string) {
      const s = yield* votable(member, id)
      const removed = yield* repo.deleteVote(member.communityId, s.submission.id, member.actingProfileId)
      return { submissionId: s.submission.id, vote: null, removed }
    })

    const voteResults = traced("Submissions.voteResults")(function*(member: Member, callId: string) {
      const { call, roles } = yield* visibleCall(member, callId)
      yield* requireOrganiser(roles)
      const rows = yield* repo.voted(member.communityId, call.id)
      const tallies = yield* repo.voteTallies(member.communityId, rows.map((row) => row.id))
      const results = rows.map((row) => ({
        submissionId: row.id,
        title: row.title,
        trackId: row.trackId,
        trackName: row.trackName,
        status: row.status,
        ...tallyView(tallies.find((tally) => tally.submissionId === row.id))
      }))
      return {
        callId: call.id,
        communityVoting: call.communityVoting,
        results: results.sort((a, b) =>
          (b.mean ?? 0) - (a.mean ?? 0) || b.count - a.count || a.submissionId.localeCompare(b.submissionId)
        )
      }
    })

    return { ballot, vote, unvote, voteResults }
  }),
  dependencies: [SubmissionsRepo.Default, SubmissionAccess.Default, SubmissionMail.Default]
}) {}
