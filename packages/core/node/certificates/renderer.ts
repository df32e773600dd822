import { Layer } from "effect"
import { CertificateRenderer } from "../../src/certificates/Renderer"

/** pdf-lib, satori and resvg (some 60 MB) load on the first certificate, not at start. */
export const nodeCertificateRenderer = Layer.succeed(CertificateRenderer, {
  pdf: (content, issuedAt) => import("./pdf").then(({ renderPdf }) => renderPdf(content, issuedAt)),
  png: (content, variant) => import("./image").then(({ renderPng }) => renderPng(content, variant))
})
