import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { notFound } from "../domain/AppError"
import type { CommunityId } from "../domain/Ids"
import { decodeRows } from "../domain/Rows"
import type { Viewer } from "../structure/Access"
import { CommentsRepo } from "./CommentsRepo"
import { SocialItems } from "./items"
import { socialMessages as M } from "./messages"
import { type ModeratedType, SocialModeration } from "./Moderation"

const decodeItem = decodeRows(Schema.Struct({
  id: Schema.String,
  authorProfileId: Schema.String,
  excerpt: Schema.String,
  itemType: Schema.NullOr(Schema.Literal("status", "content", "course", "event")),
  itemId: Schema.NullOr(Schema.String)
}))

const missing = { status: M.statusNotFound, comment: M.commentNotFound, content: M.contentNotFound } as const

/** `SocialModeration` over social's own tables. */
export const SocialModerationLive = Layer.effect(
  SocialModeration,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const items = yield* SocialItems
    const comments = yield* CommentsRepo

    const row = (communityId: string, type: ModeratedType, id: string) => {
      const where = sql`t.community_id = ${communityId} AND t.id = ${id} AND t.deleted_at IS NULL`
      const query = {
        status: sql`SELECT t.id, t.author_profile_id, left(t.body, 280) AS excerpt,
          NULL::text AS item_type, NULL::uuid AS item_id FROM status_posts t WHERE ${where}`,
        content: sql`SELECT t.id, t.author_profile_id, left(t.title || ': ' || t.body, 280) AS excerpt,
          NULL::text AS item_type, NULL::uuid AS item_id FROM content_posts t WHERE ${where}`,
        comment: sql`SELECT t.id, t.author_profile_id, left(t.body, 280) AS excerpt, t.item_type, t.item_id
          FROM comments t WHERE ${where}`
      }[type]
      return query.pipe(Effect.orDie, Effect.flatMap(decodeItem), Effect.map((rows) => Option.fromNullable(rows[0])))
    }

    const item = (viewer: Viewer, type: ModeratedType, id: string) =>
      Effect.gen(function*() {
        const unseen = notFound(missing[type])
        // readable by the viewer (404 for a hidden space's or gated content, as for another community's)
        const resolved = yield* items.resolve(viewer, type, id).pipe(Effect.mapError(() => unseen))
        const found = yield* row(viewer.communityId, type, resolved.id)
        if (Option.isNone(found)) return yield* Effect.fail(unseen)
        return { id: found.value.id, authorProfileId: found.value.authorProfileId, excerpt: found.value.excerpt }
      })

    const table = { status: sql("status_posts"), content: sql("content_posts"), comment: sql("comments") } as const

    const hide = (communityId: CommunityId, type: ModeratedType, id: string) =>
      sql`UPDATE ${table[type]} SET hidden_at = now()
        WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL AND hidden_at IS NULL`.pipe(
        Effect.asVoid,
        Effect.orDie
      )

    const remove = (communityId: CommunityId, type: ModeratedType, id: string): Effect.Effect<void> =>
      type === "comment"
        // a removed comment takes its replies, as its author's removal does
        ? Effect.flatMap(row(communityId, type, id), (found) =>
          Option.isNone(found) || found.value.itemType === null
            ? Effect.void
            : comments.remove(communityId, { id, itemType: found.value.itemType, itemId: found.value.itemId! }))
        : sql`UPDATE ${table[type]} SET deleted_at = now()
            WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL`.pipe(Effect.asVoid, Effect.orDie)

    return { item, hide, remove }
  })
).pipe(Layer.provide(Layer.mergeAll(SocialItems.Default, CommentsRepo.Default)))
