import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { RateLimitPolicy } from "../api/rateLimitHeaders"
import { Ok, Page } from "../domain/Envelope"
import { Body, HexColor, Name, Trimmed } from "../domain/Fields"
import { IdParam, Uuid } from "../domain/Ids"
import { PageQuery } from "../domain/Pagination"
import { OneOf } from "../domain/Role"
import { BadRequest, Conflict, Forbidden, NotFound, TooManyRequests, Unauthorized } from "../http/ApiErrors"
import { Authenticated, MemberScope, PublicScope } from "../http/Security"
import { batchStatuses, certificateStatuses, issuers, orientations, pageSizes, templateStatuses } from "./Policy"

const Iso = Schema.String
const Nullable = <S extends Schema.Schema.Any>(schema: S) => Schema.NullOr(schema)

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

export const Batch = Schema.Struct({
  id: Schema.String,
  communityId: Schema.String,
  spaceId: Schema.String,
  templateId: Schema.String,
  source: Schema.String,
  status: OneOf(...batchStatuses),
  total: Schema.Number,
  issued: Schema.Number,
  failed: Schema.Number,
  skipped: Schema.Number,
  pending: Schema.Number,
  createdAt: Iso,
  updatedAt: Iso,
  finishedAt: Nullable(Iso)
})

export const Certificate = Schema.Struct({
  id: Schema.String,
  communityId: Schema.String,
  spaceId: Schema.String,
  spaceTitle: Schema.String,
  templateId: Schema.String,
  templateName: Schema.String,
  title: Schema.String,
  batchId: Nullable(Schema.String),
  profileId: Schema.String,
  recipientName: Schema.String,
  code: Schema.String,
  status: OneOf(...certificateStatuses),
  attempts: Schema.Number,
  lastError: Nullable(Schema.String),
  indexing: Schema.Boolean,
  issuedAt: Nullable(Iso),
  revokedAt: Nullable(Iso),
  revokeReason: Nullable(Schema.String),
  supersededById: Nullable(Schema.String),
  supersededByCode: Nullable(Schema.String),
  supersedesId: Nullable(Schema.String),
  verifyUrl: Schema.String,
  createdAt: Iso,
  updatedAt: Iso
})

