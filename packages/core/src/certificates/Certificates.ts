import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import { OperatorAudit } from "../audit/OperatorAudit"
import { Memberships } from "../communities/Memberships"
import { conflict, fieldError, forbidden, invalidField, notFound } from "../domain/AppError"
import type { Account, Member } from "../domain/Caller"
import { Uuid } from "../domain/Ids"
import { CursorPart, decodeCursor, DEFAULT_LIMIT, type PageQuery, toPage } from "../domain/Pagination"
import { requireRole } from "../domain/Policy"
import { isStaff, staffRoles } from "../domain/Role"
import { BlobStore } from "../platform/BlobStore"
import { fromBase64 } from "../platform/bytes"
import { Ids } from "../platform/Ids"
import { RateLimits } from "../platform/RateLimits"
import { traced } from "../platform/traced"
import { transactional } from "../sql/transaction"
import { Access, type Viewer, viewerOfMember } from "../structure/Access"
import { DEFAULT_FONT, findFont } from "./fonts"
import { Generation } from "./Generation"
import { CertificateMessages as M } from "./messages"
import {
  type CertificateStatus,
  checkCertificateMove,
  checkTemplateMove,
  deletableStatuses,
  editableTemplateStatuses,
  type Issuer,
  type Orientation,
  type PageSize,
  permissionsIn,
  type TemplateStatus
} from "./Policy"
import { Rendering } from "./Rendering"
import {
  type CertificateRow,
  CertificatesRepo,
  type NewCertificate,
  type TemplateFields,
  type TemplateRow
} from "./Repo"
import { batchView, certificateView, templateView } from "./view"

const KeyCursor = Schema.Tuple(CursorPart.timestamp, Uuid)

export const DEFAULT_BODY = "Certificamos que {{name}} concluiu {{space}} em {{date}}. Código de verificação: {{code}}."

export interface TemplateInput {
  readonly name?: string | undefined
  readonly title?: string | undefined
  readonly body?: string | undefined
  readonly fontId?: string | undefined
  readonly orientation?: Orientation | undefined
  readonly pageSize?: PageSize | undefined
  readonly background?: string | undefined
  readonly logo?: string | null | undefined
  readonly signature?: string | null | undefined
}

export interface NewTemplateInput extends TemplateInput {
  readonly spaceId?: string | null | undefined
  readonly name: string
}

export interface CertificateQuery extends PageQuery {
  readonly spaceId?: string | undefined
  readonly templateId?: string | undefined
  readonly batchId?: string | undefined
  readonly profileId?: string | undefined
  readonly status?: CertificateStatus | undefined
}

export interface TemplateQuery extends PageQuery {
  readonly spaceId?: string | undefined
  readonly status?: TemplateStatus | undefined
}

const IMAGE_MAX_BYTES = 256 * 1024

/** A `data:` URL of a PNG or JPEG, checked by its bytes (not only its declared type) and size. */
const decodeImage = (param: string, value: string) => {
  const match = /^data:(image\/png|image\/jpeg);base64,([A-Za-z0-9+/=\s]+)$/.exec(value.trim())
  if (match === null) return Effect.fail(invalidField(param, M.imageInvalid))
  const bytes = fromBase64(match[2]!)
  if (bytes === undefined) return Effect.fail(invalidField(param, M.imageInvalid))
  if (bytes.length > IMAGE_MAX_BYTES) return Effect.fail(invalidField(param, M.imageTooLarge(IMAGE_MAX_BYTES / 1024)))
  const png = bytes.length > 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47
  const jpeg = bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff
  const type = png ? "image/png" : jpeg ? "image/jpeg" : undefined
  if (type === undefined || type !== match[1]) return Effect.fail(invalidField(param, M.imageInvalid))
  return Effect.succeed({ bytes, type })
}

/**
 * Certificates: space rules, templates, batch issuing, lifecycle (retry, revoke, reissue, delete,
 * resend), lists. Generation itself runs in `Generation` (durable jobs).
 */
