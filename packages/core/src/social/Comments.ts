import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { requireNotSuspended } from "../communities/Memberships"
import { invalidField, notFound } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { orNotFound } from "../domain/found"
import { type CommunityId, isUuid, Uuid } from "../domain/Ids"
import { type PageQuery, paginate } from "../domain/Pagination"
import { isStaff } from "../domain/Role"
import { Ids } from "../platform/Ids"
import { RateLimits } from "../platform/RateLimits"
import { traced } from "../platform/traced"
import { atomic, transactional } from "../sql/transaction"
import { viewerOfMember } from "../structure/Access"
import { WebhookEvents } from "../webhooks/WebhookEvents"
import { type CommentRow, CommentsRepo } from "./CommentsRepo"
import { editHeldWhen, heldWhen } from "./held"
import { SocialItems } from "./items"
import type { CommentableType, ReactionType } from "./kinds"
import { groupMentions, MentionsRepo } from "./mentions"
import { socialMessages as M } from "./messages"
import { requireAuthorOrStaff, requireMayEdit } from "./policy"
import { Reactions } from "./Reactions"
import { commentView } from "./view"

/** [thread id, id] of the last comment of a page. */
const CommentCursor = Schema.Tuple(Uuid, Uuid)

export interface NewCommentInput {
  readonly body: string
  readonly parentId?: string | null | undefined
}

/**
 * Comments on any feed item, by the acting profile. Replies are one level deep: `parentId` names a
 * top-level comment of the same item (a reply to a reply, or a parent of another item, is a 400; an
 * unknown or deleted parent a 404). Removing a comment removes its replies (soft delete).
 */
