import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import { conflict, fieldError, invalidField, isKind, NotFound } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { orNotFound } from "../domain/found"
import { type CommunityId, Uuid } from "../domain/Ids"
import { CursorPart, type PageQuery, paginate } from "../domain/Pagination"
import { requireRole } from "../domain/Policy"
import { staffRoles } from "../domain/Role"
import { BlobStore } from "../platform/BlobStore"
import { fromBase64 } from "../platform/bytes"
import { Ids } from "../platform/Ids"
import { traced } from "../platform/traced"
import { transactional } from "../sql/transaction"
import { Access, type Viewer, viewerOfMember } from "../structure/Access"
import { DEFAULT_FONT, findFont } from "./fonts"
import { CertificateMessages as M } from "./messages"
import {
  checkTemplateMove,
  editableTemplateStatuses,
  type Issuer,
  type Orientation,
  type PageSize,
  permissionsIn,
  type TemplateStatus
} from "./Policy"
import { Rendering } from "./Rendering"
import { CertificatesRepo, type TemplateFields, type TemplateRow } from "./Repo"
import { templateView } from "./view"

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

/** Certificates' space rules and templates (the facade `Certificates` offers them). */
export class CertificateTemplates extends Effect.Service<CertificateTemplates>()("@roda/core/CertificateTemplates", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* CertificatesRepo
    const access = yield* Access
    const ids = yield* Ids
    const blobs = yield* BlobStore
    const rendering = yield* Rendering
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    /** A space named in a body: required, of this community, visible to the caller (all 400). */
    const bodySpace = (member: Member, spaceId: string | null | undefined) =>
      Effect.gen(function*() {
        const id = spaceId?.trim().toLowerCase() ?? ""
        if (id === "") return yield* Effect.fail(invalidField("spaceId", M.spaceIdRequired))
        return yield* access.space(viewerOfMember(member), id).pipe(
          Effect.catchIf(isKind(NotFound), () => Effect.fail(invalidField("spaceId", M.spaceNotFound)))
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

    const findTemplate = (communityId: CommunityId, id: string) =>
      orNotFound(M.templateNotFound)(repo.findTemplate(communityId, id.toLowerCase()))

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
          const locked = yield* orNotFound(M.templateNotFound)(repo.lockTemplate(member.communityId, template.id))
          if (!editableTemplateStatuses.includes(locked.status)) {
            const message = M.templateNotEditable(locked.status)
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
          const locked = yield* orNotFound(M.templateNotFound)(repo.lockTemplate(member.communityId, template.id))
          yield* checkTemplateMove(locked.status, to)
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
      const page = yield* paginate(
        query,
        KeyCursor,
        (after, limit) =>
          Effect.gen(function*() {
            if (query.spaceId !== undefined) yield* access.space(viewerOfMember(member), query.spaceId)
            return yield* repo.listTemplates(member.communityId, {
              spaceId: query.spaceId?.toLowerCase(),
              status: query.status,
              after,
              limit
            })
          }),
        (row) => [row.createdAt.toISOString(), row.id]
      )
      return { items: page.items.map(templateView), pagination: page.pagination }
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
      /** The template, or 404 (for issuing). */
      find: findTemplate,
      bodySpace
    }
  }),
  dependencies: [CertificatesRepo.Default, Rendering.Default]
}) {}
