/** What a search can look for (no SQL here: the API definitions import it). */
export const searchTypes = ["space", "course", "lesson", "event", "content"] as const
export type SearchType = typeof searchTypes[number]

/**
 * Candidates each kind of match may bring per type before ranking (at least `MAX_LIMIT`, so one type
 * can fill a page): a word most titles contain reads this many rows, not every title that has it.
 */
export const CANDIDATES_PER_MATCH = 100
