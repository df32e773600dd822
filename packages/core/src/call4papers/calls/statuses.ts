/** The states of a call for papers (no SQL here: the API definitions import it). */
export const callStatuses = ["draft", "published", "closed"] as const
export type CallStatus = typeof callStatuses[number]
