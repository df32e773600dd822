import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"
import { Memberships } from "../communities/Memberships"
import { conflict, forbidden, notFound } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { ProfileId } from "../domain/Ids"
import { requireRole } from "../domain/Policy"
import { staffRoles } from "../domain/Role"
import { Notify } from "../notifications/Notify"
import { Ids } from "../platform/Ids"
import { traced } from "../platform/traced"
import { transactional } from "../sql/transaction"
import { moderationMessages as M } from "./messages"
import { checkMayActOn } from "./Policy"
import { ModerationRepo } from "./Repo"

/** A profile's ban as the routes answer it. */
export interface BanState {
  readonly profileId: string
  readonly bannedAt: string | null
  readonly banReason: string | null
}

/**
 * Banning a member: the membership is removed (communities' removal, with `member.left`) and the
 * account cannot be invited, added or join again until unbanned. Both live on the profile
 * (communities' `banned_at`, `ban_reason`, written through `Memberships`); the change, its log entry
 * and the member's notification commit together.
 */
export class MemberBans extends Effect.Service<MemberBans>()("@roda/core/moderation/MemberBans", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* ModerationRepo
    const memberships = yield* Memberships
    const ids = yield* Ids
    const notify = yield* Notify

    /**
     * Staff (403), not oneself (403), a profile of the community (404, locked), whom the caller's
     * role may act on (403): the checks of both actions, in the caller's transaction.
     */
    const target = (member: Member, profileId: string) =>
      Effect.gen(function*() {
        const id = ProfileId.make(profileId.toLowerCase())
        const found = yield* memberships.banTarget(member.communityId, id)
        if (Option.isNone(found)) return yield* Effect.fail(notFound(M.memberNotFound))
        yield* checkMayActOn(member.role, found.value.role)
        return { id, ...found.value }
      })

    const log = (member: Member, action: "ban" | "unban", subjectId: string, note: string | null) =>
      Effect.flatMap(ids.next, (id) =>
        repo.insertLog({
          id,
          communityId: member.communityId,
          actorProfileId: member.profileId,
          action,
          caseId: null,
          subjectType: "profile",
          subjectId,
          note,
          until: null
        }))

    const checkCaller = (member: Member, profileId: string) =>
      Effect.zipRight(
        requireRole(member, staffRoles),
        profileId.toLowerCase() === member.profileId ? Effect.fail(forbidden(M.selfAction)) : Effect.void
      )

    const ban = traced("MemberBans.ban")(function*(member: Member, profileId: string, reason: string) {
      yield* checkCaller(member, profileId)
      const c = member.communityId
      const at = new Date(yield* Clock.currentTimeMillis)
      return yield* transactional(sql)(Effect.gen(function*() {
        const found = yield* target(member, profileId)
        if (found.bannedAt !== null) return yield* Effect.fail(conflict(M.alreadyBanned))
        if (!found.member) return yield* Effect.fail(notFound(M.memberNotFound))
        // Told while still a member: `Notify` skips those who are not.
        const [person] = yield* memberships.recipients(c, [found.id])
        yield* notify.notify(c, {
          kind: "moderation",
          recipients: [found.id],
          subject: { type: "profile", id: found.id, title: person?.fullName ?? "" }
        })
        if (!(yield* memberships.ban(c, found.id, at, reason))) {
          return yield* Effect.fail(notFound(M.memberNotFound))
        }
        yield* log(member, "ban", found.id, reason)
        return { profileId: found.id as string, bannedAt: at.toISOString(), banReason: reason } satisfies BanState
      }))
    })

    const unban = traced("MemberBans.unban")(function*(member: Member, profileId: string) {
      yield* checkCaller(member, profileId)
      return yield* transactional(sql)(Effect.gen(function*() {
        const found = yield* target(member, profileId)
        if (found.bannedAt === null || !(yield* memberships.unban(member.communityId, found.id))) {
          return yield* Effect.fail(conflict(M.notBanned))
        }
        yield* log(member, "unban", found.id, null)
        return { profileId: found.id as string, bannedAt: null, banReason: null } satisfies BanState
      }))
    })

    return { ban, unban }
  }),
  dependencies: [ModerationRepo.Default]
}) {}
