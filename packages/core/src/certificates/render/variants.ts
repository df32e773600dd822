import { type CertificateContent, pagePoints } from "./content"

export const imageVariants = ["card", "page"] as const
export type ImageVariant = typeof imageVariants[number]

/** The pixel size of a variant: the 1200×630 social card, or the full page at 96 dpi. */
export const imageSize = (content: CertificateContent, variant: ImageVariant): readonly [number, number] => {
  if (variant === "card") return [1200, 630]
  const [w, h] = pagePoints(content.pageSize, content.orientation)
  return [Math.round((w * 96) / 72), Math.round((h * 96) / 72)]
}
