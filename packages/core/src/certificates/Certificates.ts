import { SqlClient } from "@effect/sql"
import { Clock, Effect, Schema } from "effect"
import { OperatorAudit } from "../audit/OperatorAudit"
import { Memberships } from "../communities/Memberships"
import { conflict, fieldError, forbidden, notFound } from "../domain/AppError"
import type { Account, Member } from "../domain/Caller"
import { orNotFound } from "../domain/found"
import { type CommunityId, Uuid } from "../domain/Ids"
import { CursorPart, type PageQuery, paginate } from "../domain/Pagination"
import { requireRole } from "../domain/Policy"
import { isStaff, staffRoles } from "../domain/Role"
import { BlobStore } from "../platform/BlobStore"
import { Ids } from "../platform/Ids"
import { RateLimits } from "../platform/RateLimits"
import { traced } from "../platform/traced"
import { transactional } from "../sql/transaction"
import { WebhookEvents } from "../webhooks/WebhookEvents"
import { Generation } from "./Generation"
import { CertificateIssuing } from "./Issuing"
import { CertificateMessages as M } from "./messages"
import { type CertificateStatus, checkCertificateMove, deletableStatuses } from "./Policy"
import { Rendering } from "./Rendering"
import { type CertificateRow, CertificatesRepo } from "./Repo"
import { CertificateTemplates } from "./Templates"
import { certificateView } from "./view"

export { DEFAULT_BODY, type NewTemplateInput, type TemplateInput, type TemplateQuery } from "./Templates"

const KeyCursor = Schema.Tuple(CursorPart.timestamp, Uuid)

export interface CertificateQuery extends PageQuery {
  readonly spaceId?: string | undefined
  readonly templateId?: string | undefined
  readonly batchId?: string | undefined
  readonly profileId?: string | undefined
  readonly status?: CertificateStatus | undefined
}

/**
 * Certificates: space rules, templates, batch issuing, lifecycle (retry, revoke, reissue, delete,
 * resend), lists. Rules and templates live in `CertificateTemplates`, issuing in `CertificateIssuing`;
 * this service offers them all. Generation itself runs in `Generation` (durable jobs).
 */
