import type { CountRow, FeedItemRow } from "./Repo"

/** A feed item on the wire, with its reactions by type and its comment count. */
export const itemView = (row: FeedItemRow, counts: ReadonlyArray<CountRow>) => {
  const mine = counts.filter((c) => c.itemType === row.type && c.itemId === row.id)
  const reactions: Record<string, number> = {}
  let commentCount = 0
  for (const c of mine) {
    if (c.reactionType === "") commentCount += c.n
    else reactions[c.reactionType] = c.n
  }
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
    reactionCount: Object.values(reactions).reduce((a, b) => a + b, 0),
    commentCount
  }
}

export type FeedItemView = ReturnType<typeof itemView>