export const Verdict = Schema.Struct({
  code: Schema.String,
  status: OneOf("valid", "revoked", "superseded"),
  valid: Schema.Boolean,
  title: Schema.String,
  recipientName: Schema.String,
  spaceTitle: Schema.String,
  communityId: Schema.String,
  issuedAt: Iso,
  revokedAt: Nullable(Iso),
  revokeReason: Nullable(Schema.String),
  supersededBy: Nullable(Schema.Struct({ code: Schema.String, pageUrl: Schema.String })),
  pageUrl: Schema.String,
  imageUrl: Schema.String,
  credentialUrl: Schema.String,
  jwksUrl: Schema.String
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

export const IssueRequest = Body({
  templateId: Uuid,
  spaceId: Schema.String.pipe(Schema.maxLength(100)),
  profileIds: Schema.Array(Uuid).pipe(
    Schema.minItems(1),
    Schema.maxItems(1000)
  ).annotations({ message: () => ({ message: "must be a list of 1 to 1000 profile ids", override: false }) })
})

const TemplateQuery = Schema.Struct({
  ...PageQuery.fields,
  spaceId: Schema.optional(Uuid),
  status: Schema.optional(OneOf(...templateStatuses))
})

const CertificateQuery = Schema.Struct({
  ...PageQuery.fields,
  spaceId: Schema.optional(Uuid),
  templateId: Schema.optional(Uuid),
  batchId: Schema.optional(Uuid),
  profileId: Schema.optional(Uuid),
  status: Schema.optional(OneOf(...certificateStatuses))
})

const SpaceParam = Schema.Struct({ spaceId: Uuid })
const CodeParam = Schema.Struct({ code: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(40)) })
const TokenParam = Schema.Struct({ token: Schema.String.pipe(Schema.maxLength(200)) })

const STAFF = "Owner, admin or moderator (403 otherwise)."
const HOLDER_OR_STAFF = "The holder (the acting profile) or staff; another member's certificate answers 404."
const MOVES = "A refused move answers 409 with `errors[0].param = \"status\"` and the allowed moves."

const Binary = HttpApiSchema.Uint8Array({ contentType: "application/octet-stream" })
const Redirect = Schema.Void.annotations(HttpApiSchema.annotations({ status: 302 }))

export class CertificatesApi extends HttpApiGroup.make("certificates")
  .annotateContext(OpenApi.annotations({
    title: "Certificates",
    description: "Certificate rules, templates, issuing batches and the certificates themselves."
  }))
  .add(
    HttpApiEndpoint.get("rule", "/certificates/spaces/:spaceId")
      .setPath(SpaceParam)
      .addSuccess(Ok(Rule))
      .addError(NotFound)
      .middleware(PublicScope)
      .annotate(
        OpenApi.Description,
        "Public (token optional). The space's certificate rule — `issuer`: `staff` (default), `course_completion` or `event_attendance` — and what the caller may do there (`canIssue`, `canManageTemplates`, `canSetRule`, `canListIssued`, `canSeeOwn`). A space hidden from the caller or of another community answers 404."
      )
      .annotate(OpenApi.Summary, "Get a space's certificate rule")
  )
  .add(
    HttpApiEndpoint.put("setRule", "/certificates/spaces/:spaceId")
      .setPath(SpaceParam)
      .setPayload(Body({ issuer: OneOf(...issuers) }))
      .addSuccess(Ok(Rule))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF} Sets who issues: \`staff\` (only staff, by POST /api/certificates), \`course_completion\` (also automatically when a member completes a course of this courses space) or \`event_attendance\` (events spaces). Staff may always issue by hand. A rule that does not fit the space's module answers 400 (param \`issuer\`).`
      )
      .annotate(OpenApi.Summary, "Set a space's certificate rule")
  )
  .add(
    HttpApiEndpoint.get("fonts", "/certificates/fonts")
      .addSuccess(Ok(Schema.Array(Font)))
      .middleware(PublicScope)
      .annotate(
        OpenApi.Description,
        "Public. The font catalogue: fonts shipped in npm packages (`@fontsource/*`, SIL OFL), never downloaded at run time; each is embedded in the PDF and drawn in the images. A template's `fontId` is one of these ids."
      )
      .annotate(OpenApi.Summary, "List certificate fonts")
  )
  .add(
    HttpApiEndpoint.get("templates", "/certificates/templates")
      .setUrlParams(TemplateQuery)
      .addSuccess(Page(Template))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF} Templates by creation (keyset: \`limit\`, \`cursor\`); \`spaceId\` keeps one space's, \`status\` one state's.`
      )
      .annotate(OpenApi.Summary, "List certificate templates")
  )
  .add(
    HttpApiEndpoint.post("createTemplate", "/certificates/templates")
      .setPayload(NewTemplate)
      .addSuccess(Ok(Template), { status: 201 })
      .addError(BadRequest)
      .addError(Forbidden)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF} A new \`draft\`. \`spaceId\` (required, a space of this community) and \`name\`; \`title\` (default the name), \`body\` with the placeholders \`{{name}}\`, \`{{space}}\`, \`{{date}}\`, \`{{code}}\`, \`fontId\` (GET /api/certificates/fonts; default \`inter\`), \`orientation\` (\`landscape\` default, \`portrait\`), \`pageSize\` (\`A4\` default, \`Letter\`), \`background\` (\`#rrggbb\`, default white); \`logo\` and \`signature\` as \`data:image/png;base64,…\` or JPEG, at most 256 KB, checked by their bytes (400 otherwise).`
      )
      .annotate(OpenApi.Summary, "Create a certificate template")
  )
  .add(
    HttpApiEndpoint.get("template", "/certificates/templates/:id")
      .setPath(IdParam)
      .addSuccess(Ok(Template))
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, `${STAFF} One template, with its \`allowedMoves\`.`)
      .annotate(OpenApi.Summary, "Get a certificate template")
  )
  .add(
    HttpApiEndpoint.put("updateTemplate", "/certificates/templates/:id")
      .setPath(IdParam)
      .setPayload(TemplateChanges)
      .addSuccess(Ok(Template))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF} Edits the layout (fields as at creation, all optional; \`logo: null\` removes the logo). \`draft\` and \`active\` templates are editable (issued certificates keep their files); an archived one answers 409.`
      )
      .annotate(OpenApi.Summary, "Update a certificate template")
  )
  .add(
    HttpApiEndpoint.post("activateTemplate", "/certificates/templates/:id/activate")
      .setPath(IdParam)
      .addSuccess(Ok(Template))
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, `${STAFF} \`draft -> active\`: only active templates issue. ${MOVES}`)
      .annotate(OpenApi.Summary, "Activate a certificate template")
  )
  .add(
    HttpApiEndpoint.post("archiveTemplate", "/certificates/templates/:id/archive")
      .setPath(IdParam)
      .addSuccess(Ok(Template))
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, `${STAFF} \`draft | active -> archived\` (final). ${MOVES}`)
      .annotate(OpenApi.Summary, "Archive a certificate template")
  )
  .add(
    HttpApiEndpoint.post("duplicateTemplate", "/certificates/templates/:id/duplicate")
      .setPath(IdParam)
      .addSuccess(Ok(Template), { status: 201 })
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, `${STAFF} A new \`draft\` with the same layout, from a template in any state.`)
      .annotate(OpenApi.Summary, "Duplicate a certificate template")
  )
  .add(
    HttpApiEndpoint.post("previewTemplate", "/certificates/templates/:id/preview")
      .setPath(IdParam)
      .setUrlParams(Schema.Struct({ format: Schema.optional(OneOf("png", "pdf")) }))
      .addSuccess(Binary)
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF} The template rendered on the server with sample data (recipient \`Maria Exemplo da Silva\`, today's date, code \`XXXX-XXXX-XXXX-XXXX\`) and a PREVIEW watermark; nothing is stored. Query \`format\`: \`png\` (default, the full page) or \`pdf\`; the answer is the file itself (image/png or application/pdf).`
      )
      .annotate(OpenApi.Summary, "Preview a certificate template")
  )
  .add(
    HttpApiEndpoint.get("list", "/certificates")
      .setUrlParams(CertificateQuery)
      .addSuccess(Page(Certificate))
      .addError(BadRequest)
      .addError(Forbidden)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF} Certificates of the community by creation (keyset: \`limit\`, \`cursor\`); filters \`spaceId\`, \`templateId\`, \`batchId\`, \`profileId\`, \`status\`.`
      )
      .annotate(OpenApi.Summary, "List certificates")
  )
  .add(
    HttpApiEndpoint.post("issue", "/certificates")
      .setPayload(IssueRequest)
      .addSuccess(Ok(Batch), { status: 202 })
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF} Issues a batch: \`templateId\` (an \`active\` template, else 409 param \`templateId\`), \`spaceId\` (the template's space), \`profileIds\` (1 to 1000 active profiles of this community; an unknown one answers 400 with param \`profileIds.<index>\`). Answers 202 with \`data.id\` = the batch id; the certificates are generated by durable jobs (GET /api/certificates/batches/{id}). A recipient who already holds a live certificate of the template is counted in \`skipped\`. Each issued certificate is e-mailed to its holder.`
      )
      .annotate(OpenApi.Summary, "Issue certificates")
  )
  .add(
    HttpApiEndpoint.get("batch", "/certificates/batches/:id")
      .setPath(IdParam)
      .addSuccess(Ok(Batch))
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF} Progress: \`queued -> processing -> completed | completed_with_errors\`, counters \`total\`, \`issued\`, \`failed\`, \`skipped\` and \`pending\`.`
      )
      .annotate(OpenApi.Summary, "Get an issuing batch")
  )
  .add(
    HttpApiEndpoint.get("mine", "/certificates/mine")
      .setUrlParams(PageQuery)
      .addSuccess(Page(Certificate))
      .addError(BadRequest)
      .middleware(Authenticated)
      .annotate(
        OpenApi.Description,
        "The caller's own certificates in every community (issued, revoked or superseded), by creation (keyset). No X-CommunityId."
      )
      .annotate(OpenApi.Summary, "List the caller's certificates")
  )
  .add(
    HttpApiEndpoint.get("verify", "/certificates/verify/:code")
      .setPath(CodeParam)
      .addSuccess(Ok(Verdict))
      .addError(NotFound)
      .annotate(
        OpenApi.Description,
        "Public, no X-CommunityId. `status`: `valid`, `revoked` (with `revokedAt` and `revokeReason`) or `superseded` (with `supersededBy.code`). Codes are 80 random bits written `XXXX-XXXX-XXXX-XXXX` (Crockford base32; case, dashes and the look-alikes I/L/O are forgiven). An unknown code answers 404. `credentialUrl` is the Open Badges 3.0 credential (VC-JWT, EdDSA), verifiable with the key of `jwksUrl`."
      )
      .annotate(OpenApi.Summary, "Verify a certificate code")
  )
  .add(
    HttpApiEndpoint.get("file", "/certificates/files/:token")
      .setPath(TokenParam)
      .addSuccess(Binary)
      .addError(NotFound)
      .annotate(
        OpenApi.Description,
        "Public, no X-CommunityId: the target of the signed, expiring links that `/pdf` and `/image` redirect to (10 minutes). Answers the file with its content type (application/pdf or image/png) and `Cache-Control: private, max-age=<seconds left>`; a wrong or expired link answers 404."
      )
      .annotate(OpenApi.Summary, "Download a certificate file")
  )
  .add(
    HttpApiEndpoint.get("detail", "/certificates/:id")
      .setPath(IdParam)
      .addSuccess(Ok(Certificate))
      .addError(NotFound)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, `${HOLDER_OR_STAFF} \`lastError\` is shown to staff only.`)
      .annotate(OpenApi.Summary, "Get a certificate")
  )
  .add(
    HttpApiEndpoint.del("remove", "/certificates/:id")
      .setPath(IdParam)
      .addSuccess(Ok(Schema.Null))
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF} Deletes a \`failed\` or \`revoked\` certificate and its files; any other state answers 409.`
      )
      .annotate(OpenApi.Summary, "Delete a certificate")
  )
  .add(
    HttpApiEndpoint.get("pdf", "/certificates/:id/pdf")
      .setPath(IdParam)
      .addSuccess(Redirect)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${HOLDER_OR_STAFF} 302 to a signed link to the PDF (A4 or Letter in the template's orientation, embedded font, vector text, QR code of the verification page), valid 10 minutes. Before it is generated: 409.`
      )
      .annotate(OpenApi.Summary, "Get a certificate's PDF link")
  )
  .add(
    HttpApiEndpoint.get("image", "/certificates/:id/image")
      .setPath(IdParam)
      .setUrlParams(Schema.Struct({ variant: Schema.optional(OneOf("card", "page")) }))
      .addSuccess(Redirect)
      .addError(BadRequest)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${HOLDER_OR_STAFF} 302 to a signed link to the PNG: \`variant=card\` (default, 1200×630 for social networks) or \`page\` (the whole certificate). Rendered on first request, then kept.`
      )
      .annotate(OpenApi.Summary, "Get a certificate's image link")
  )
  .add(
    HttpApiEndpoint.patch("indexing", "/certificates/:id/indexing")
      .setPath(IdParam)
      .setPayload(Body({ indexing: Schema.Boolean }))
      .addSuccess(Ok(Certificate))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${HOLDER_OR_STAFF} Whether search engines may index the public page \`/certificates/{code}\` (\`<meta name="robots">\`); off by default. Only the holder (their own token) turns it on, since it publishes their name; staff may turn it off (403 when staff, or staff acting as the holder with X-ProfileId, turn it on).`
      )
      .annotate(OpenApi.Summary, "Set a certificate's search indexing")
  )
  .add(
    HttpApiEndpoint.post("revoke", "/certificates/:id/revoke")
      .setPath(IdParam)
      .setPayload(Body({ reason: Trimmed(500).pipe(Schema.minLength(1), Schema.maxLength(500)) }))
      .addSuccess(Ok(Certificate))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF} \`issued -> revoked\` (final); \`reason\` is kept and shown by the verification. ${MOVES}`
      )
      .annotate(OpenApi.Summary, "Revoke a certificate")
  )
  .add(
    HttpApiEndpoint.post("reissue", "/certificates/:id/reissue")
      .setPath(IdParam)
      .addSuccess(Ok(Certificate), { status: 201 })
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF} \`issued -> superseded\`; answers 201 with the new certificate (\`pending\`, a new code, the holder's current profile name), generated by a job. The old verification says superseded and links to the new one. ${MOVES}`
      )
      .annotate(OpenApi.Summary, "Reissue a certificate")
  )
  .add(
    HttpApiEndpoint.post("resendEmail", "/certificates/:id/resend-email")
      .setPath(IdParam)
      .addSuccess(Ok(Certificate))
      .annotate(RateLimitPolicy, "certificateMail")
      .addError(TooManyRequests)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, `${STAFF} E-mails an \`issued\` certificate to its holder again (409 otherwise).`)
      .annotate(OpenApi.Summary, "Resend a certificate e-mail")
  )
  .add(
    HttpApiEndpoint.post("retry", "/certificates/:id/retry")
      .setPath(IdParam)
      .addSuccess(Ok(Certificate))
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF} \`failed -> pending\` with fresh attempts; a job generates it again. ${MOVES}`
      )
      .annotate(OpenApi.Summary, "Retry a failed certificate")
  )
  .addError(Unauthorized)
  .prefix("/api")
{}

