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

/** `notMember` → `not_member`: the code of a catalogue entry, from its name. */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S

export const snakeCase = <S extends string>(name: S): SnakeCase<S> =>
  name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`) as SnakeCase<S>

/**
 * A message of a catalogue with its code: the stable, machine-readable name of what happened
 * (`community_header_missing`), sent beside the words in every error body, so that a client can act on
 * it whatever the language and however the words are later improved.
 */
export interface Message<Code extends string = string> extends Text {
  readonly code: Code
}

type Coded<Catalogue> = {
  readonly [K in keyof Catalogue]: K extends string
    ? Catalogue[K] extends (...args: infer Args) => Text ? (...args: Args) => Message<SnakeCase<K>>
    : Catalogue[K] extends Message<infer Own> ? Message<Own>
    : Message<SnakeCase<K>>
    : never
}

/**
 * A catalogue whose every message carries its code, the entry's name in snake case: a feature's
 * messages are written as `{ notMember: text(…) }` and read as `Messages.notMember.code === "not_member"`.
 * Entries of several catalogues with one name (`notFound`) share the code: they say the same thing.
 * An entry that carries a code of its own keeps it.
 */
export const coded = <Catalogue extends Record<string, Text | ((...args: any) => Text)>>(
  catalogue: Catalogue
): Coded<Catalogue> =>
  Object.fromEntries(
    Object.entries(catalogue).map(([name, entry]) => {
      const code = snakeCase(name)
      return [
        name,
        typeof entry === "function"
          ? (...args: ReadonlyArray<unknown>) => ({
            ...(entry as (...a: ReadonlyArray<unknown>) => Text)(...args),
            code
          })
          : { code, ...entry }
      ]
    })
  ) as Coded<Catalogue>
