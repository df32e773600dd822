import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"
import { Memberships } from "../communities/Memberships"
import { forbidden, notFound } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { ProfileId } from "../domain/Ids"
import { requireRole } from "../domain/Policy"
import { staffRoles } from "../domain/Role"
import { Notify } from "../notifications/Notify"
import { Ids } from "../platform/Ids"
import { traced } from "../platform/traced"
import { transactional } from "../sql/transaction"
import { moderationMessages as M } from "./messages"
import { checkMayActOn, type MemberAction } from "./Policy"
import { ModerationRepo } from "./Repo"

const DAY_MS = 24 * 60 * 60 * 1000

export interface SuspensionInput {
  readonly days: number
  readonly reason: string
}

/**
 * What staff do to a member: suspend (reads only until a date) and lift it. The suspension lives on
 * the membership (communities' `profiles.suspended_until`, set through `Memberships`), so every
 * feature checks it with the caller's membership; the action and the log commit together.
 */
export class MemberActions extends Effect.Service<MemberActions>()("@roda/core/moderation/MemberActions", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* ModerationRepo
    const memberships = yield* Memberships
    const ids = yield* Ids
    const notify = yield* Notify

    /**
     * Staff (403), not oneself (403), an active member of the community (404), whom the caller's
     * role may act on (403); then the change, its log entry and the member's `moderation`
     * notification (about their profile, the moderator not named) in one transaction.
     */
    const act = (
      member: Member,
      profileId: string,
      action: MemberAction,
      until: Date | null,
      note: string | null
    ) =>
      Effect.gen(function*() {
        yield* requireRole(member, staffRoles)
        const target = ProfileId.make(profileId.toLowerCase())
        if (target === member.profileId) return yield* Effect.fail(forbidden(M.selfAction))
        const c = member.communityId
        return yield* transactional(sql)(Effect.gen(function*() {
          const role = yield* memberships.profileRole(c, target)
          if (Option.isNone(role)) return yield* Effect.fail(notFound(M.memberNotFound))
          yield* checkMayActOn(member.role, role.value)
          const found = yield* memberships.setSuspension(c, target, until)
          if (!found) return yield* Effect.fail(notFound(M.memberNotFound))
          yield* repo.insertLog({
            id: yield* ids.next,
            communityId: c,
            actorProfileId: member.profileId,
            action,
            caseId: null,
            subjectType: "profile",
            subjectId: target,
            note,
            until
          })
          const [person] = yield* memberships.recipients(c, [target])
          yield* notify.notify(c, {
            kind: "moderation",
            recipients: [target],
            subject: { type: "profile", id: target, title: person?.fullName ?? "" }
          })
          return { profileId: target as string, suspendedUntil: until?.toISOString() ?? null }
        }))
      })

    const suspend = traced("MemberActions.suspend")(
      function*(member: Member, profileId: string, input: SuspensionInput) {
        const now = yield* Clock.currentTimeMillis
        return yield* act(member, profileId, "suspend", new Date(now + input.days * DAY_MS), input.reason)
      }
    )

    const unsuspend = traced("MemberActions.unsuspend")(function*(member: Member, profileId: string) {
      return yield* act(member, profileId, "unsuspend", null, null)
    })

    return { suspend, unsuspend }
  }),
  dependencies: [ModerationRepo.Default]
}) {}