/**
 * Public pages outside /api: the verification page, its image and credential, and the issuers' keys.
 */
export class CertificatePagesApi extends HttpApiGroup.make("certificatePages")
  .annotateContext(OpenApi.annotations({
    title: "Certificate pages",
    description: "Public verification pages, card images, Open Badges credentials and issuer keys (outside /api)."
  }))
  .add(
    HttpApiEndpoint.get("page", "/certificates/:code")
      .setPath(CodeParam)
      .addSuccess(HttpApiSchema.Text({ contentType: "text/html" }))
      .addError(NotFound)
      .annotate(
        OpenApi.Description,
        "Public HTML verification page (server-rendered): valid, revoked (date and reason) or superseded (link to the new one); Open Graph tags with the 1200×630 image; `noindex` unless the certificate's indexing flag is on."
      )
      .annotate(OpenApi.Summary, "Certificate verification page")
  )
  .add(
    HttpApiEndpoint.get("pageImage", "/certificates/:code/image.png")
      .setPath(CodeParam)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "image/png" }))
      .addError(NotFound)
      .annotate(
        OpenApi.Description,
        "Public: the certificate's 1200×630 PNG (the page's og:image). Only for a certificate in force: a revoked or superseded one answers 404 (its card would still look valid; the page shows the verdict without it)."
      )
      .annotate(OpenApi.Summary, "Certificate card image")
  )
  .add(
    HttpApiEndpoint.get("credential", "/certificates/:code/credential.jwt")
      .setPath(CodeParam)
      .addSuccess(HttpApiSchema.Text({ contentType: "application/jwt" }))
      .addError(NotFound)
      .annotate(
        OpenApi.Description,
        "Public: the Open Badges 3.0 `OpenBadgeCredential` as a VC-JWT (`alg: EdDSA`, Ed25519), signed with the community's issuer key (`kid` in /.well-known/jwks.json). Only for a certificate in force: a revoked or superseded one answers 404 (its verification page still says so)."
      )
      .annotate(OpenApi.Summary, "Certificate credential (VC-JWT)")
  )
  .add(
    HttpApiEndpoint.get("jwks", "/.well-known/jwks.json")
      .addSuccess(Schema.Struct({ keys: Schema.Array(Schema.Unknown) }))
      .annotate(OpenApi.Description, "Public: the certificate issuers' public keys (Ed25519 JWKs, one per community).")
      .annotate(OpenApi.Summary, "Certificate issuers' public keys")
  )
{}
