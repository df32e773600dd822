import type { Orientation, PageSize } from "../Policy"

export interface ImageAsset {
  readonly bytes: Uint8Array
  readonly type: "image/png" | "image/jpeg"
}

/** Everything printed on one certificate, placeholders already filled. */
export interface CertificateContent {
  readonly title: string
  readonly body: string
  readonly recipientName: string
  readonly spaceTitle: string
  readonly date: string
  readonly code: string
  readonly verifyUrl: string
  readonly fontId: string
  readonly orientation: Orientation
  readonly pageSize: PageSize
  readonly background: string
  readonly logo?: ImageAsset | undefined
  readonly signature?: ImageAsset | undefined
  /** Shown across the page (e.g. `PREVIEW`). */
  readonly watermark?: string | undefined
}

export const placeholders = ["name", "space", "date", "code"] as const

/** `{{name}}`, `{{space}}`, `{{date}}` and `{{code}}` replaced; other text left as written. */
export const fill = (template: string, values: Record<typeof placeholders[number], string>) =>
  template.replace(/\{\{\s*(name|space|date|code)\s*\}\}/g, (_, key: typeof placeholders[number]) => values[key])

/** A date as printed on a certificate, in Portuguese (`24 de novembro de 2026`), UTC. */
export const printedDate = (date: Date) =>
  new Intl.DateTimeFormat("pt-BR", { dateStyle: "long", timeZone: "UTC" }).format(date)

/** Page size in PDF points (1/72 in) by paper and orientation. */
export const pagePoints = (size: PageSize, orientation: Orientation): readonly [number, number] => {
  const [short, long] = size === "A4" ? [595.28, 841.89] : [612, 792]
  return orientation === "landscape" ? [long, short] : [short, long]
}

/** `#rrggbb` or `#rgb` as 0..1 channels. */
export const rgbOf = (hex: string): readonly [number, number, number] => {
  const value = hex.replace("#", "")
  const full = value.length === 3 ? [...value].map((c) => c + c).join("") : value
  const n = Number.parseInt(full, 16)
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255]
}

/** Dark ink on a light background, light ink on a dark one. */
export const inkFor = (background: string): readonly [number, number, number] => {
  const [r, g, b] = rgbOf(background)
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
  return luminance > 0.5 ? [0.11, 0.12, 0.15] : [0.97, 0.97, 0.97]
}

export const hexOf = ([r, g, b]: readonly [number, number, number]) =>
  `#${[r, g, b].map((c) => Math.round(c * 255).toString(16).padStart(2, "0")).join("")}`
