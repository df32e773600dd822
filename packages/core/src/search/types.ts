/** What a search can look for (no SQL here: the API definitions import it). */
export const searchTypes = ["space", "course", "lesson", "event", "content"] as const
export type SearchType = typeof searchTypes[number]
