import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import type { CommunityId } from "../domain/Ids"
import { decodeRows } from "../domain/Rows"
import { Notify } from "../notifications/Notify"
import { WebhookEvents } from "../webhooks/WebhookEvents"
import { CommentsRepo } from "./CommentsRepo"
import { groupMentions, MentionsRepo } from "./mentions"
import { type PendingItem, SocialPending } from "./Pending"
import { PostsRepo } from "./PostsRepo"
import { commentView, contentView, statusView } from "./view"

const decodeItems = decodeRows(Schema.Struct({
  type: Schema.Literal("status", "comment", "content"),
  id: Schema.String,
  authorProfileId: Schema.String,
  authorName: Schema.NullOr(Schema.String),
  excerpt: Schema.String,
  itemType: Schema.NullOr(Schema.String),
  itemId: Schema.NullOr(Schema.String),
  spaceId: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  edited: Schema.Boolean,
  cursorTime: Schema.String
}))

const none = { reactions: new Map(), mine: new Map(), comments: new Map() }

/** `SocialPending` over social's own tables (`held_at`: migration 0053). */
export const SocialPendingLive = Layer.effect(
  SocialPending,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const posts = yield* PostsRepo
    const comments = yield* CommentsRepo
    const mentions = yield* MentionsRepo
    const webhooks = yield* WebhookEvents
    const notify = yield* Notify

    const columns = (type: string, excerpt: string, item: string, space: string) =>
      sql`SELECT ${type}::text AS type, t.id, t.author_profile_id, p.full_name AS author_name,
        left(${sql.literal(excerpt)}, 280) AS excerpt, ${sql.literal(item)}, ${sql.literal(space)} AS space_id,
        t.created_at, t.held_at > t.created_at AS edited,
        to_char(t.held_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_time, t.held_at`
    const from = (table: string, communityId: string) =>
      sql`FROM ${
        sql(table)
      } t LEFT JOIN member_cards p ON p.community_id = t.community_id AND p.id = t.author_profile_id
        WHERE t.community_id = ${communityId} AND t.held_at IS NOT NULL AND t.deleted_at IS NULL`
    const held = (communityId: string) =>
      sql`${columns("status", "t.body", "NULL::text AS item_type, NULL::uuid AS item_id", "NULL::uuid")}
          ${from("status_posts", communityId)}
        UNION ALL ${
        columns("content", "t.title || ': ' || t.body", "NULL::text AS item_type, NULL::uuid AS item_id", "t.space_id")
      } ${from("content_posts", communityId)}
        UNION ALL ${columns("comment", "t.body", "t.item_type, t.item_id", "NULL::uuid")} ${
        from("comments", communityId)
      }`

    const list = (communityId: CommunityId, after: readonly [string, string] | undefined, limit: number) =>
      sql`SELECT x.* FROM (${held(communityId)}) x
        ${after === undefined ? sql`` : sql`WHERE (x.held_at, x.id) < (${after[0]}::timestamptz, ${after[1]}::uuid)`}
        ORDER BY x.held_at DESC, x.id DESC LIMIT ${limit + 1}`.pipe(Effect.orDie, Effect.flatMap(decodeItems))

    const find = (communityId: CommunityId, id: string) =>
      sql`SELECT x.* FROM (${held(communityId)}) x WHERE x.id = ${id}`.pipe(Effect.orDie, Effect.flatMap(decodeItems))

    const table = { status: "status_posts", content: "content_posts", comment: "comments" } as const

    /**
     * Waiting → visible (or removed) in one UPDATE whose condition is the waiting state: of two
     * decisions at once, the second waits for the first's row lock, then finds the row decided and
     * updates nothing.
     */
    const decide = (communityId: CommunityId, id: string, set: "approve" | "reject") =>
      Effect.gen(function*() {
        const [found] = yield* find(communityId, id)
        if (found === undefined) return Option.none()
        const changes = set === "approve"
          ? sql`held_at = NULL, hidden_at = CASE WHEN hidden_at = held_at THEN NULL ELSE hidden_at END`
          : sql`deleted_at = now()`
        const updated = yield* sql`UPDATE ${sql(table[found.type])} SET ${changes}
          WHERE community_id = ${communityId} AND id = ${id} AND held_at IS NOT NULL AND deleted_at IS NULL
          RETURNING id`.pipe(Effect.orDie)
        return updated.length === 0 ? Option.none() : Option.some(found)
      })

    /**
     * An approved edit tells what an edit does: those its text mentions and did not before (its
     * mentions were left as they were while it waited). Nothing of a new post: it was told then.
     */
    const announceEdit = (communityId: CommunityId, item: PendingItem) =>
      Effect.gen(function*() {
        const body = item.type === "status"
          ? Option.map(yield* posts.findStatus(communityId, item.id), (row) => row.body)
          : item.type === "comment"
          ? Option.map(yield* comments.findAny(communityId, item.id), (row) => row.body)
          : Option.none<string>()
        if (Option.isSome(body)) yield* mentions.replace(communityId, item.type, item.id, body.value)
      })

    /** What posting would have told, told now: mentions, replies, followers, the created event. */
    const announce = (communityId: CommunityId, item: PendingItem) =>
      item.edited ? announceEdit(communityId, item) : Effect.gen(function*() {
        const mentioned = yield* mentions.announce(communityId, item.type, item.id)
        const ofItem = groupMentions(yield* mentions.of(communityId, item.type, [item.id]))
        const engagement = { ...none, mentions: ofItem }
        if (item.type === "status") {
          const row = yield* posts.findStatus(communityId, item.id)
          if (Option.isSome(row)) {
            yield* webhooks.emit(communityId, "post.created", {
              postType: "status",
              ...statusView(row.value, engagement)
            })
          }
        } else if (item.type === "content") {
          const row = yield* posts.findContent(communityId, item.id)
          if (Option.isSome(row)) {
            const post = contentView(row.value, engagement)
            yield* webhooks.emit(communityId, "post.created", { postType: "content", ...post })
            yield* notify.notifyFollowers(communityId, row.value.spaceId, {
              actorProfileId: row.value.authorProfileId,
              subject: { type: "content", id: item.id, title: post.title }
            })
          }
        } else {
          yield* mentions.notifyReply(communityId, item.id, mentioned)
          const row = yield* comments.findAny(communityId, item.id)
          if (Option.isSome(row)) {
            yield* webhooks.emit(communityId, "comment.created", commentView(row.value, engagement))
          }
        }
      })

    const approve = (communityId: CommunityId, id: string) =>
      Effect.tap(
        decide(communityId, id, "approve"),
        (found) => Option.isSome(found) ? announce(communityId, found.value) : Effect.void
      )

    const reject = (communityId: CommunityId, id: string) => decide(communityId, id, "reject")

    return { list, approve, reject }
  })
).pipe(Layer.provide(Layer.mergeAll(PostsRepo.Default, CommentsRepo.Default, MentionsRepo.Default)))
