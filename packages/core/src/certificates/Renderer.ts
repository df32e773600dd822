import { Context } from "effect"
import type { CertificateContent } from "./render/content"
import type { ImageVariant } from "./render/variants"

/**
 * Certificate files from their printed content, a port: the platform provides the renderers and
 * their fonts (`@roda/core/node`: pdf-lib and satori with the `@fontsource` fonts, rasterised by
 * resvg, loaded on the first certificate).
 */
export class CertificateRenderer extends Context.Tag("@roda/core/CertificateRenderer")<CertificateRenderer, {
  /** The certificate as a PDF (A4 or Letter, the template's orientation), issued at `issuedAt`. */
  readonly pdf: (content: CertificateContent, issuedAt: Date) => Promise<Uint8Array>
  /** The certificate as a PNG: the 1200×630 social `card`, or the whole `page`. */
  readonly png: (content: CertificateContent, variant: ImageVariant) => Promise<Uint8Array>
}>() {}
