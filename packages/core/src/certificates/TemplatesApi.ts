import { HttpApiEndpoint, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../domain/AppError"
import { Ok, Page } from "../domain/Envelope"
import { declared } from "../domain/Failure"
import { Body, HexColor, Name } from "../domain/Fields"
import { IdParam, Uuid } from "../domain/Ids"
import { PageQuery } from "../domain/Pagination"
import { OneOf } from "../domain/Role"
import { BodyRefused, ParametersRefused, WriteRefused } from "../http/requestFailures"
import { MemberScope, PublicScope } from "../http/Security"
import { Binary, Iso, MOVES, Nullable, STAFF } from "./apiParts"
import { issuers, orientations, pageSizes, templateStatuses } from "./Policy"

export const Rule = Schema.Struct({
  spaceId: Schema.String,
  issuer: OneOf(...issuers),
  updatedAt: Nullable(Iso),
  canIssue: Schema.Boolean,
  canManageTemplates: Schema.Boolean,
  canSetRule: Schema.Boolean,
  canListIssued: Schema.Boolean,
  canSeeOwn: Schema.Boolean
})

export const Font = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  category: Schema.String,
  package: Schema.String,
  formats: Schema.Array(Schema.String)
})

export const Template = Schema.Struct({
  id: Schema.String,
  communityId: Schema.String,
  spaceId: Schema.String,
  name: Schema.String,
  title: Schema.String,
  body: Schema.String,
  fontId: Schema.String,
  orientation: OneOf(...orientations),
  pageSize: OneOf(...pageSizes),
  background: Schema.String,
  hasLogo: Schema.Boolean,
  hasSignature: Schema.Boolean,
  status: OneOf(...templateStatuses),
  allowedMoves: Schema.Array(Schema.String),
  createdAt: Iso,
  updatedAt: Iso
})

/** An uploaded image as a `data:` URL (PNG or JPEG, at most 256 KB); null removes it. */
const ImageUpload = Schema.NullOr(Schema.String.pipe(Schema.maxLength(400_000)))
const TemplateText = (max: number) => Schema.String.pipe(Schema.minLength(1), Schema.maxLength(max))
const FontId = Schema.String.pipe(Schema.maxLength(60))

const templateFields = {
  name: Name(200),
  title: Schema.optional(TemplateText(200)),
  body: Schema.optional(TemplateText(2000)),
  fontId: Schema.optional(FontId),
  orientation: Schema.optional(OneOf(...orientations)),
  pageSize: Schema.optional(OneOf(...pageSizes)),
  background: Schema.optional(HexColor),
  logo: Schema.optional(ImageUpload),
  signature: Schema.optional(ImageUpload)
}

export const NewTemplate = Body({
  spaceId: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(100)))),
  ...templateFields
})

export const TemplateChanges = Body({ ...templateFields, name: Schema.optional(templateFields.name) })

const TemplateQuery = Schema.Struct({
  ...PageQuery.fields,
  spaceId: Schema.optional(Uuid),
  status: Schema.optional(OneOf(...templateStatuses))
})

const SpaceParam = Schema.Struct({ spaceId: Uuid })