export class Certificates extends Effect.Service<Certificates>()("@roda/core/Certificates", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* CertificatesRepo
    const memberships = yield* Memberships
    const ids = yield* Ids
    const blobs = yield* BlobStore
    const generation = yield* Generation
    const rendering = yield* Rendering
    const audit = yield* OperatorAudit
    const limits = yield* RateLimits
    const templates = yield* CertificateTemplates
    const issuing = yield* CertificateIssuing
    const webhooks = yield* WebhookEvents
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))
    const base = rendering.base

    const newCode = generation.newCode

    // ---- Certificates

    const find = (communityId: CommunityId, id: string) =>
      orNotFound(M.certificateNotFound)(repo.find(communityId, id.toLowerCase()))

    /** Staff see every certificate of the community; a member only those they hold (others: 404). */
    const visible = (member: Member, id: string) =>
      Effect.gen(function*() {
        const row = yield* find(member.communityId, id)
        if (!isStaff(member.role) && row.profileId !== member.actingProfileId) {
          return yield* Effect.fail(notFound(M.certificateNotFound))
        }
        return row
      })

    const staffCertificate = (member: Member, id: string) =>
      Effect.zipRight(requireRole(member, staffRoles), find(member.communityId, id))

    const detail = traced("Certificates.detail")(function*(member: Member, id: string) {
      return certificateView(yield* visible(member, id), base, isStaff(member.role))
    })

    const list = traced("Certificates.list")(function*(member: Member, query: CertificateQuery) {
      yield* requireRole(member, staffRoles)
      const page = yield* paginate(
        query,
        KeyCursor,
        (after, limit) =>
          repo.list(member.communityId, {
            spaceId: query.spaceId?.toLowerCase(),
            templateId: query.templateId?.toLowerCase(),
            batchId: query.batchId?.toLowerCase(),
            profileId: query.profileId?.toLowerCase(),
            status: query.status,
            after,
            limit
          }),
        (row) => [row.createdAt.toISOString(), row.id]
      )
      return { items: page.items.map((row) => certificateView(row, base, true)), pagination: page.pagination }
    })

    const mine = traced("Certificates.mine")(function*(account: Account, query: PageQuery) {
      const page = yield* paginate(
        query,
        KeyCursor,
        (after, limit) => repo.listOfAccount(account.id, { after, limit }),
        (row) => [row.createdAt.toISOString(), row.id]
      )
      return { items: page.items.map((row) => certificateView(row, base, false)), pagination: page.pagination }
    })

    /** Runs `change` on the certificate's locked row after checking the move. */
    const move = <A, E, R>(
      member: Member,
      id: string,
      to: CertificateStatus,
      change: (row: CertificateRow, at: Date) => Effect.Effect<A, E, R>
    ) =>
      Effect.gen(function*() {
        const found = yield* staffCertificate(member, id)
        return yield* transactional(sql)(Effect.gen(function*() {
          const locked = yield* orNotFound(M.certificateNotFound)(repo.lock(member.communityId, found.id))
          yield* checkCertificateMove(locked.status, to)
          return yield* change(locked, yield* now)
        }))
      })

    const revoke = traced("Certificates.revoke")(function*(member: Member, id: string, reason: string) {
      return yield* move(member, id, "revoked", (row, at) =>
        Effect.gen(function*() {
          yield* repo.update(member.communityId, row.id, { status: "revoked", revokedAt: at, revokeReason: reason }, at)
          yield* audit.record({
            actor: member.account,
            action: "certificate.revoke",
            target: { type: "certificate", id: row.id },
            community: member.communityId,
            details: { reason, asProfileId: member.actingProfileId }
          })
          const revoked = certificateView(yield* find(member.communityId, row.id), base, true)
          yield* webhooks.emit(member.communityId, "certificate.revoked", revoked)
          return revoked
        }))
    })

    const reissue = traced("Certificates.reissue")(function*(member: Member, id: string) {
      const newId = yield* ids.next
      yield* move(member, id, "superseded", (row, at) =>
        Effect.gen(function*() {
          const recipient = (yield* memberships.recipients(member.communityId, [row.profileId]))[0]
          if (recipient === undefined) return yield* Effect.fail(conflict(M.recipientGone))
          yield* repo.update(member.communityId, row.id, { status: "superseded", supersededById: newId }, at)
          yield* repo.insertCertificates([{
            id: newId,
            communityId: row.communityId,
            spaceId: row.spaceId,
            templateId: row.templateId,
            batchId: null,
            profileId: row.profileId,
            accountId: recipient.accountId,
            recipientName: recipient.fullName,
            recipientEmail: recipient.email,
            spaceTitle: row.spaceTitle,
            code: yield* newCode,
            supersedesId: row.id,
            createdAt: at,
            updatedAt: at
          }])
          yield* generation.enqueueOne(member.communityId, newId, null)
        }))
      return certificateView(yield* find(member.communityId, newId), base, true)
    })

    const retry = traced("Certificates.retry")(function*(member: Member, id: string) {
      yield* move(member, id, "pending", (row, at) =>
        Effect.gen(function*() {
          yield* repo.update(member.communityId, row.id, { status: "pending", attempts: 0, lastError: null }, at)
          if (row.batchId !== null) {
            yield* sql`UPDATE certificate_batches SET failed = failed - 1, status = 'processing',
              finished_at = NULL, updated_at = ${at} WHERE id = ${row.batchId} AND failed > 0`.pipe(Effect.orDie)
          }
          yield* generation.enqueueOne(member.communityId, row.id, row.batchId)
          yield* audit.record({
            actor: member.account,
            action: "certificate.retry",
            target: { type: "certificate", id: row.id },
            community: member.communityId,
            details: { batchId: row.batchId, asProfileId: member.actingProfileId }
          })
        }))
      return certificateView(yield* find(member.communityId, id), base, true)
    })

    const remove = traced("Certificates.remove")(function*(member: Member, id: string) {
      const found = yield* staffCertificate(member, id)
      const keys = yield* transactional(sql)(Effect.gen(function*() {
        const locked = yield* orNotFound(M.certificateNotFound)(repo.lock(member.communityId, found.id))
        if (!deletableStatuses.includes(locked.status)) {
          const message = M.notDeletable(locked.status)
          return yield* Effect.fail(conflict(message, [fieldError("status", message)]))
        }
        yield* repo.remove(member.communityId, found.id)
        return [
          locked.pdfKey,
          `certificates/${found.communityId}/${found.id}-card.png`,
          `certificates/${found.communityId}/${found.id}-page.png`
        ]
      }))
      yield* Effect.forEach(keys, (key) => key === null ? Effect.void : blobs.remove(key), { discard: true })
    })

    const resendEmail = traced("Certificates.resendEmail")(function*(member: Member, id: string) {
      const row = yield* staffCertificate(member, id)
      if (row.status !== "issued") {
        const message = M.notIssued(row.status)
        return yield* Effect.fail(conflict(message, [fieldError("status", message)]))
      }
      // Counted once the caller may resend it: nobody else can use up a certificate's budget.
      yield* limits.enforce("certificateMail", row.id)
      yield* generation.mail(row, row.title)
      return certificateView(row, base, true)
    })

    /**
     * Search-engine indexing publishes the holder's name: only the holder turns it on (their own token;
     * staff, also acting as the holder with X-ProfileId, get 403). Staff may turn it off.
     */
    const setIndexing = traced("Certificates.setIndexing")(function*(member: Member, id: string, indexing: boolean) {
      const row = yield* visible(member, id)
      if (indexing && row.profileId !== member.profileId) {
        return yield* Effect.fail(forbidden(M.indexingHolderOnly))
      }
      yield* repo.update(member.communityId, row.id, { indexing }, yield* now)
      return certificateView(yield* find(member.communityId, row.id), base, isStaff(member.role))
    })

    /** The certificate whose files the caller may fetch (holder or staff), once rendered. */
    const rendered = traced("Certificates.rendered")(function*(member: Member, id: string) {
      const row = yield* visible(member, id)
      if (row.pdfKey === null || !["issued", "revoked", "superseded"].includes(row.status)) {
        const message = M.notRendered(row.status)
        return yield* Effect.fail(conflict(message, [fieldError("status", message)]))
      }
      return row
    })

    return {
      rule: templates.rule,
      setRule: templates.setRule,
      createTemplate: templates.createTemplate,
      templateDetail: templates.templateDetail,
      updateTemplate: templates.updateTemplate,
      activateTemplate: templates.activateTemplate,
      archiveTemplate: templates.archiveTemplate,
      duplicateTemplate: templates.duplicateTemplate,
      previewTemplate: templates.previewTemplate,
      listTemplates: templates.listTemplates,
      issue: issuing.issue,
      batch: issuing.batch,
      detail,
      list,
      mine,
      revoke,
      reissue,
      retry,
      remove,
      resendEmail,
      setIndexing,
      rendered
    }
  }),
  dependencies: [
    CertificatesRepo.Default,
    Generation.Default,
    Rendering.Default,
    CertificateTemplates.Default,
    CertificateIssuing.Default
  ]
}) {}
