import { Effect, Option, Stream } from "effect"
import { blobBytes, BlobStore, type StoredBlob } from "../platform/BlobStore"
import { Options } from "../platform/Options"
import { type CertificateContent, fill, type ImageAsset, printedDate } from "./render/content"
import type { ImageVariant } from "./render/variants"
import { CertificateRenderer } from "./Renderer"
import type { CertificateRow, TemplateRow } from "./Repo"

export class RenderError extends Error {}

/** Where a certificate's files are kept in the BlobStore. */
export const pdfKeyOf = (row: { communityId: string; id: string }) => `certificates/${row.communityId}/${row.id}.pdf`
export const imageKeyOf = (row: { communityId: string; id: string }, variant: ImageVariant) =>
  `certificates/${row.communityId}/${row.id}-${variant}.png`

/** Template and certificate to printed content, and content to files (PDF; PNG cached on first use). */
export class Rendering extends Effect.Service<Rendering>()("@roda/core/CertificateRendering", {
  effect: Effect.gen(function*() {
    const blobs = yield* BlobStore
    const renderer = yield* CertificateRenderer
    const options = yield* Options
    const base = options.publicBaseUrl.replace(/\/$/, "")

    const asset = (key: string | null) =>
      key === null
        ? Effect.succeed(undefined)
        : Effect.flatMap(blobs.get(key), (blob) =>
          Option.match(blob, {
            onNone: () => Effect.succeed(undefined),
            onSome: (value) =>
              Effect.map(blobBytes(value), (bytes): ImageAsset => ({
                bytes,
                type: value.contentType as ImageAsset["type"]
              }))
          }))

    const content = (
      template: TemplateRow,
      recipient: { name: string; code: string; spaceTitle: string; date: Date },
      watermark?: string
    ) =>
      Effect.gen(function*() {
        const date = printedDate(recipient.date)
        const values = { name: recipient.name, space: recipient.spaceTitle, date, code: recipient.code }
        return {
          title: fill(template.title, values),
          body: fill(template.body, values),
          recipientName: recipient.name,
          spaceTitle: recipient.spaceTitle,
          date,
          code: recipient.code,
          verifyUrl: `${base}/certificates/${recipient.code}`,
          fontId: template.fontId,
          orientation: template.orientation,
          pageSize: template.pageSize,
          background: template.background,
          logo: yield* asset(template.logoKey),
          signature: yield* asset(template.signatureKey),
          watermark
        } satisfies CertificateContent
      })

    const contentOf = (certificate: CertificateRow, template: TemplateRow) =>
      content(template, {
        name: certificate.recipientName,
        code: certificate.code,
        spaceTitle: certificate.spaceTitle,
        date: certificate.issuedAt ?? certificate.createdAt
      })

    const pdf = (value: CertificateContent, at: Date) =>
      Effect.tryPromise({
        try: () => renderer.pdf(value, at),
        catch: (error) => new RenderError(String(error))
      })
    const png = (value: CertificateContent, variant: ImageVariant) =>
      Effect.tryPromise({
        try: () => renderer.png(value, variant),
        catch: (error) => new RenderError(String(error))
      })

    /** The stored PNG of a rendered certificate (streamed from the store), rendered and stored on first use. */
    const image = (certificate: CertificateRow, template: TemplateRow, variant: ImageVariant) =>
      Effect.gen(function*() {
        const key = imageKeyOf(certificate, variant)
        const stored = yield* blobs.get(key)
        if (Option.isSome(stored)) return stored.value
        const bytes = yield* png(yield* contentOf(certificate, template), variant)
        yield* blobs.put(key, bytes, "image/png")
        return { contentType: "image/png", size: bytes.length, stream: Stream.make(bytes) } satisfies StoredBlob
      })

    return { content, contentOf, pdf, png, image, base }
  })
}) {}
