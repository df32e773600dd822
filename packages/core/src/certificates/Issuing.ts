import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"
import { OperatorAudit } from "../audit/OperatorAudit"
import { Memberships } from "../communities/Memberships"
import { conflict, fieldError, invalidField, isKind, NotFound } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { orNotFound } from "../domain/found"
import { requireRole } from "../domain/Policy"
import { staffRoles } from "../domain/Role"
import { Ids } from "../platform/Ids"
import { traced } from "../platform/traced"
import { transactional } from "../sql/transaction"
import { Generation } from "./Generation"
import { CertificateMessages as M } from "./messages"
import { CertificatesRepo, type NewCertificate } from "./Repo"
import { CertificateTemplates } from "./Templates"
import { batchView } from "./view"

/** Issuing a batch of certificates by staff, and its progress (the facade `Certificates` offers them). */
export class CertificateIssuing extends Effect.Service<CertificateIssuing>()("@roda/core/CertificateIssuing", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* CertificatesRepo
    const memberships = yield* Memberships
    const ids = yield* Ids
    const generation = yield* Generation
    const audit = yield* OperatorAudit
    const templates = yield* CertificateTemplates
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))
    const newCode = generation.newCode
    const { bodySpace, find: findTemplate } = templates

    const issue = traced("Certificates.issue")(function*(
      member: Member,
      input: { templateId: string; spaceId: string; profileIds: ReadonlyArray<string> }
    ) {
      yield* requireRole(member, staffRoles)
      const space = yield* bodySpace(member, input.spaceId)
      const template = yield* findTemplate(member.communityId, input.templateId).pipe(
        Effect.catchIf(
          isKind(NotFound),
          () => Effect.fail(invalidField("templateId", M.templateNotFound))
        )
      )
      if (template.spaceId !== space.spaceId) {
        return yield* Effect.fail(invalidField("templateId", M.templateOtherSpace))
      }
      const profileIds = [...new Set(input.profileIds.map((id) => id.toLowerCase()))]
      const recipients = yield* memberships.recipients(member.communityId, profileIds)
      const known = new Set(recipients.map((recipient) => recipient.profileId))
      const unknown = profileIds.findIndex((id) => !known.has(id))
      if (unknown >= 0) {
        const message = M.recipientsUnknown(profileIds[unknown]!)
        return yield* Effect.fail(
          invalidField(
            `profileIds.${input.profileIds.findIndex((id) => id.toLowerCase() === profileIds[unknown])}`,
            message
          )
        )
      }
      return yield* transactional(sql)(Effect.gen(function*() {
        // The template's row lock: archiving cannot slip in between the check and the batch.
        const locked = yield* repo.lockTemplate(member.communityId, template.id)
        if (Option.isNone(locked)) return yield* Effect.fail(invalidField("templateId", M.templateNotFound))
        if (locked.value.status !== "active") {
          const message = M.templateNotActive(locked.value.status)
          return yield* Effect.fail(conflict(message, [fieldError("templateId", message)]))
        }
        const at = yield* now
        const batchId = yield* ids.next
        const rows: Array<NewCertificate> = []
        for (const recipient of recipients) {
          rows.push({
            id: yield* ids.next,
            communityId: member.communityId,
            spaceId: space.spaceId,
            templateId: template.id,
            batchId,
            profileId: recipient.profileId,
            accountId: recipient.accountId,
            recipientName: recipient.fullName,
            recipientEmail: recipient.email,
            spaceTitle: space.title,
            code: yield* newCode,
            supersedesId: null,
            createdAt: at,
            updatedAt: at
          })
        }
        yield* generation.openBatch(
          {
            id: batchId,
            communityId: member.communityId,
            spaceId: space.spaceId,
            templateId: template.id,
            createdByProfileId: member.actingProfileId,
            source: "staff"
          },
          rows,
          at
        )
        yield* audit.record({
          actor: member.account,
          action: "certificates.issue",
          target: { type: "certificate_batch", id: batchId },
          community: member.communityId,
          details: {
            spaceId: space.spaceId,
            templateId: template.id,
            recipients: rows.length,
            asProfileId: member.actingProfileId
          }
        })
        return batchView(Option.getOrThrow(yield* repo.findBatch(member.communityId, batchId)))
      }))
    })

    const batch = traced("Certificates.batch")(function*(member: Member, id: string) {
      yield* requireRole(member, staffRoles)
      return batchView(yield* orNotFound(M.batchNotFound)(repo.findBatch(member.communityId, id.toLowerCase())))
    })
    return { issue, batch }
  }),
  dependencies: [CertificatesRepo.Default, Generation.Default, CertificateTemplates.Default]
}) {}
