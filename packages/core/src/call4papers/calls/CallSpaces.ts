import { Clock, Effect, Option } from "effect"
import type { Member } from "../../domain/Caller"
import { orNotFound } from "../../domain/found"
import { paginate } from "../../domain/Pagination"
import { requireRole } from "../../domain/Policy"
import { isStaff, staffRoles } from "../../domain/Role"
import { traced } from "../../platform/traced"
import { type Viewer, viewerOfMember } from "../../structure/Access"
import { CallAccess } from "./CallAccess"
import { CallRoles } from "./CallRoles"
import { type CallQuery, TimeCursor } from "./callRules"
import { CallMessages } from "./messages"
import { type SpaceMode } from "./Policy"
import { CallsRepo } from "./Repo"
import { callView } from "./view"

/** A call4papers space: who may open calls there (its configuration), its calls, a call by slug. */
export class CallSpaces extends Effect.Service<CallSpaces>()("@roda/core/call4papers/CallSpaces", {
  effect: Effect.gen(function*() {
    const repo = yield* CallsRepo
    const { callSpace, detailOf, modeOf, visibleCall } = yield* CallAccess
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const spaceConfig = traced("Calls.spaceConfig")(function*(viewer: Viewer, spaceId: string) {
      const space = yield* callSpace(viewer, spaceId, false)
      const { mode, updatedAt } = yield* modeOf(viewer.communityId, space.spaceId)
      const member = Option.getOrUndefined(viewer.member)
      const staff = member !== undefined && isStaff(member.role)
      return {
        spaceId: space.spaceId,
        mode,
        canOpenCall: member !== undefined && (staff || mode === "members"),
        canConfigure: staff,
        updatedAt
      }
    })

    const configureSpace = traced("Calls.configureSpace")(function*(
      member: Member,
      spaceId: string,
      mode: SpaceMode
    ) {
      const space = yield* callSpace(viewerOfMember(member), spaceId, false)
      yield* requireRole(member, staffRoles)
      yield* repo.setSpaceMode(member.communityId, space.spaceId, mode, yield* now)
      return yield* spaceConfig(viewerOfMember(member), space.spaceId)
    })

    const spaceCalls = traced("Calls.spaceCalls")(function*(viewer: Viewer, spaceId: string, query: CallQuery) {
      const space = yield* callSpace(viewer, spaceId, true)
      const member = Option.getOrUndefined(viewer.member)
      const page = yield* paginate(
        query,
        TimeCursor,
        (after, limit) =>
          repo.listCalls(viewer.communityId, space.spaceId, {
            all: member !== undefined && isStaff(member.role),
            ownerProfileId: member?.profileId,
            status: query.status,
            after,
            limit
          }),
        (row) => [row.createdAt.toISOString(), row.id]
      )
      const at = yield* now
      return { items: page.items.map((row) => callView(row, at)), pagination: page.pagination }
    })

    const callBySlug = traced("Calls.callBySlug")(function*(viewer: Viewer, spaceId: string, slug: string) {
      const space = yield* callSpace(viewer, spaceId, true)
      const call = yield* repo.findBySlug(viewer.communityId, space.spaceId, slug.trim().toLowerCase()).pipe(
        orNotFound(CallMessages.callNotFound)
      )
      return yield* detailOf(call, yield* visibleCall(viewer, call))
    })

    return { spaceConfig, configureSpace, spaceCalls, callBySlug }
  }),
  dependencies: [CallsRepo.Default, CallAccess.Default, CallRoles.Default]
}) {}
