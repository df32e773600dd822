import { Clock, Effect, Option, Redacted } from "effect"
import { notFound } from "../domain/AppError"
import { orNotFound } from "../domain/found"
import { escapeHtml } from "../domain/Html"
import { BlobStore } from "../platform/BlobStore"
import { constantTimeEqual, hmacSha256, sha256Bytes, toBase64Url, utf8Bytes } from "../platform/bytes"
import { Options } from "../platform/Options"
import { traced } from "../platform/traced"
import { normalizeCode } from "./codes"
import { Credentials } from "./Credentials"
import { CertificateMessages as M } from "./messages"
import type { ImageVariant } from "./render/variants"
import { Rendering } from "./Rendering"
import { CertificatesRepo, type CertificateView } from "./Repo"

/** How long a signed file link is valid. */
export const FILE_LINK_SECONDS = 10 * 60

export type FileKind = "pdf" | ImageVariant

const verdictOf = (row: CertificateView) =>
  row.status === "revoked" ? "revoked" as const : row.status === "superseded" ? "superseded" as const : "valid" as const

/**
 * Public verification: by code (API and HTML page), the shareable image, the Open Badges credential,
 * the issuers' JWKS, and the signed, expiring links through which the PDF and images are served.
 */
export class Verification extends Effect.Service<Verification>()("@roda/core/CertificateVerification", {
  effect: Effect.gen(function*() {
    const repo = yield* CertificatesRepo
    const rendering = yield* Rendering
    const credentials = yield* Credentials
    const blobs = yield* BlobStore
    const options = yield* Options
    const base = rendering.base
    const signingKey = sha256Bytes(`roda:certificate-files:${Redacted.value(options.jwtSecret)}`)

    /** A certificate that was issued (verification never shows pending, generating or failed ones). */
    const byCode = (typed: string) =>
      Effect.gen(function*() {
        const code = normalizeCode(typed)
        const row = code === undefined ? Option.none() : yield* repo.findByCode(code)
        if (Option.isNone(row) || !["issued", "revoked", "superseded"].includes(row.value.status)) {
          return yield* Effect.fail(notFound(M.codeUnknown))
        }
        return row.value
      })

    const templateOf = (row: CertificateView) =>
      orNotFound(M.codeUnknown)(repo.findTemplate(row.communityId, row.templateId))

    const verify = traced("Verification.verify")(function*(typed: string) {
      const row = yield* byCode(typed)
      const status = verdictOf(row)
      return {
        code: row.code,
        status,
        valid: status === "valid",
        title: row.title,
        recipientName: row.recipientName,
        spaceTitle: row.spaceTitle,
        communityId: row.communityId,
        issuedAt: (row.issuedAt ?? row.createdAt).toISOString(),
        revokedAt: row.revokedAt === null ? null : row.revokedAt.toISOString(),
        revokeReason: row.revokeReason,
        supersededBy: row.supersededByCode === null
          ? null
          : { code: row.supersededByCode, pageUrl: `${base}/certificates/${row.supersededByCode}` },
        pageUrl: `${base}/certificates/${row.code}`,
        imageUrl: `${base}/certificates/${row.code}/image.png`,
        credentialUrl: `${base}/certificates/${row.code}/credential.jwt`,
        jwksUrl: `${base}/.well-known/jwks.json`
      }
    })

    /**
     * A signed credential only for a certificate in force: a revoked or superseded one would otherwise
     * get a freshly signed VC-JWT that verifies offline with the JWKS (it carries no revocation status).
     */
    const credential = traced("Verification.credential")(function*(typed: string) {
      const row = yield* byCode(typed)
      if (row.status !== "issued") return yield* Effect.fail(notFound(M.credentialWithdrawn))
      return yield* credentials.sign(row, row.spaceTitle)
    })

    /** The shareable card, like the credential only while in force: a revoked card would still look valid. */
    const publicImage = traced("Verification.publicImage")(function*(typed: string) {
      const row = yield* byCode(typed)
      if (row.status !== "issued") return yield* Effect.fail(notFound(M.imageWithdrawn))
      return yield* rendering.image(row, yield* templateOf(row), "card").pipe(Effect.orDie)
    })

    const page = traced("Verification.page")(function*(typed: string) {
      const row = yield* byCode(typed)
      const status = verdictOf(row)
      const url = `${base}/certificates/${row.code}`
      const image = `${url}/image.png`
      // The card and the signed credential only while in force (both are 404 after; the verdict stays).
      const valid = status === "valid"
      const index = row.indexing && valid
      const issued = (row.issuedAt ?? row.createdAt).toISOString().slice(0, 10)
      const headline = status === "valid"
        ? "Certificado válido"
        : status === "revoked"
        ? "Certificado revogado"
        : "Certificado substituído"
      const detail = status === "revoked"
        ? `<p class="status revoked">Revogado em ${escapeHtml(row.revokedAt!.toISOString().slice(0, 10))}. Motivo: ${
          escapeHtml(row.revokeReason ?? "")
        }</p>`
        : status === "superseded" && row.supersededByCode !== null
        ? `<p class="status superseded">Substituído por um novo certificado: <a id="successor" href="${
          escapeHtml(`${base}/certificates/${row.supersededByCode}`)
        }">${escapeHtml(row.supersededByCode)}</a></p>`
        : `<p class="status valid">Este certificado é válido.</p>`
      const description = `${row.title} — ${row.recipientName} (${row.spaceTitle}), ${issued}`
      return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${headline}: ${row.title} — ${row.recipientName}`)}</title>
<meta name="robots" content="${index ? "index, follow" : "noindex, nofollow"}">
<link rel="canonical" href="${escapeHtml(url)}">
<meta property="og:type" content="website">
<meta property="og:title" content="${escapeHtml(`${row.title} — ${row.recipientName}`)}">
<meta property="og:description" content="${escapeHtml(description)}">
<meta property="og:url" content="${escapeHtml(url)}">
${
        valid
          ? `<meta property="og:image" content="${escapeHtml(image)}">
<meta property="og:image:width" content="1200">
<meta property="og:image:height" content="630">
<meta name="twitter:card" content="summary_large_image">`
          : `<meta name="twitter:card" content="summary">`
      }
<style>body{font-family:system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#1c1f26}
img{max-width:100%;border:1px solid #ddd}.status{font-weight:600}.valid{color:#17663a}.revoked{color:#a11}
.superseded{color:#8a5a00}dt{font-weight:600}</style>
</head>
<body>
<h1 id="verdict" data-status="${status}">${headline}</h1>
${detail}
<dl>
<dt>Certificado</dt><dd id="title">${escapeHtml(row.title)}</dd>
<dt>Titular</dt><dd id="recipient">${escapeHtml(row.recipientName)}</dd>
<dt>Emitido por</dt><dd>${escapeHtml(row.spaceTitle)}</dd>
<dt>Data</dt><dd>${escapeHtml(issued)}</dd>
<dt>Código</dt><dd id="code">${escapeHtml(row.code)}</dd>
</dl>
${
        valid
          ? `<p><img src="${escapeHtml(image)}" alt="${
            escapeHtml(`${row.title} — ${row.recipientName}`)
          }" width="600" height="315"></p>
<p><a id="credential" href="${escapeHtml(`${url}/credential.jwt`)}" download>Open Badges 3.0 (VC-JWT)</a> ·
<a href="${escapeHtml(`${base}/.well-known/jwks.json`)}">JWKS</a></p>`
          : ""
      }
</body>
</html>
`
    })

    const signature = (payload: string) => toBase64Url(hmacSha256(signingKey, payload))

    /** A link to one of the certificate's files, valid `FILE_LINK_SECONDS`. */
    const signedUrl = traced("Verification.signedUrl")(function*(row: { id: string }, kind: FileKind) {
      const expires = Math.floor((yield* Clock.currentTimeMillis) / 1000) + FILE_LINK_SECONDS
      const payload = `${row.id}.${kind}.${expires}`
      return `${base}/api/certificates/files/${payload}.${signature(payload)}`
    })

    /** The file a signed link names, while the link is valid (404 otherwise). */
    const file = traced("Verification.file")(function*(token: string) {
      const invalid = notFound(M.fileLinkInvalid)
      const match = /^([0-9a-f-]{36})\.(pdf|card|page)\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token)
      if (match === null) return yield* Effect.fail(invalid)
      const [, id, kind, expiresText, given] = match as unknown as [string, string, FileKind, string, string]
      if (!constantTimeEqual(utf8Bytes(signature(`${id}.${kind}.${expiresText}`)), utf8Bytes(given))) {
        return yield* Effect.fail(invalid)
      }
      const nowSeconds = Math.floor((yield* Clock.currentTimeMillis) / 1000)
      const expires = Number(expiresText)
      if (expires < nowSeconds) return yield* Effect.fail(invalid)
      const row = yield* repo.findById(id)
      if (Option.isNone(row) || row.value.pdfKey === null) return yield* Effect.fail(invalid)
      const maxAge = expires - nowSeconds
      const name = `certificado-${row.value.code}`
      if (kind === "pdf") {
        const blob = yield* blobs.get(row.value.pdfKey)
        if (Option.isNone(blob)) return yield* Effect.fail(invalid)
        return { blob: { ...blob.value, contentType: "application/pdf" }, maxAge, filename: `${name}.pdf` }
      }
      const blob = yield* rendering.image(row.value, yield* templateOf(row.value), kind).pipe(Effect.orDie)
      return { blob, maxAge, filename: `${name}-${kind}.png` }
    })

    return { verify, credential, publicImage, page, signedUrl, file, jwks: credentials.jwks }
  }),
  dependencies: [CertificatesRepo.Default, Rendering.Default, Credentials.Default]
}) {}
