/** What people react to: every feed item type, and comments. */
export const reactableTypes = ["status", "content", "course", "event", "comment"] as const
export type ReactableType = typeof reactableTypes[number]

/** What people comment on: every feed item type. */
export const commentableTypes = ["status", "content", "course", "event"] as const
export type CommentableType = typeof commentableTypes[number]

/** The fixed set of reactions; one per person per item. */
export const reactionTypes = ["like", "love", "celebrate", "insightful", "funny"] as const
export type ReactionType = typeof reactionTypes[number]

export type ReactionCounts = Record<ReactionType, number>

export const emptyCounts = (): ReactionCounts => ({ like: 0, love: 0, celebrate: 0, insightful: 0, funny: 0 })

export const totalOf = (counts: ReactionCounts): number => reactionTypes.reduce((sum, type) => sum + counts[type], 0)

/** Longest status post or comment body. */
export const MAX_BODY = 5000
/** Most attachments on a content post. */
export const MAX_ATTACHMENTS = 10
