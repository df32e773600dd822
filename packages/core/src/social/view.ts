import type { CommentRow } from "./CommentsRepo"
import { emptyCounts, type ReactionCounts, type ReactionType, totalOf } from "./kinds"
import type { mentionView } from "./mentions"
import type { ContentRow, StatusRow } from "./PostsRepo"

/** What lists add to each item: reactions, the caller's own, comments, mentions (each one query per list). */
export interface Engagement {
  readonly reactions: ReadonlyMap<string, ReactionCounts>
  readonly mine: ReadonlyMap<string, ReactionType>
  readonly comments?: ReadonlyMap<string, number>
  readonly mentions: ReadonlyMap<string, ReadonlyArray<ReturnType<typeof mentionView>>>
}

const author = (row: { authorProfileId: string; authorName: string; authorAvatarUrl: string | null }) => ({
  id: row.authorProfileId,
  fullName: row.authorName,
  avatarUrl: row.authorAvatarUrl
})

const engagementOf = (id: string, engagement: Engagement) => {
  const reactions = engagement.reactions.get(id) ?? emptyCounts()
  return {
    mentions: engagement.mentions.get(id) ?? [],
    reactions,
    reactionCount: totalOf(reactions),
    myReaction: engagement.mine.get(id) ?? null
  }
}

export const statusView = (row: StatusRow, engagement: Engagement) => ({
  id: row.id,
  author: author(row),
  body: row.body,
  hidden: row.hidden,
  pending: row.pending,
  ...engagementOf(row.id, engagement),
  commentCount: engagement.comments?.get(row.id) ?? 0,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})

export const contentView = (row: ContentRow, engagement: Engagement) => ({
  id: row.id,
  spaceId: row.spaceId,
  author: author(row),
  title: row.title,
  body: row.body,
  attachments: row.attachments,
  hidden: row.hidden,
  pending: row.pending,
  ...engagementOf(row.id, engagement),
  commentCount: engagement.comments?.get(row.id) ?? 0,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})

export const commentView = (row: CommentRow, engagement: Engagement) => ({
  id: row.id,
  itemType: row.itemType,
  itemId: row.itemId,
  parentId: row.parentId,
  author: author(row),
  body: row.body,
  hidden: row.hidden,
  pending: row.pending,
  ...engagementOf(row.id, engagement),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})
