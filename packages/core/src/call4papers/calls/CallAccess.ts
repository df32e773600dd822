import { Clock, Effect, Option } from "effect"
import { notFound } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { orNotFound } from "../../domain/found"
import { Access, type Viewer } from "../../structure/Access"
import { notFoundAs } from "../lookups"
import { CallRoles, type CallRolesOf, type CallRow, isPublicCall } from "./CallRoles"
import { lower } from "./callRules"
import { CallMessages } from "./messages"
import { defaultSpaceMode, requireOrganiser } from "./Policy"
import { CallsRepo } from "./Repo"
import { callView } from "./view"

/**
 * Who may see or organise what, for both halves of calls for papers: a call4papers space, a call
 * (its space readable, a draft only for its organisers), and the call or track one organises.
 */
export class CallAccess extends Effect.Service<CallAccess>()("@roda/core/call4papers/CallAccess", {
  effect: Effect.gen(function*() {
    const repo = yield* CallsRepo
    const roles = yield* CallRoles
    const access = yield* Access
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    /** The space if it is a call4papers space the viewer may see; 404 otherwise. */
    const callSpaceOf = (read: boolean) =>
      access.spaceOf("call4papers", { in: "path", otherModule: CallMessages.notACallSpace }, { read })
    const [seenCallSpace, readCallSpace] = [callSpaceOf(false), callSpaceOf(true)]
    const callSpace = (viewer: Viewer, spaceId: string, read: boolean) =>
      (read ? readCallSpace : seenCallSpace)(viewer, spaceId)

    /** Who may open a call in the space (`defaultSpaceMode` until staff configure it). */
    const modeOf = (communityId: string, spaceId: string) =>
      Effect.map(repo.spaceMode(communityId, spaceId), (row) => ({
        mode: Option.match(row, { onNone: () => defaultSpaceMode, onSome: (value) => value.mode }),
        updatedAt: Option.match(row, { onNone: () => null, onSome: (value) => value.updatedAt.toISOString() })
      }))

    /** The call as the viewer may see it: its space readable, a draft only for organisers (404). */
    const visibleCall = (viewer: Viewer, call: CallRow) =>
      Effect.gen(function*() {
        const callerRoles = yield* roles.rolesOf(call, viewer.member)
        if (!isPublicCall(call) && !callerRoles.organiser) {
          return yield* Effect.fail(notFound(CallMessages.callNotFound))
        }
        if (!callerRoles.organiser) yield* access.readContent(viewer, call.spaceId)
        return callerRoles
      })

    /** The call of an id as the viewer may see it (see `visibleCall`), with what they are on it. */
    const seeCall = (viewer: Viewer, id: string) =>
      Effect.gen(function*() {
        const call = yield* roles.callFor(viewer.communityId, id)
        const callerRoles = yield* visibleCall(viewer, call)
        return { call, roles: callerRoles }
      })

    /** The call for one of its organisers: 404 when the member may not even see it, else 403. */
    const organise = (member: Member, call: CallRow) =>
      Effect.gen(function*() {
        const callerRoles = yield* roles.rolesOf(call, member)
        if (!callerRoles.organiser) {
          if (!isPublicCall(call)) return yield* Effect.fail(notFound(CallMessages.callNotFound))
          yield* requireOrganiser(callerRoles)
        }
        return callerRoles
      })

    const managed = (member: Member, id: string) =>
      Effect.gen(function*() {
        const call = yield* roles.callFor(member.communityId, id)
        yield* organise(member, call)
        return call
      })

    /** The call's view, with what the caller is on it. */
    const detailOf = (call: CallRow, callerRoles: CallRolesOf) =>
      Effect.map(now, (at) => ({
        ...callView(call, at),
        viewer: {
          organiser: callerRoles.organiser,
          owner: callerRoles.owner,
          reviewerTrackIds: callerRoles.reviewerTrackIds
        }
      }))

    /** The track (of a live call) for one of the call's organisers. */
    const managedTrack = (member: Member, trackId: string) =>
      Effect.gen(function*() {
        const track = yield* repo.findTrack(member.communityId, lower(trackId)).pipe(
          orNotFound(CallMessages.trackNotFound)
        )
        const call = yield* roles.callFor(member.communityId, track.callId)
        yield* organise(member, call).pipe(notFoundAs(CallMessages.trackNotFound))
        return { track, call }
      })

    return { callSpace, modeOf, visibleCall, seeCall, organise, managed, managedTrack, detailOf }
  }),
  dependencies: [CallsRepo.Default, CallRoles.Default]
}) {}
