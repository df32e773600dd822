import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { NotFound } from "../domain/AppError"
import { declared } from "../domain/Failure"
import { OneOf } from "../domain/Role"
import { ParametersRefused } from "../http/requestFailures"
import { Iso, Nullable } from "./apiParts"

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

export const CodeParam = Schema.Struct({ code: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(40)) })

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
      .addError(declared(NotFound, "code_unknown"))
      .addError(ParametersRefused)
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
      .addError(declared(NotFound, "code_unknown", "image_withdrawn"))
      .addError(ParametersRefused)
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
      .addError(declared(NotFound, "code_unknown", "credential_withdrawn"))
      .addError(ParametersRefused)
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
