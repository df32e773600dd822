/** What staff do to held content (`POST /api/moderation/pending/{id}/approve|reject`), as the log records it. */
export const pendingActions = ["approve", "reject"] as const
export type PendingAction = typeof pendingActions[number]