/** The endpoints of space rules and templates, in the order the `certificates` group lists them. */
export const templateEndpoints = {
  rule: HttpApiEndpoint.get("rule", "/certificates/spaces/:spaceId")
    .setPath(SpaceParam)
    .addSuccess(Ok(Rule))
    .addError(declared(NotFound, "space_unknown"))
    .addError(ParametersRefused)
    .middleware(PublicScope)
    .annotate(
      OpenApi.Description,
      "Public (token optional). The space's certificate rule — `issuer`: `staff` (default), `course_completion` or `event_attendance` — and what the caller may do there (`canIssue`, `canManageTemplates`, `canSetRule`, `canListIssued`, `canSeeOwn`). A space hidden from the caller or of another community answers 404."
    )
    .annotate(OpenApi.Summary, "Get a space's certificate rule"),
  setRule: HttpApiEndpoint.put("setRule", "/certificates/spaces/:spaceId")
    .setPath(SpaceParam)
    .setPayload(Body({ issuer: OneOf(...issuers) }))
    .addSuccess(Ok(Rule))
    .addError(declared(InvalidInput, "rule_needs_module"))
    .addError(declared(Forbidden, "role_required"))
    .addError(declared(NotFound, "space_unknown"))
    .addError(BodyRefused)
    .addError(WriteRefused)
    .middleware(MemberScope)
    .annotate(
      OpenApi.Description,
      `${STAFF} Sets who issues: \`staff\` (only staff, by POST /api/certificates), \`course_completion\` (also automatically when a member completes a course of this courses space) or \`event_attendance\` (also automatically when staff check a participant in at an event of this events space: POST /api/events/{id}/check-in; issued at the first check-in, not at the event's end). Automatic issuing gives each person one certificate per active template of the space, never a second. Staff may always issue by hand. A rule that does not fit the space's module answers 400 (param \`issuer\`).`
    )
    .annotate(OpenApi.Summary, "Set a space's certificate rule"),
  fonts: HttpApiEndpoint.get("fonts", "/certificates/fonts")
    .addSuccess(Ok(Schema.Array(Font)))
    .middleware(PublicScope)
    .annotate(
      OpenApi.Description,
      "Public. The font catalogue: fonts shipped in npm packages (`@fontsource/*`, SIL OFL), never downloaded at run time; each is embedded in the PDF and drawn in the images. A template's `fontId` is one of these ids."
    )
    .annotate(OpenApi.Summary, "List certificate fonts"),
  templates: HttpApiEndpoint.get("templates", "/certificates/templates")
    .setUrlParams(TemplateQuery)
    .addSuccess(Page(Template))
    .addError(declared(InvalidInput, "invalid_input"))
    .addError(declared(Forbidden, "role_required"))
    .addError(declared(NotFound, "space_unknown"))
    .addError(ParametersRefused)
    .middleware(MemberScope)
    .annotate(
      OpenApi.Description,
      `${STAFF} Templates by creation (keyset: \`limit\`, \`cursor\`); \`spaceId\` keeps one space's, \`status\` one state's.`
    )
    .annotate(OpenApi.Summary, "List certificate templates"),
  createTemplate: HttpApiEndpoint.post("createTemplate", "/certificates/templates")
    .setPayload(NewTemplate)
    .addSuccess(Ok(Template), { status: 201 })
    .addError(
      declared(InvalidInput, "font_unknown", "image_invalid", "image_too_large", "space_id_required", "space_not_found")
    )
    .addError(declared(Forbidden, "role_required"))
    .addError(BodyRefused)
    .addError(WriteRefused)
    .middleware(MemberScope)
    .annotate(
      OpenApi.Description,
      `${STAFF} A new \`draft\`. \`spaceId\` (required, a space of this community) and \`name\`; \`title\` (default the name), \`body\` with the placeholders \`{{name}}\`, \`{{space}}\`, \`{{date}}\`, \`{{code}}\`, \`fontId\` (GET /api/certificates/fonts; default \`inter\`), \`orientation\` (\`landscape\` default, \`portrait\`), \`pageSize\` (\`A4\` default, \`Letter\`), \`background\` (\`#rrggbb\`, default white); \`logo\` and \`signature\` as \`data:image/png;base64,…\` or JPEG, at most 256 KB, checked by their bytes (400 otherwise).`
    )
    .annotate(OpenApi.Summary, "Create a certificate template"),
  template: HttpApiEndpoint.get("template", "/certificates/templates/:id")
    .setPath(IdParam)
    .addSuccess(Ok(Template))
    .addError(declared(Forbidden, "role_required"))
    .addError(declared(NotFound, "template_not_found"))
    .addError(ParametersRefused)
    .middleware(MemberScope)
    .annotate(OpenApi.Description, `${STAFF} One template, with its \`allowedMoves\`.`)
    .annotate(OpenApi.Summary, "Get a certificate template"),
  updateTemplate: HttpApiEndpoint.put("updateTemplate", "/certificates/templates/:id")
    .setPath(IdParam)
    .setPayload(TemplateChanges)
    .addSuccess(Ok(Template))
    .addError(declared(InvalidInput, "font_unknown", "image_invalid", "image_too_large"))
    .addError(declared(Forbidden, "role_required"))
    .addError(declared(NotFound, "template_not_found"))
    .addError(declared(Conflict, "template_not_editable"))
    .addError(BodyRefused)
    .addError(WriteRefused)
    .middleware(MemberScope)
    .annotate(
      OpenApi.Description,
      `${STAFF} Edits the layout (fields as at creation, all optional; \`logo: null\` removes the logo). \`draft\` and \`active\` templates are editable (issued certificates keep their files); an archived one answers 409.`
    )
    .annotate(OpenApi.Summary, "Update a certificate template"),
  activateTemplate: HttpApiEndpoint.post("activateTemplate", "/certificates/templates/:id/activate")
    .setPath(IdParam)
    .addSuccess(Ok(Template))
    .addError(declared(Forbidden, "role_required"))
    .addError(declared(NotFound, "template_not_found"))
    .addError(declared(Conflict, "status_move"))
    .addError(ParametersRefused)
    .addError(WriteRefused)
    .middleware(MemberScope)
    .annotate(OpenApi.Description, `${STAFF} \`draft -> active\`: only active templates issue. ${MOVES}`)
    .annotate(OpenApi.Summary, "Activate a certificate template"),
  archiveTemplate: HttpApiEndpoint.post("archiveTemplate", "/certificates/templates/:id/archive")
    .setPath(IdParam)
    .addSuccess(Ok(Template))
    .addError(declared(Forbidden, "role_required"))
    .addError(declared(NotFound, "template_not_found"))
    .addError(declared(Conflict, "status_move"))
    .addError(ParametersRefused)
    .addError(WriteRefused)
    .middleware(MemberScope)
    .annotate(OpenApi.Description, `${STAFF} \`draft | active -> archived\` (final). ${MOVES}`)
    .annotate(OpenApi.Summary, "Archive a certificate template"),
  duplicateTemplate: HttpApiEndpoint.post("duplicateTemplate", "/certificates/templates/:id/duplicate")
    .setPath(IdParam)
    .addSuccess(Ok(Template), { status: 201 })
    .addError(declared(Forbidden, "role_required"))
    .addError(declared(NotFound, "template_not_found"))
    .addError(ParametersRefused)
    .addError(WriteRefused)
    .middleware(MemberScope)
    .annotate(OpenApi.Description, `${STAFF} A new \`draft\` with the same layout, from a template in any state.`)
    .annotate(OpenApi.Summary, "Duplicate a certificate template"),
  previewTemplate: HttpApiEndpoint.post("previewTemplate", "/certificates/templates/:id/preview")
    .setPath(IdParam)
    .setUrlParams(Schema.Struct({ format: Schema.optional(OneOf("png", "pdf")) }))
    .addSuccess(Binary)
    .addError(declared(Forbidden, "role_required"))
    .addError(declared(NotFound, "space_unknown", "template_not_found"))
    .addError(ParametersRefused)
    .addError(WriteRefused)
    .middleware(MemberScope)
    .annotate(
      OpenApi.Description,
      `${STAFF} The template rendered on the server with sample data (recipient \`Maria Exemplo da Silva\`, today's date, code \`XXXX-XXXX-XXXX-XXXX\`) and a PREVIEW watermark; nothing is stored. Query \`format\`: \`png\` (default, the full page) or \`pdf\`; the answer is the file itself (image/png or application/pdf).`
    )
    .annotate(OpenApi.Summary, "Preview a certificate template")
}
