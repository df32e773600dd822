import { Effect } from "effect"
import { RodaApi } from "../api/RodaApi"
import { CurrentAccount } from "../domain/Caller"
import { apiGroup } from "../http/engine/apiGroup"
import { page } from "../http/Reply"
import { AuditLog } from "./AuditLog"
import { auditMessages as M } from "./messages"

export const AuditHttp = apiGroup(RodaApi, "operatorAudit", (handlers) =>
  Effect.gen(function*() {
    const log = yield* AuditLog
    return handlers.handle("list", ({ urlParams }) =>
      CurrentAccount.pipe(
        Effect.flatMap((account) => log.list(account, urlParams)),
        Effect.flatMap((result) => page(M.list, result))
      ))
  }))