export class Certificates extends Effect.Service<Certificates>()("@roda/core/Certificates", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* CertificatesRepo
    const access = yield* Access
    const memberships = yield* Memberships
    const ids = yield* Ids
    const blobs = yield* BlobStore
    const generation = yield* Generation
    const rendering = yield* Rendering
    const audit = yield* OperatorAudit
    const limits = yield* RateLimits
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))
    const base = rendering.base

    const newCode = generation.newCode

    /** A space named in a body: required, of this community, visible to the caller (all 400). */
    const bodySpace = (member: Member, spaceId: string | null | undefined) =>
      Effect.gen(function*() {
        const id = spaceId?.trim().toLowerCase() ?? ""
        if (id === "") return yield* Effect.fail(invalidField("spaceId", M.spaceIdRequired))
        return yield* access.space(viewerOfMember(member), id).pipe(
          Effect.catchIf((error) => error.status === 404, () => Effect.fail(invalidField("spaceId", M.spaceNotFound)))
        )
      })

    // ---- Space rules

    const rule = traced("Certificates.rule")(function*(viewer: Viewer, spaceId: string) {
      const space = yield* access.space(viewer, spaceId)
      const stored = yield* repo.rule(viewer.communityId, space.spaceId)
      const issuer: Issuer = Option.match(stored, { onNone: () => "staff", onSome: (row) => row.issuer })
      return {
        spaceId: space.spaceId,
        issuer,
        updatedAt: Option.match(stored, { onNone: () => null, onSome: (row) => row.updatedAt.toISOString() }),
        ...permissionsIn(Option.getOrUndefined(viewer.member))
      }
    })

    const setRule = traced("Certificates.setRule")(function*(member: Member, spaceId: string, issuer: Issuer) {
      yield* requireRole(member, staffRoles)
      const space = yield* access.space(viewerOfMember(member), spaceId)
      if (issuer === "course_completion" && space.module !== "courses") {
        return yield* Effect.fail(invalidField("issuer", M.ruleNeedsModule("courses")))
      }
      if (issuer === "event_attendance" && space.module !== "events") {
        return yield* Effect.fail(invalidField("issuer", M.ruleNeedsModule("events")))
      }
      yield* repo.setRule(member.communityId, space.spaceId, issuer, space.title, yield* now)
      return yield* rule(viewerOfMember(member), space.spaceId)
    })

    // ---- Templates

    const findTemplate = (communityId: string, id: string) =>
      Effect.flatMap(
        repo.findTemplate(communityId, id.toLowerCase()),
        Option.match({
          onNone: () => Effect.fail(notFound(M.templateNotFound)),
          onSome: Effect.succeed
        })
      )

    const staffTemplate = (member: Member, id: string) =>
      Effect.zipRight(requireRole(member, staffRoles), findTemplate(member.communityId, id))

    const checkFont = (fontId: string | undefined) =>
      fontId === undefined || findFont(fontId) !== undefined
        ? Effect.void
        : Effect.fail(invalidField("fontId", M.fontUnknown(fontId)))

    /** Stores an uploaded image under a fresh key (blobs are never rewritten, so duplicates share them). */
    const storeImage = (communityId: string, templateId: string, param: "logo" | "signature", value: string | null) =>
      Effect.gen(function*() {
        if (value === null) return null
        const image = yield* decodeImage(param, value)
        const key = `certificates/${communityId}/templates/${templateId}/${param}-${yield* ids.next}`
        yield* blobs.put(key, image.bytes, image.type)
        return key
      })

    const createTemplate = traced("Certificates.createTemplate")(function*(member: Member, input: NewTemplateInput) {
      yield* requireRole(member, staffRoles)
      const space = yield* bodySpace(member, input.spaceId)
      yield* checkFont(input.fontId)
      const id = yield* ids.next
      const at = yield* now
      const row: TemplateRow = {
        id,
        communityId: member.communityId,
        spaceId: space.spaceId,
        name: input.name,
        title: input.title ?? input.name,
        body: input.body ?? DEFAULT_BODY,
        fontId: input.fontId ?? DEFAULT_FONT,
        orientation: input.orientation ?? "landscape",
        pageSize: input.pageSize ?? "A4",
        background: (input.background ?? "#ffffff").toLowerCase(),
        logoKey: yield* storeImage(member.communityId, id, "logo", input.logo ?? null),
        signatureKey: yield* storeImage(member.communityId, id, "signature", input.signature ?? null),
        status: "draft",
        createdAt: at,
        updatedAt: at
      }
      yield* repo.insertTemplate(row)
      return templateView(row)
    })

    const templateDetail = traced("Certificates.template")(function*(member: Member, id: string) {
      return templateView(yield* staffTemplate(member, id))
    })

    const updateTemplate = traced("Certificates.updateTemplate")(
      function*(member: Member, id: string, input: TemplateInput) {
        const template = yield* staffTemplate(member, id)
        yield* checkFont(input.fontId)
        const changes: { -readonly [K in keyof TemplateFields]?: TemplateFields[K] } = {}
        if (input.name !== undefined) changes.name = input.name
        if (input.title !== undefined) changes.title = input.title
        if (input.body !== undefined) changes.body = input.body
        if (input.fontId !== undefined) changes.fontId = input.fontId
        if (input.orientation !== undefined) changes.orientation = input.orientation
        if (input.pageSize !== undefined) changes.pageSize = input.pageSize
        if (input.background !== undefined) changes.background = input.background.toLowerCase()
        if (input.logo !== undefined) {
          changes.logoKey = yield* storeImage(member.communityId, template.id, "logo", input.logo)
        }
        if (input.signature !== undefined) {
          changes.signatureKey = yield* storeImage(member.communityId, template.id, "signature", input.signature)
        }
        yield* transactional(sql)(Effect.gen(function*() {
          const locked = yield* repo.lockTemplate(member.communityId, template.id)
          if (Option.isNone(locked)) return yield* Effect.fail(notFound(M.templateNotFound))
          if (!editableTemplateStatuses.includes(locked.value.status)) {
            const message = M.templateNotEditable(locked.value.status)
            return yield* Effect.fail(conflict(message, [fieldError("status", message)]))
          }
          yield* repo.updateTemplate(member.communityId, template.id, changes, yield* now)
        }))
        return templateView(yield* findTemplate(member.communityId, template.id))
      }
    )

    const moveTemplate = (to: TemplateStatus) => (member: Member, id: string) =>
      Effect.gen(function*() {
        const template = yield* staffTemplate(member, id)
        yield* transactional(sql)(Effect.gen(function*() {
          const locked = yield* repo.lockTemplate(member.communityId, template.id)
          if (Option.isNone(locked)) return yield* Effect.fail(notFound(M.templateNotFound))
          yield* checkTemplateMove(locked.value.status, to)
          yield* repo.setTemplateStatus(member.communityId, template.id, to, yield* now)
        }))
        return templateView(yield* findTemplate(member.communityId, template.id))
      })

    const activateTemplate = traced("Certificates.activateTemplate")(function*(member: Member, id: string) {
      return yield* moveTemplate("active")(member, id)
    })
    const archiveTemplate = traced("Certificates.archiveTemplate")(function*(member: Member, id: string) {
      return yield* moveTemplate("archived")(member, id)
    })

    const duplicateTemplate = traced("Certificates.duplicateTemplate")(function*(member: Member, id: string) {
      const template = yield* staffTemplate(member, id)
      const at = yield* now
      const row: TemplateRow = {
        ...template,
        id: yield* ids.next,
        name: `${template.name} (cópia)`.slice(0, 200),
        status: "draft",
        createdAt: at,
        updatedAt: at
      }
      yield* repo.insertTemplate(row)
      return templateView(row)
    })

    const previewTemplate = traced("Certificates.previewTemplate")(
      function*(member: Member, id: string, format: "pdf" | "png") {
        const template = yield* staffTemplate(member, id)
        const space = yield* access.space(viewerOfMember(member), template.spaceId)
        const content = yield* rendering.content(template, {
          name: "Maria Exemplo da Silva",
          code: "XXXX-XXXX-XXXX-XXXX",
          spaceTitle: space.title,
          date: yield* now
        }, "PREVIEW")
        const bytes = format === "pdf"
          ? yield* rendering.pdf(content, yield* now).pipe(Effect.orDie)
          : yield* rendering.png(content, "page").pipe(Effect.orDie)
        return { bytes, contentType: format === "pdf" ? "application/pdf" : "image/png" }
      }
    )

    const listTemplates = traced("Certificates.listTemplates")(function*(member: Member, query: TemplateQuery) {
      yield* requireRole(member, staffRoles)
      const limit = query.limit ?? DEFAULT_LIMIT
      const after = yield* decodeCursor(query.cursor, KeyCursor)
      if (query.spaceId !== undefined) yield* access.space(viewerOfMember(member), query.spaceId)
      const rows = yield* repo.listTemplates(member.communityId, {
        spaceId: query.spaceId?.toLowerCase(),
        status: query.status,
        after,
        limit
      })
      const page = toPage(rows, limit, (row) => [row.createdAt.toISOString(), row.id])
      return { items: page.items.map(templateView), pagination: page.pagination }
    })

    // ---- Issuing

    const issue = traced("Certificates.issue")(function*(
      member: Member,
      input: { templateId: string; spaceId: string; profileIds: ReadonlyArray<string> }
    ) {
      yield* requireRole(member, staffRoles)
      const space = yield* bodySpace(member, input.spaceId)
      const template = yield* findTemplate(member.communityId, input.templateId).pipe(
        Effect.catchIf(
          (error) => error.status === 404,
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
      const row = yield* repo.findBatch(member.communityId, id.toLowerCase())
      if (Option.isNone(row)) return yield* Effect.fail(notFound(M.batchNotFound))
      return batchView(row.value)
    })

    // ---- Certificates

    const find = (communityId: string, id: string) =>
      Effect.flatMap(
        repo.find(communityId, id.toLowerCase()),
        Option.match({ onNone: () => Effect.fail(notFound(M.certificateNotFound)), onSome: Effect.succeed })
      )

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
      const limit = query.limit ?? DEFAULT_LIMIT
      const after = yield* decodeCursor(query.cursor, KeyCursor)
      const rows = yield* repo.list(member.communityId, {
        spaceId: query.spaceId?.toLowerCase(),
        templateId: query.templateId?.toLowerCase(),
        batchId: query.batchId?.toLowerCase(),
        profileId: query.profileId?.toLowerCase(),
        status: query.status,
        after,
        limit
      })
      const page = toPage(rows, limit, (row) => [row.createdAt.toISOString(), row.id])
      return { items: page.items.map((row) => certificateView(row, base, true)), pagination: page.pagination }
    })

    const mine = traced("Certificates.mine")(function*(account: Account, query: PageQuery) {
      const limit = query.limit ?? DEFAULT_LIMIT
      const after = yield* decodeCursor(query.cursor, KeyCursor)
      const rows = yield* repo.listOfAccount(account.id, { after, limit })
      const page = toPage(rows, limit, (row) => [row.createdAt.toISOString(), row.id])
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
          const locked = yield* repo.lock(member.communityId, found.id)
          if (Option.isNone(locked)) return yield* Effect.fail(notFound(M.certificateNotFound))
          yield* checkCertificateMove(locked.value.status, to)
          return yield* change(locked.value, yield* now)
        }))
      })

    const revoke = traced("Certificates.revoke")(function*(member: Member, id: string, reason: string) {
      yield* move(
        member,
        id,
        "revoked",
        (row, at) =>
          Effect.zipRight(
            repo.update(member.communityId, row.id, { status: "revoked", revokedAt: at, revokeReason: reason }, at),
            audit.record({
              actor: member.account,
              action: "certificate.revoke",
              target: { type: "certificate", id: row.id },
              community: member.communityId,
              details: { reason, asProfileId: member.actingProfileId }
            })
          )
      )
      return certificateView(yield* find(member.communityId, id), base, true)
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
        const locked = yield* repo.lock(member.communityId, found.id)
        if (Option.isNone(locked)) return yield* Effect.fail(notFound(M.certificateNotFound))
        if (!deletableStatuses.includes(locked.value.status)) {
          const message = M.notDeletable(locked.value.status)
          return yield* Effect.fail(conflict(message, [fieldError("status", message)]))
        }
        yield* repo.remove(member.communityId, found.id)
        return [
          locked.value.pdfKey,
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
      rule,
      setRule,
      createTemplate,
      templateDetail,
      updateTemplate,
      activateTemplate,
      archiveTemplate,
      duplicateTemplate,
      previewTemplate,
      listTemplates,
      issue,
      batch,
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
  dependencies: [CertificatesRepo.Default, Generation.Default, Rendering.Default]
}) {}
