import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { notFound } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { isUuid } from "../domain/Ids"
import { CursorPart, type PageQuery, paginate } from "../domain/Pagination"
import { requireRole } from "../domain/Policy"
import { staffRoles } from "../domain/Role"
import { Notify } from "../notifications/Notify"
import { Ids } from "../platform/Ids"
import { traced } from "../platform/traced"
import { type PendingItem, SocialPending } from "../social/Pending"
import { transactional } from "../sql/transaction"
import { moderationMessages as M } from "./messages"
import type { PendingAction } from "./pendingActions"
import { ModerationRepo } from "./Repo"

/** [held_at with microseconds, id] of the last item of a page. */
const Cursor = Schema.Tuple(CursorPart.timestamp, CursorPart.uuid)

export const pendingView = (item: PendingItem) => ({
  id: item.id,
  type: item.type,
  author: { id: item.authorProfileId, fullName: item.authorName },
  excerpt: item.excerpt,
  itemType: item.itemType,
  itemId: item.itemId,
  spaceId: item.spaceId,
  edited: item.edited,
  createdAt: item.createdAt.toISOString()
})

/** The staff's queue of held posts and comments (platform.md "Moderation"), and its decisions. */
export class PendingQueue extends Effect.Service<PendingQueue>()("@roda/core/moderation/PendingQueue", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* ModerationRepo
    const social = yield* SocialPending
    const ids = yield* Ids
    const notify = yield* Notify

    const list = traced("PendingQueue.list")(function*(member: Member, query: PageQuery) {
      yield* requireRole(member, staffRoles)
      const page = yield* paginate(
        query,
        Cursor,
        (after, limit) => social.list(member.communityId, after && [after[0], after[1].toLowerCase()] as const, limit),
        (item) => [item.cursorTime, item.id]
      )
      return { items: page.items.map(pendingView), pagination: page.pagination }
    })

    /** The decision and its log entry commit together; an id not waiting (decided meanwhile too): 404. */
    const decide = (action: PendingAction) =>
      traced(`PendingQueue.${action}`)(function*(member: Member, id: string) {
        yield* requireRole(member, staffRoles)
        const key = id.trim().toLowerCase()
        const missing = notFound(M.pendingNotFound)
        if (!isUuid(key)) return yield* Effect.fail(missing)
        return yield* transactional(sql)(Effect.gen(function*() {
          const c = member.communityId
          const found = yield* (action === "approve" ? social.approve(c, key) : social.reject(c, key))
          if (Option.isNone(found)) return yield* Effect.fail(missing)
          // a rejected item is removed: it leaves the notifications (an edit's, from before it was held)
          if (action === "reject") yield* notify.withdraw(c, found.value.id)
          yield* repo.insertLog({
            id: yield* ids.next,
            communityId: c,
            actorProfileId: member.profileId,
            action,
            caseId: null,
            subjectType: found.value.type,
            subjectId: found.value.id,
            note: null,
            subjectExcerpt: found.value.excerpt
          })
          return {
            ...pendingView(found.value),
            status: action === "approve" ? "approved" as const : "rejected" as const
          }
        }))
      })

    return { list, approve: decide("approve"), reject: decide("reject") }
  }),
  dependencies: [ModerationRepo.Default]
}) {}
