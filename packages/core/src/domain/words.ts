/**
 * Words as the community's blocked words match them (platform.md "Moderation"): case- and
 * accent-insensitive, whole words. Both the blocked words (as stored) and a post's body go through
 * `normalizeWords`, so a match is plain equality (in SQL too, where no `unaccent` is assumed).
 */
export const normalizeWords = (text: string): string => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()

/** The distinct normalized words of a text, space-separated (one parameter of the posting statement). */
export const wordsOf = (text: string): string =>
  [...new Set(normalizeWords(text).split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0))].join(" ")

/** A blocked word: letters and digits only once normalized (no spaces: matching is word by word). */
export const isOneWord = (word: string): boolean => /^[\p{L}\p{N}]+$/u.test(normalizeWords(word))
