import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { RateLimitPolicy } from "../api/rateLimitHeaders"
import { Conflict, Forbidden, InvalidInput, NotFound, RateLimited } from "../domain/AppError"
import { Ok, Page } from "../domain/Envelope"
import { declared } from "../domain/Failure"
import { Body, Trimmed } from "../domain/Fields"
import { IdParam, Uuid } from "../domain/Ids"
import { PageQuery } from "../domain/Pagination"
import { OneOf } from "../domain/Role"
import { BodyRefused, ParametersRefused, WriteRefused } from "../http/requestFailures"
import { Authenticated, MemberScope } from "../http/Security"
import { Binary, Iso, MOVES, Nullable, STAFF } from "./apiParts"
import { CodeParam, Verdict } from "./CertificatePagesApi"
import { batchStatuses, certificateStatuses } from "./Policy"
import { templateEndpoints } from "./TemplatesApi"

export { CertificatePagesApi, Verdict } from "./CertificatePagesApi"
export { Font, NewTemplate, Rule, Template, TemplateChanges } from "./TemplatesApi"

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

export const IssueRequest = Body({
  templateId: Uuid,
  spaceId: Schema.String.pipe(Schema.maxLength(100)),
  profileIds: Schema.Array(Uuid).pipe(
    Schema.minItems(1),
    Schema.maxItems(1000)
  ).annotations({ message: () => ({ message: "must be a list of 1 to 1000 profile ids", override: false }) })
})

const CertificateQuery = Schema.Struct({
  ...PageQuery.fields,
  spaceId: Schema.optional(Uuid),
  templateId: Schema.optional(Uuid),
  batchId: Schema.optional(Uuid),
  profileId: Schema.optional(Uuid),
  status: Schema.optional(OneOf(...certificateStatuses))
})

const TokenParam = Schema.Struct({ token: Schema.String.pipe(Schema.maxLength(200)) })

const HOLDER_OR_STAFF = "The holder (the acting profile) or staff; another member's certificate answers 404."

const Redirect = Schema.Void.annotations(HttpApiSchema.annotations({ status: 302 }))

export class CertificatesApi extends HttpApiGroup.make("certificates")
  .annotateContext(OpenApi.annotations({
    title: "Certificates",
    description: "Certificate rules, templates, issuing batches and the certificates themselves."
  }))
  .add(templateEndpoints.rule)
  .add(templateEndpoints.setRule)
  .add(templateEndpoints.fonts)
  .add(templateEndpoints.templates)
  .add(templateEndpoints.createTemplate)
  .add(templateEndpoints.template)
  .add(templateEndpoints.updateTemplate)
  .add(templateEndpoints.activateTemplate)
  .add(templateEndpoints.archiveTemplate)
  .add(templateEndpoints.duplicateTemplate)
  .add(templateEndpoints.previewTemplate)
  .add(
    HttpApiEndpoint.get("list", "/certificates")
      .setUrlParams(CertificateQuery)
      .addSuccess(Page(Certificate))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(declared(Forbidden, "role_required"))
      .addError(ParametersRefused)
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
      .addError(
        declared(
          InvalidInput,
          "recipients_unknown",
          "space_id_required",
          "space_not_found",
          "template_not_found",
          "template_other_space"
        )
      )
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(Conflict, "template_not_active"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF} Issues a batch: \`templateId\` (an \`active\` template, else 409 param \`templateId\`), \`spaceId\` (the template's space), \`profileIds\` (1 to 1000 active profiles of this community; an unknown one answers 400 with param \`profileIds.<index>\`). Answers 202 with \`data.id\` = the batch id; the certificates are generated by durable jobs (GET /api/certificates/batches/{id}). A recipient who already holds a live certificate of the template is counted in \`skipped\`. Each issued certificate is notified to its holder (\`certificate_issued\`) and e-mailed, unless they turned that kind's e-mail off.`
      )
      .annotate(OpenApi.Summary, "Issue certificates")
  )
  .add(
    HttpApiEndpoint.get("batch", "/certificates/batches/:id")
      .setPath(IdParam)
      .addSuccess(Ok(Batch))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "batch_not_found"))
      .addError(ParametersRefused)
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
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(ParametersRefused)
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
      .addError(declared(NotFound, "code_unknown"))
      .addError(ParametersRefused)
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
      .addError(declared(NotFound, "code_unknown", "file_link_invalid"))
      .addError(ParametersRefused)
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
      .addError(declared(NotFound, "certificate_not_found"))
      .addError(ParametersRefused)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, `${HOLDER_OR_STAFF} \`lastError\` is shown to staff only.`)
      .annotate(OpenApi.Summary, "Get a certificate")
  )
  .add(
    HttpApiEndpoint.del("remove", "/certificates/:id")
      .setPath(IdParam)
      .addSuccess(Ok(Schema.Null))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "certificate_not_found"))
      .addError(declared(Conflict, "not_deletable"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
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
      .addError(declared(NotFound, "certificate_not_found"))
      .addError(declared(Conflict, "not_rendered"))
      .addError(ParametersRefused)
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
      .addError(declared(NotFound, "certificate_not_found"))
      .addError(declared(Conflict, "not_rendered"))
      .addError(ParametersRefused)
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
      .addError(declared(Forbidden, "indexing_holder_only"))
      .addError(declared(NotFound, "certificate_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
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
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "certificate_not_found"))
      .addError(declared(Conflict, "status_move"))
      .addError(BodyRefused)
      .addError(WriteRefused)
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
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "certificate_not_found"))
      .addError(declared(Conflict, "recipient_gone", "status_move"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
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
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "certificate_not_found"))
      .addError(declared(Conflict, "not_issued"))
      .addError(declared(RateLimited, "rate_limited"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(RateLimitPolicy, "certificateMail")
      .middleware(MemberScope)
      .annotate(OpenApi.Description, `${STAFF} E-mails an \`issued\` certificate to its holder again (409 otherwise).`)
      .annotate(OpenApi.Summary, "Resend a certificate e-mail")
  )
  .add(
    HttpApiEndpoint.post("retry", "/certificates/:id/retry")
      .setPath(IdParam)
      .addSuccess(Ok(Certificate))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "certificate_not_found"))
      .addError(declared(Conflict, "status_move"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF} \`failed -> pending\` with fresh attempts; a job generates it again. ${MOVES}`
      )
      .annotate(OpenApi.Summary, "Retry a failed certificate")
  )
  .prefix("/api")
{}
