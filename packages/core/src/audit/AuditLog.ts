import { Effect, Schema } from "effect"
import { invalidField } from "../domain/AppError"
import type { Account } from "../domain/Caller"
import { rangeEnd, rangeStart } from "../domain/DateRange"
import { Uuid } from "../domain/Ids"
import { CursorPart, type PageQuery, paginate } from "../domain/Pagination"
import { requirePlatformAdmin } from "../domain/Policy"
import { traced } from "../platform/traced"
import { auditMessages as M } from "./messages"
import type { AuditAction } from "./OperatorAudit"
import { AuditRepo, type AuditRow } from "./Repo"

export interface AuditQuery extends PageQuery {
  readonly action?: AuditAction | undefined
  /** Account id of the operator. */
  readonly actor?: string | undefined
  readonly community?: string | undefined
  /** Inclusive: a date (its first moment, UTC) or an instant. */
  readonly since?: string | undefined
  /** Inclusive: a date includes its whole day (UTC), an instant includes itself. */
  readonly until?: string | undefined
}

const AuditCursor = Schema.Tuple(CursorPart.timestamp, Uuid)

export const auditView = (row: AuditRow) => ({
  id: row.id,
  actor: { id: row.actorId, email: row.actorEmail },
  action: row.action,
  target: { type: row.targetType, id: row.targetId },
  communityId: row.communityId,
  details: row.details,
  clientAddress: row.clientAddress,
  createdAt: new Date(row.createdAt).toISOString()
})

/** The operator audit log as platform operators read it (`GET /api/admin/audit`, `roda admin audit`). */
export class AuditLog extends Effect.Service<AuditLog>()("@roda/core/AuditLog", {
  effect: Effect.gen(function*() {
    const repo = yield* AuditRepo

    const list = traced("AuditLog.list")(function*(account: Account, query: AuditQuery) {
      yield* requirePlatformAdmin(account)
      const since = query.since === undefined ? undefined : rangeStart(query.since.trim())
      const until = query.until === undefined ? undefined : rangeEnd(query.until.trim())
      // The route's schema checks the format; in-process callers (the CLI) get the same 400.
      if (since !== undefined && Number.isNaN(since.getTime())) {
        return yield* Effect.fail(invalidField("since", M.notDate, "query"))
      }
      if (until !== undefined && Number.isNaN(until.getTime())) {
        return yield* Effect.fail(invalidField("until", M.notDate, "query"))
      }
      if (since !== undefined && until !== undefined && since.getTime() >= until.getTime()) {
        return yield* Effect.fail(invalidField("until", M.periodOrder, "query"))
      }
      const page = yield* paginate(
        query,
        AuditCursor,
        (before, limit) =>
          repo.list({
            action: query.action,
            actorId: query.actor?.toLowerCase(),
            communityId: query.community?.toLowerCase(),
            since,
            until,
            before,
            limit
          }),
        (row) => [new Date(row.createdAt).toISOString(), row.id]
      )
      return { items: page.items.map(auditView), pagination: page.pagination }
    })

    return { list }
  }),
  dependencies: [AuditRepo.Default]
}) {}
