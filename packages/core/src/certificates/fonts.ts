/**
 * The font catalogue (`GET /api/certificates/fonts`): fonts shipped in npm packages (`@fontsource/*`,
 * SIL Open Font License), read from `node_modules` by the platform's renderer (`@roda/core/node`) —
 * never downloaded at run time. Each is a WOFF file, which both the PDF (pdf-lib + fontkit, embedded and subset) and the image (satori) accept.
 * Only the Latin subset is shipped (Portuguese, Spanish, English and the other Western languages).
 */
export interface FontEntry {
  readonly id: string
  readonly name: string
  readonly category: "sans-serif" | "serif" | "display" | "handwriting" | "monospace"
  readonly package: string
  readonly regular: string
  /** The heavier weight, for titles; the regular face when the family has none. */
  readonly bold: string
}

const entry = (
  id: string,
  name: string,
  category: FontEntry["category"],
  pkg: string,
  hasBold = true
): FontEntry => ({
  id,
  name,
  category,
  package: `@fontsource/${pkg}`,
  regular: `@fontsource/${pkg}/files/${pkg}-latin-400-normal.woff`,
  bold: `@fontsource/${pkg}/files/${pkg}-latin-${hasBold ? 700 : 400}-normal.woff`
})

export const fontCatalogue: ReadonlyArray<FontEntry> = [
  entry("inter", "Inter", "sans-serif", "inter"),
  entry("lora", "Lora", "serif", "lora"),
  entry("playfair-display", "Playfair Display", "display", "playfair-display"),
  entry("great-vibes", "Great Vibes", "handwriting", "great-vibes", false),
  entry("roboto-mono", "Roboto Mono", "monospace", "roboto-mono")
]

export const DEFAULT_FONT = "inter"

export const findFont = (id: string) => fontCatalogue.find((font) => font.id === id)
