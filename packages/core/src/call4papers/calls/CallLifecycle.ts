import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import { Conflict, isKind } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { slugify } from "../../domain/Fields"
import { requireRole, requireVerifiedEmail } from "../../domain/Policy"
import { staffRoles } from "../../domain/Role"
import { Ids } from "../../platform/Ids"
import { traced } from "../../platform/traced"
import { insertWithFreeSlug } from "../../sql/freeSlug"
import { transactional } from "../../sql/transaction"
import { Access, type Viewer, viewerOfMember } from "../../structure/Access"
import { CallAccess } from "./CallAccess"
import { CallRoles } from "./CallRoles"
import { type CallChangesInput, checkCallDates, type NewCallInput, onUnique, taken } from "./callRules"
import { CallMessages } from "./messages"
import { type CallMove, callMoves, type CallStatus, checkCallMove, checkCallStatus } from "./Policy"
import { type CallFields, CallsRepo } from "./Repo"
import { callView } from "./view"

/**
 * A call's life: opening one in a call4papers space (`open`), reading, editing and removing it, and its
 * status moves (design/states.md "Call for papers").
 */
export class CallLifecycle extends Effect.Service<CallLifecycle>()("@roda/core/call4papers/CallLifecycle", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* CallsRepo
    const roles = yield* CallRoles
    const access = yield* Access
    const ids = yield* Ids
    const { detailOf, managed, modeOf, seeCall } = yield* CallAccess
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    /** The space of a new call: given, visible and readable (403), a call4papers space (400 otherwise). */
    const newCallSpace = access.spaceOf("call4papers", {
      in: "body",
      required: CallMessages.spaceIdRequired,
      unknown: CallMessages.spaceNotFound,
      otherModule: CallMessages.notACallSpace
    }, { read: true })

    const open = traced("Calls.open")(function*(member: Member, input: NewCallInput) {
      const space = yield* newCallSpace(viewerOfMember(member), input.spaceId)
      const { mode } = yield* modeOf(member.communityId, space.spaceId)
      if (mode !== "members") yield* requireRole(member, staffRoles)
      // issue 52: opening a call needs a confirmed e-mail
      yield* requireVerifiedEmail(member.account)
      const fields: CallFields = {
        title: input.title,
        slug: input.slug ?? (slugify(input.title) || "chamada"),
        description: input.description ?? null,
        opensAt: input.opensAt ? new Date(input.opensAt) : null,
        closesAt: input.closesAt ? new Date(input.closesAt) : null,
        communityVoting: input.communityVoting ?? false,
        anonymousReviews: input.anonymousReviews ?? false
      }
      yield* checkCallDates(fields)
      const id = yield* ids.next
      const at = yield* now
      yield* transactional(sql)(Effect.gen(function*() {
        yield* insertWithFreeSlug({
          sql,
          slug: fields.slug,
          generated: input.slug === undefined,
          insert: (slug) =>
            repo.insertCall({
              ...fields,
              slug,
              id,
              communityId: member.communityId,
              spaceId: space.spaceId,
              createdByProfileId: member.profileId,
              createdAt: at,
              updatedAt: at
            }),
          randomSuffix: ids.next
        }).pipe(
          Effect.catchIf(isKind(Conflict), () => Effect.fail(taken("slug", CallMessages.slugTaken)))
        )
        yield* repo.inviteOwner({
          id: yield* ids.next,
          communityId: member.communityId,
          callId: id,
          profileId: member.profileId,
          status: "accepted",
          invitedByProfileId: member.profileId
        }, at)
      }))
      return callView(yield* roles.callFor(member.communityId, id), at)
    })

    const detail = traced("Calls.detail")(function*(viewer: Viewer, id: string) {
      const { call, roles: callerRoles } = yield* seeCall(viewer, id)
      return yield* detailOf(call, callerRoles)
    })
    const update = traced("Calls.update")(function*(member: Member, id: string, input: CallChangesInput) {
      const call = yield* managed(member, id)
      const changes: { -readonly [K in keyof CallFields]?: CallFields[K] } = {}
      if (input.title !== undefined) changes.title = input.title
      if (input.slug !== undefined) changes.slug = input.slug
      if (input.description !== undefined) changes.description = input.description
      if (input.opensAt !== undefined) changes.opensAt = input.opensAt === null ? null : new Date(input.opensAt)
      if (input.closesAt !== undefined) changes.closesAt = input.closesAt === null ? null : new Date(input.closesAt)
      if (input.communityVoting !== undefined) changes.communityVoting = input.communityVoting
      if (input.anonymousReviews !== undefined) changes.anonymousReviews = input.anonymousReviews
      yield* checkCallDates({ ...call, ...changes })
      const at = yield* now
      if (Object.keys(changes).length > 0) {
        yield* sql.withTransaction(repo.updateCall(member.communityId, call.id, changes, at)).pipe(
          onUnique(() => taken("slug", CallMessages.slugTaken))
        )
      }
      return callView(yield* roles.callFor(member.communityId, call.id), at)
    })

    const remove = traced("Calls.remove")(function*(member: Member, id: string) {
      const call = yield* managed(member, id)
      yield* repo.softDeleteCall(member.communityId, call.id, yield* now)
    })

    /** A status change under the call's row lock, so two concurrent moves settle one after the other. */
    const changeStatus = <CheckError>(
      member: Member,
      id: string,
      check: (from: CallStatus) => Effect.Effect<void, CheckError>,
      to: CallStatus
    ) =>
      Effect.gen(function*() {
        const call = yield* managed(member, id)
        const at = yield* now
        yield* transactional(sql)(Effect.gen(function*() {
          const locked = yield* roles.lockCall(member.communityId, call.id)
          yield* check(locked.status)
          yield* repo.setCallStatus(member.communityId, call.id, to, at)
        }))
        return callView(yield* roles.callFor(member.communityId, call.id), at)
      })

    const setStatus = traced("Calls.setStatus")(function*(member: Member, id: string, status: CallStatus) {
      return yield* changeStatus(member, id, (from) => checkCallStatus(from, status), status)
    })

    const move = traced("Calls.move")(function*(member: Member, id: string, name: CallMove) {
      return yield* changeStatus(member, id, (from) => checkCallMove(from, name), callMoves[name].to)
    })

    return { open, detail, update, remove, setStatus, move }
  }),
  dependencies: [CallsRepo.Default, CallAccess.Default, CallRoles.Default]
}) {}