export class Comments extends Effect.Service<Comments>()("@roda/core/Comments", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* CommentsRepo
    const mentions = yield* MentionsRepo
    const reactions = yield* Reactions
    const items = yield* SocialItems
    const ids = yield* Ids
    const limits = yield* RateLimits
    const webhooks = yield* WebhookEvents

    /** Comments of these items (deleted ones excluded): one grouped query. */
    const countsFor = traced("Comments.countsFor")(
      function*(communityId: CommunityId, itemType: CommentableType, itemIds: ReadonlyArray<string>) {
        const rows = yield* repo.counts(communityId, itemType, itemIds)
        return new Map(rows.map((row) => [row.itemId, row.n])) as ReadonlyMap<string, number>
      }
    )

    /** Comments as the member sees them: reactions, their own reaction and mentions in three queries. */
    const views = (member: Member, rows: ReadonlyArray<CommentRow>) =>
      Effect.gen(function*() {
        const commentIds = rows.map((row) => row.id)
        const engagement = {
          reactions: yield* reactions.countsFor(member.communityId, "comment", commentIds),
          mine: yield* reactions.mineFor(member.communityId, member.actingProfileId, "comment", commentIds),
          mentions: groupMentions(yield* mentions.of(member.communityId, "comment", commentIds))
        }
        return rows.map((row) => commentView(row, engagement))
      })

    const noEngagement = { reactions: new Map(), mine: new Map() }

    /** The comment of that item; 404 otherwise (also when the item is not readable). */
    const findOn = traced("Comments.findOn")(
      function*(member: Member, itemType: CommentableType, itemId: string, commentId: string) {
        const item = yield* items.resolve(viewerOfMember(member), itemType, itemId)
        const id = commentId.trim().toLowerCase()
        const row = isUuid(id) ? yield* repo.find(member.communityId, id) : Option.none()
        if (Option.isNone(row) || row.value.itemType !== itemType || row.value.itemId !== item.id) {
          return yield* Effect.fail(notFound(M.commentNotFound))
        }
        return row.value
      }
    )

    const parentOf = (member: Member, itemType: CommentableType, itemId: string, parentId: string) =>
      Effect.gen(function*() {
        const id = parentId.trim().toLowerCase()
        const parent = yield* orNotFound(M.commentNotFound)(repo.lockParent(member.communityId, id))
        if (parent.itemType !== itemType || parent.itemId !== itemId) {
          return yield* Effect.fail(invalidField("parentId", M.parentOtherItem))
        }
        if (parent.parentId !== null) return yield* Effect.fail(invalidField("parentId", M.replyDepth))
        return parent.id
      })

    const add = traced("Comments.add")(
      function*(member: Member, itemType: CommentableType, itemId: string, input: NewCommentInput) {
        const item = yield* items.resolve(viewerOfMember(member), itemType, itemId)
        yield* requireNotSuspended(member)
        yield* limits.posting(member.communityId, member.account.id)
        const id = yield* ids.next
        return yield* atomic(sql)(Effect.gen(function*() {
          // In the reply's transaction: the parent stays locked until the reply is kept.
          const parentId = input.parentId ? yield* parentOf(member, itemType, item.id, input.parentId) : null
          const held = isStaff(member.role)
            ? undefined
            : heldWhen(sql, member.communityId, sql`${member.actingProfileId}`, input.body)
          const row = yield* repo.insert({
            id,
            communityId: member.communityId,
            itemType,
            itemId: item.id,
            parentId,
            authorProfileId: member.actingProfileId,
            body: input.body
          }, held)
          // a held comment's mentions and replies are notified, and its event written, on its approval
          const mentioned = yield* mentions.insertFor(member.communityId, "comment", id, input.body, row.pending)
          if (!row.pending) {
            yield* mentions.notifyReply(member.communityId, id, mentioned.map((mention) => mention.profileId))
          }
          // new: no reactions, and no mentions but those just written
          const comment = commentView(row, { ...noEngagement, mentions: groupMentions(mentioned) })
          if (!row.pending) yield* webhooks.emit(member.communityId, "comment.created", comment)
          return comment
        }))
      }
    )

    const list = traced("Comments.list")(
      function*(member: Member, itemType: CommentableType, itemId: string, query: PageQuery) {
        const page = yield* paginate(
          query,
          CommentCursor,
          (after, limit) =>
            Effect.gen(function*() {
              const item = yield* items.resolve(viewerOfMember(member), itemType, itemId)
              const key = after === undefined ? undefined : [after[0].toLowerCase(), after[1].toLowerCase()] as const
              return yield* repo.list(member.communityId, itemType, item.id, key, limit, {
                profileId: member.actingProfileId,
                staff: isStaff(member.role)
              })
            }),
          (row) => [row.threadId, row.id]
        )
        return { items: yield* views(member, page.items), pagination: page.pagination }
      }
    )

    const update = traced("Comments.update")(
      function*(member: Member, itemType: CommentableType, itemId: string, commentId: string, body: string) {
        const comment = yield* findOn(member, itemType, itemId, commentId)
        yield* requireMayEdit(member, { profileId: comment.authorProfileId, role: comment.authorRole })
        // a member's edit with a blocked word waits for approval (staff are never held)
        const held = isStaff(member.role) ? undefined : editHeldWhen(sql, member.communityId, body)
        yield* transactional(sql)(Effect.gen(function*() {
          const edited = yield* repo.update(member.communityId, comment.id, body, held)
          // held by an edit: its mentions change on approval (those newly mentioned are told then)
          if (!edited.heldEdit) yield* mentions.replace(member.communityId, "comment", comment.id, body, edited.pending)
        }))
        // Removed meanwhile (an edit and a removal at once): 404, as a moment later. Held now: its
        // author (or the staff who edited it) reads it, marked pending.
        const row = yield* orNotFound(M.commentNotFound)(repo.findAny(member.communityId, comment.id))
        return (yield* views(member, [row]))[0]!
      }
    )

    const remove = traced("Comments.remove")(
      function*(member: Member, itemType: CommentableType, itemId: string, commentId: string) {
        const comment = yield* findOn(member, itemType, itemId, commentId)
        yield* requireAuthorOrStaff(member, comment.authorProfileId)
        yield* transactional(sql)(repo.remove(member.communityId, comment))
      }
    )

    /** A reaction on a comment of that item (same rules as `Reactions.react`). */
    const react = traced("Comments.react")(
      function*(member: Member, itemType: CommentableType, itemId: string, commentId: string, type: ReactionType) {
        const comment = yield* findOn(member, itemType, itemId, commentId)
        return yield* reactions.react(member, "comment", comment.id, type)
      }
    )

    return { add, list, update, remove, react, findOn, countsFor }
  }),
  dependencies: [CommentsRepo.Default, MentionsRepo.Default, Reactions.Default, SocialItems.Default]
}) {}
