/** A user-facing message in the two languages the API speaks. */
export interface Text {
  readonly pt: string
  readonly en: string
}

export type Language = keyof Text

/** A message that reads the same in both languages (format validations, spec strings given in English). */
export const same = (message: string): Text => ({ pt: message, en: message })

export const text = (pt: string, en: string): Text => ({ pt, en })

/**
 * Picks the response language from an `Accept-Language` header: Portuguese unless English is
 * preferred over it (by order or by `q`).
 */
export const languageOf = (acceptLanguage: string | undefined): Language => {
  if (!acceptLanguage) return "pt"
  const ranked = acceptLanguage
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().toLowerCase().split(";")
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="))
      return { tag: tag.trim(), q: q ? Number(q.slice(2)) || 0 : 1, index }
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
  for (const { tag } of ranked) {
    if (tag === "pt" || tag.startsWith("pt-")) return "pt"
    if (tag === "en" || tag.startsWith("en-")) return "en"
  }
  return "pt"
}
