import type { FeedItemRow } from "./Repo"

/** A feed item on the wire, with its reactions by type and its comment count. */
export const itemView = (row: FeedItemRow) => {
  const reactions: Record<string, number> = {}
  let reactionCount = 0
  row.reactionTypes?.forEach((type, index) => {
    const n = row.reactionCounts![index]!
    reactions[type] = n
    reactionCount += n
  })
  return {
    type: row.type,
    id: row.id,
    title: row.title,
    excerpt: row.excerpt,
    spaceId: row.spaceId,
    author: row.authorProfileId === null
      ? null
      : { profileId: row.authorProfileId, fullName: row.authorName },
    createdAt: row.createdAt.toISOString(),
    pinned: row.pinned,
    reactions,
    reactionCount,
    commentCount: row.commentCount
  }
}

export type FeedItemView = ReturnType<typeof itemView>
