import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { invalidField, notFound } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { CursorPart, type PageQuery, paginate } from "../domain/Pagination"
import { requireRole } from "../domain/Policy"
import { staffRoles } from "../domain/Role"
import { EventModeration } from "../events/Moderation"
import { excerpt, Notify } from "../notifications/Notify"
import { Ids } from "../platform/Ids"
import { traced } from "../platform/traced"
import { SocialModeration } from "../social/Moderation"
import { transactional } from "../sql/transaction"
import { moderationMessages as M } from "./messages"
import { type Action, actionsFor, type CaseStatus, checkCaseMove } from "./Policy"
import { ModerationRepo } from "./Repo"
import { caseView, logView } from "./view"

/** [created_at with microseconds, id] of the last row of a page. */
const Cursor = Schema.Tuple(CursorPart.timestamp, CursorPart.uuid)

export interface Resolution {
  readonly action: Action
  readonly note?: string | null | undefined
}

/** The staff's side: the queue of cases, their resolution, and the log of what moderators did. */
export class Cases extends Effect.Service<Cases>()("@roda/core/moderation/Cases", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* ModerationRepo
    const social = yield* SocialModeration
    const events = yield* EventModeration
    const ids = yield* Ids
    const notify = yield* Notify

    const list = traced("Cases.list")(
      function*(member: Member, query: PageQuery & { readonly status?: CaseStatus | undefined }) {
        yield* requireRole(member, staffRoles)
        const page = yield* paginate(
          query,
          Cursor,
          (after, limit) =>
            repo.listCases(
              member.communityId,
              query.status ?? "open",
              after && [after[0], after[1].toLowerCase()] as const,
              limit
            ),
          (row) => [row.cursorTime, row.id]
        )
        return { items: page.items.map(caseView), pagination: page.pagination }
      }
    )

    /**
     * One resolution per case: the case is locked first, so a second moderator's resolution waits,
     * then finds it resolved (409). The action on the subject, the case, the log and the author's
     * `moderation` notification (hide, remove) commit together; the moderator is not named to them.
     */
    const resolve = traced("Cases.resolve")(function*(member: Member, id: string, input: Resolution) {
      yield* requireRole(member, staffRoles)
      const c = member.communityId
      const key = id.toLowerCase()
      return yield* transactional(sql)(Effect.gen(function*() {
        const locked = yield* repo.lockCase(c, key)
        if (Option.isNone(locked)) return yield* Effect.fail(notFound(M.caseNotFound))
        const found = locked.value
        yield* checkCaseMove(found.status, "resolved")
        if (!actionsFor[found.subjectType].includes(input.action)) {
          return yield* Effect.fail(invalidField("action", M.actionNotSupported(input.action, found.subjectType)))
        }
        const type = found.subjectType
        // hidden or removed content leaves the notifications (platform.md "Moderation"), before an
        // event's removal writes its participants' cancellation notice
        if (input.action !== "dismiss") yield* notify.withdraw(c, found.subjectId)
        if (type === "status" || type === "comment" || type === "content") {
          if (input.action === "hide") yield* social.hide(c, type, found.subjectId)
          if (input.action === "remove") yield* social.remove(c, type, found.subjectId)
        } else if (type === "event") {
          if (input.action === "hide") yield* events.hide(c, found.subjectId)
          if (input.action === "remove") yield* events.remove(c, found.subjectId)
        }
        // an empty note is none; the moderator is the caller, also when acting as another profile
        const note = input.note || null
        yield* repo.resolveCase(c, found.id, { byProfileId: member.profileId, action: input.action, note })
        yield* repo.insertLog({
          id: yield* ids.next,
          communityId: c,
          actorProfileId: member.profileId,
          action: input.action,
          caseId: found.id,
          subjectType: type,
          subjectId: found.subjectId,
          note
        })
        const row = Option.getOrThrow(yield* repo.findCase(c, found.id))
        if (input.action !== "dismiss" && row.subjectAuthorProfileId !== null) {
          yield* notify.notify(c, {
            kind: "moderation",
            recipients: [row.subjectAuthorProfileId],
            subject: { type, id: found.subjectId, title: excerpt(row.subjectExcerpt) }
          })
        }
        return caseView(row)
      }))
    })

    const log = traced("Cases.log")(function*(member: Member, query: PageQuery) {
      yield* requireRole(member, staffRoles)
      const page = yield* paginate(
        query,
        Cursor,
        (after, limit) => repo.listLog(member.communityId, after && [after[0], after[1].toLowerCase()] as const, limit),
        (row) => [row.cursorTime, row.id]
      )
      return { items: page.items.map(logView), pagination: page.pagination }
    })

    return { list, resolve, log }
  }),
  dependencies: [ModerationRepo.Default]
}) {}
