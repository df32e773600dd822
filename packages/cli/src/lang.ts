/** A message in the two languages Roda speaks (as core's `Text`). */
export interface Text {
  readonly pt: string
  readonly en: string
}

export type Language = keyof Text

export const text = (pt: string, en: string): Text => ({ pt, en })

/**
 * The language of messages: Portuguese (spec §7 verbatim, as the API answers without
 * `Accept-Language`) unless the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`) asks for English.
 */
export const languageOf = (env: Record<string, string | undefined>): Language => {
  const locale = env.LC_ALL || env.LC_MESSAGES || env.LANG || ""
  return locale.toLowerCase().startsWith("en") ? "en" : "pt"
}
