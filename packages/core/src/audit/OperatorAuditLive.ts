import { Clock, Effect, Layer } from "effect"
import { isUuid } from "../domain/Ids"
import { ClientAddress } from "../http/ClientAddress"
import { Ids } from "../platform/Ids"
import { traced } from "../platform/traced"
import { storedDetails } from "./details"
import { OperatorAudit } from "./OperatorAudit"
import { AuditRepo } from "./Repo"

/** `OperatorAudit` over the `operator_audit` table; runs on the caller's connection (its transaction). */
export const OperatorAuditLive = Layer.effect(
  OperatorAudit,
  Effect.gen(function*() {
    const repo = yield* AuditRepo
    const ids = yield* Ids
    return {
      record: traced("OperatorAudit.record")(function*(entry) {
        yield* repo.insert({
          id: yield* ids.next,
          actorId: entry.actor.id,
          actorEmail: entry.actor.email,
          action: entry.action,
          targetType: entry.target.type,
          targetId: isUuid(entry.target.id) ? entry.target.id.toLowerCase() : entry.target.id,
          communityId: entry.community?.toLowerCase() ?? null,
          details: JSON.stringify(storedDetails(entry.details ?? {})),
          clientAddress: (yield* ClientAddress) ?? null,
          createdAt: new Date(yield* Clock.currentTimeMillis)
        })
      })
    }
  })
).pipe(Layer.provide(AuditRepo.Default))
