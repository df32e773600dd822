import { HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { RodaApi } from "../api/RodaApi"
import { CurrentAccount, CurrentMember, CurrentVisitor } from "../domain/Caller"
import { Ok } from "../domain/Envelope"
import { apiGroup } from "../http/engine/apiGroup"
import { rateLimited } from "../http/rateLimited"
import { ok, page } from "../http/Reply"
import type { StoredBlob } from "../platform/BlobStore"
import { viewerOfVisitor } from "../structure/Access"
import { Certificate } from "./Api"
import { Certificates } from "./Certificates"
import { fontCatalogue } from "./fonts"
import { CertificateMessages as M } from "./messages"
import { Verification } from "./Verification"

const fonts = fontCatalogue.map((font) => ({
  id: font.id,
  name: font.name,
  category: font.category,
  package: font.package,
  formats: ["woff"]
}))

const binary = (bytes: Uint8Array, contentType: string, headers: Record<string, string>) =>
  HttpServerResponse.uint8Array(bytes, { contentType, headers })

/** A stored file, streamed from the BlobStore as the client reads it. */
const streamed = (blob: StoredBlob, headers: Record<string, string>) =>
  HttpServerResponse.stream(blob.stream, { contentType: blob.contentType, contentLength: blob.size, headers })

/** Resent e-mails count against `certificateMail` (RateLimits): the answer carries its headers. */
const emailResent = rateLimited(Ok(Certificate))

export const CertificatesHttp = apiGroup(RodaApi, "certificates", (handlers) =>
  Effect.gen(function*() {
    const certificates = yield* Certificates
    const verification = yield* Verification
    const withMember = <A, E, R>(f: (member: typeof CurrentMember.Service) => Effect.Effect<A, E, R>) =>
      Effect.flatMap(CurrentMember, f)
    return handlers
      .handle("rule", ({ path }) =>
        CurrentVisitor.pipe(
          Effect.flatMap((visitor) => certificates.rule(viewerOfVisitor(visitor), path.spaceId.toLowerCase())),
          Effect.flatMap((data) => ok(M.rule, data))
        ))
      .handle("setRule", ({ path, payload }) =>
        withMember((member) =>
          certificates.setRule(member, path.spaceId.toLowerCase(), payload.issuer)
        ).pipe(
          Effect.flatMap((data) => ok(M.ruleSaved, data))
        ))
      .handle("fonts", () => ok(M.fonts, fonts))
      .handle("templates", ({ urlParams }) =>
        withMember((member) => certificates.listTemplates(member, urlParams)).pipe(
          Effect.flatMap((result) => page(M.templates, result))
        ))
      .handle("createTemplate", ({ payload }) =>
        withMember((member) =>
          certificates.createTemplate(member, payload)
        ).pipe(
          Effect.flatMap((data) => ok(M.templateCreated, data))
        ))
      .handle("template", ({ path }) =>
        withMember((member) =>
          certificates.templateDetail(member, path.id)
        ).pipe(
          Effect.flatMap((data) => ok(M.template, data))
        ))
      .handle("updateTemplate", ({ path, payload }) =>
        withMember((member) =>
          certificates.updateTemplate(member, path.id, payload)
        ).pipe(
          Effect.flatMap((data) => ok(M.templateUpdated, data))
        ))
      .handle("activateTemplate", ({ path }) =>
        withMember((member) =>
          certificates.activateTemplate(member, path.id)
        ).pipe(
          Effect.flatMap((data) => ok(M.templateActivated, data))
        ))
      .handle("archiveTemplate", ({ path }) =>
        withMember((member) =>
          certificates.archiveTemplate(member, path.id)
        ).pipe(
          Effect.flatMap((data) => ok(M.templateArchived, data))
        ))
      .handle("duplicateTemplate", ({ path }) =>
        withMember((member) =>
          certificates.duplicateTemplate(member, path.id)
        ).pipe(
          Effect.flatMap((data) => ok(M.templateDuplicated, data))
        ))
      .handle("previewTemplate", ({ path, urlParams }) =>
        withMember((member) =>
          certificates.previewTemplate(member, path.id, urlParams.format ?? "png")
        ).pipe(
          Effect.map(({ bytes, contentType }) => binary(bytes, contentType, { "cache-control": "no-store" }))
        ))
      .handle("list", ({ urlParams }) =>
        withMember((member) =>
          certificates.list(member, urlParams)
        ).pipe(
          Effect.flatMap((result) => page(M.certificates, result))
        ))
      .handle("issue", ({ payload }) =>
        withMember((member) => certificates.issue(member, payload)).pipe(
          Effect.flatMap((data) => ok(M.issued, data))
        ))
      .handle("batch", ({ path }) =>
        withMember((member) =>
          certificates.batch(member, path.id)
        ).pipe(Effect.flatMap((data) => ok(M.batch, data))))
      .handle("mine", ({ urlParams }) =>
        CurrentAccount.pipe(
          Effect.flatMap((account) => certificates.mine(account, urlParams)),
          Effect.flatMap((result) => page(M.certificates, result))
        ))
      .handle(
        "verify",
        ({ path }) => verification.verify(path.code).pipe(Effect.flatMap((data) => ok(M.verified, data)))
      )
      .handle("file", ({ path }) =>
        verification.file(path.token).pipe(
          Effect.map((file) =>
            streamed(file.blob, {
              "cache-control": `private, max-age=${file.maxAge}`,
              "content-disposition": `inline; filename="${file.filename}"`,
              "x-content-type-options": "nosniff"
            })
          )
        ))
      .handle("detail", ({ path }) =>
        withMember((member) => certificates.detail(member, path.id)).pipe(
          Effect.flatMap((data) => ok(M.certificate, data))
        ))
      .handle("remove", ({ path }) =>
        withMember((member) => certificates.remove(member, path.id)).pipe(
          Effect.zipRight(ok(M.certificateDeleted, null))
        ))
      .handle("pdf", ({ path }) =>
        withMember((member) => certificates.rendered(member, path.id)).pipe(
          Effect.flatMap((row) => verification.signedUrl(row, "pdf")),
          Effect.map((url) =>
            HttpServerResponse.redirect(url, { status: 302, headers: { "cache-control": "no-store" } })
          )
        ))
      .handle("image", ({ path, urlParams }) =>
        withMember((member) => certificates.rendered(member, path.id)).pipe(
          Effect.flatMap((row) => verification.signedUrl(row, urlParams.variant ?? "card")),
          Effect.map((url) =>
            HttpServerResponse.redirect(url, { status: 302, headers: { "cache-control": "no-store" } })
          )
        ))
      .handle(
        "indexing",
        ({ path, payload }) =>
          withMember((member) => certificates.setIndexing(member, path.id, payload.indexing)).pipe(
            Effect.flatMap((data) => ok(M.indexingSaved, data))
          )
      )
      .handle(
        "revoke",
        ({ path, payload }) =>
          withMember((member) => certificates.revoke(member, path.id, payload.reason)).pipe(
            Effect.flatMap((data) => ok(M.revoked, data))
          )
      )
      .handle("reissue", ({ path }) =>
        withMember((member) => certificates.reissue(member, path.id)).pipe(
          Effect.flatMap((data) => ok(M.reissued, data))
        ))
      .handle("resendEmail", ({ path }) =>
        withMember((member) => certificates.resendEmail(member, path.id)).pipe(
          Effect.flatMap((data) => ok(M.emailResent, data)),
          emailResent
        ))
      .handle("retry", ({ path }) =>
        withMember((member) => certificates.retry(member, path.id)).pipe(
          Effect.flatMap((data) => ok(M.retried, data))
        ))
  }))

export const CertificatePagesHttp = apiGroup(
  RodaApi,
  "certificatePages",
  (handlers) =>
    Effect.gen(function*() {
      const verification = yield* Verification
      return handlers
        .handle("page", ({ path }) =>
          verification.page(path.code).pipe(
            Effect.map((html) =>
              HttpServerResponse.text(html, {
                contentType: "text/html; charset=utf-8",
                headers: { "cache-control": "public, max-age=300" }
              })
            )
          ))
        .handle("pageImage", ({ path }) =>
          verification.publicImage(path.code).pipe(
            Effect.map((blob) => streamed(blob, { "cache-control": "public, max-age=3600" }))
          ))
        .handle("credential", ({ path }) =>
          verification.credential(path.code).pipe(
            Effect.map((jwt) =>
              HttpServerResponse.text(jwt, {
                contentType: "application/jwt",
                headers: { "content-disposition": `attachment; filename="credential.jwt"` }
              })
            )
          ))
        .handle("jwks", () =>
          verification.jwks.pipe(
            Effect.map((jwks) =>
              HttpServerResponse.unsafeJson(jwks, { headers: { "cache-control": "public, max-age=300" } })
            )
          ))
    })
)
