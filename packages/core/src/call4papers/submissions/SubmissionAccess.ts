import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"
import { forbidden, invalidField, notFound } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { orNotFound } from "../../domain/found"
import { isUuid } from "../../domain/Ids"
import type { Message } from "../../domain/Text"
import { transactional } from "../../sql/transaction"
import { Access, viewerOfMember } from "../../structure/Access"
import { CallAccess } from "../calls/CallAccess"
import { CallRoles, type CallRow, isPublicCall } from "../calls/CallRoles"
import { SubmissionMessages as M } from "./messages"
import { checkSubmissionMove, MAX_CO_SPEAKERS, type SubmissionMove, type SubmissionStatus } from "./Policy"
import { type SubmissionRow, SubmissionsRepo } from "./Repo"
import { acceptedOnly, type Seen, selves, viewOf } from "./submissionRules"

/**
 * What a member is on a submission (`seen`) or call (`visibleCall`), and the checks and locks the
 * submissions use cases share: a track of the call, co-speakers, a state move or a judgement under the
 * submission's row lock.
 */
export class SubmissionAccess extends Effect.Service<SubmissionAccess>()("@roda/core/call4papers/SubmissionAccess", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* SubmissionsRepo
    const calls = yield* CallRoles
    const access = yield* Access
    const callAccess = yield* CallAccess
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))
    const transaction = transactional(sql)

    const findRow = (communityId: string, id: string) => {
      const value = id.trim().toLowerCase()
      if (!isUuid(value)) return Effect.fail(notFound(M.notFound))
      return repo.find(communityId, value).pipe(orNotFound(M.notFound))
    }

    /**
     * A call the member may see: 404 when gone, of another community, or a draft they do not organise;
     * its space's access rules apply to non-organisers (403 or 404).
     */
    const visibleCall = (member: Member, callId: string) => callAccess.seeCall(viewerOfMember(member), callId)

    /**
     * The submission as this member sees it: 404 when absent, of another community, of a deleted call,
     * or someone else's draft (a draft belongs to its speakers alone); for anyone but organisers and
     * speakers, a call back in draft hides it (404) and the space's access rules apply.
     */
    const seen = (member: Member, id: string) =>
      Effect.gen(function*() {
        const submission = yield* findRow(member.communityId, id)
        const call = yield* calls.callFor(member.communityId, submission.callId)
        const roles = yield* calls.rolesOf(call, member)
        const speakers = yield* repo.speakersOf(member.communityId, [submission.id])
        const me = selves(member)
        const speaker = acceptedOnly(speakers).some((row) => me.includes(row.profileId))
        // a pending invitee reads what they are asked to join (and nothing else of the speakers' part)
        const invitee = speakers.some((row) => row.status === "invited" && me.includes(row.profileId))
        if (submission.status === "rascunho" && !speaker && !invitee) return yield* Effect.fail(notFound(M.notFound))
        if (!roles.organiser && !speaker && !invitee) {
          // like the call itself: a draft call is hidden, and the space's access rules apply
          if (!isPublicCall(call)) return yield* Effect.fail(notFound(M.notFound))
          yield* access.readContent(viewerOfMember(member), call.spaceId)
        }
        const result: Seen = {
          submission,
          call,
          roles,
          speakers,
          proposer: me.includes(submission.proposerProfileId),
          speaker,
          invitee,
          trackReviewer: submission.trackId !== null && roles.reviewerTrackIds.includes(submission.trackId)
        }
        return result
      })

    /** The submission re-read after a change, as the member sees it. */
    const fresh = (member: Member, id: string) => Effect.map(seen(member, id), viewOf)

    /** The track, when given, must be a live track of the call (400, param `trackId`). */
    const checkTrack = (call: CallRow, trackId: string | null | undefined) =>
      Effect.gen(function*() {
        if (trackId === undefined || trackId === null) return null
        const track = yield* calls.trackOf(call, trackId)
        if (Option.isNone(track)) return yield* Effect.fail(invalidField("trackId", M.trackUnknown))
        return track.value.id
      })

    /** Co-speakers: distinct active profiles of the community, not the proposer (400, param `coSpeakers`). */
    const checkCoSpeakers = (member: Member, proposerId: string, input: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const wanted = [...new Set(input.map((id) => id.trim().toLowerCase()))]
        if (wanted.includes(proposerId)) return yield* Effect.fail(invalidField("coSpeakers", M.coSpeakerSelf))
        const found = yield* repo.activeProfiles(member.communityId, wanted)
        const missing = wanted.findIndex((id) => !found.includes(id))
        if (missing >= 0) {
          return yield* Effect.fail(invalidField(`coSpeakers`, M.coSpeakerUnknown))
        }
        return wanted.slice(0, MAX_CO_SPEAKERS)
      })

    /** Runs `body` with the submission row locked and re-read, after the state check of `move`. */
    const locked = <A, E, R>(
      member: Member,
      id: string,
      move: SubmissionMove,
      body: (current: SubmissionRow, to: SubmissionStatus, at: Date) => Effect.Effect<A, E, R>
    ) =>
      transaction(Effect.gen(function*() {
        if ((yield* repo.lock(member.communityId, id)) === undefined) return yield* Effect.fail(notFound(M.notFound))
        const current = yield* findRow(member.communityId, id)
        const to = yield* checkSubmissionMove(current.status, move)
        return yield* body(current, to, yield* now)
      }))

    /**
     * A review or vote, written under the submission's row lock after checking again that the member
     * is not one of its speakers: accepting a co-speaker invitation takes the same lock and refuses
     * whoever reviewed or voted, so the two cannot both pass.
     */
    const judging = <A, E, R, Code extends string>(
      member: Member,
      submissionId: string,
      refused: Message<Code>,
      write: Effect.Effect<A, E, R>
    ) =>
      transaction(Effect.gen(function*() {
        if ((yield* repo.lock(member.communityId, submissionId)) === undefined) {
          return yield* Effect.fail(notFound(M.notFound))
        }
        const speakers = acceptedOnly(yield* repo.speakersOf(member.communityId, [submissionId]))
        const me = selves(member)
        if (speakers.some((row) => me.includes(row.profileId))) return yield* Effect.fail(forbidden(refused))
        return yield* write
      }))

    return { findRow, visibleCall, seen, fresh, checkTrack, checkCoSpeakers, locked, judging }
  }),
  dependencies: [SubmissionsRepo.Default, CallAccess.Default]
}) {}
