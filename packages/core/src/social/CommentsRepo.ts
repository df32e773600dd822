import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Effect, Option, Schema } from "effect"
import { type CommunityId, ProfileId } from "../domain/Ids"
import { Role } from "../domain/Role"
import { decodeRows } from "../domain/Rows"
import { editedColumns, EditedRow, heldAt, heldOnEdit } from "./held"
import { type CommentableType, commentableTypes } from "./kinds"

export const CommentRow = Schema.Struct({
  id: Schema.String,
  itemType: Schema.Literal(...commentableTypes),
  itemId: Schema.String,
  parentId: Schema.NullOr(Schema.String),
  authorProfileId: ProfileId,
  /** The author's role (who may edit the comment: `requireMayEdit`). */
  authorRole: Role,
  authorName: Schema.String,
  authorAvatarUrl: Schema.NullOr(Schema.String),
  body: Schema.String,
  /** Hidden by a moderator: read by its author and staff only. */
  hidden: Schema.Boolean,
  /** Held for approval (moderation's settings): read by its author and staff only. */
  pending: Schema.Boolean,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type CommentRow = typeof CommentRow.Type

const decodeComments = decodeRows(CommentRow)
const decodeThreaded = decodeRows(Schema.Struct({ ...CommentRow.fields, threadId: Schema.String }))
const decodeParents = decodeRows(CommentRow.pick("id", "itemType", "itemId", "parentId"))
const decodeEdited = decodeRows(EditedRow)
const decodeCounts = decodeRows(Schema.Struct({ itemId: Schema.String, n: Schema.Number }))

export type NewCommentRow = {
  readonly id: string
  readonly communityId: string
  readonly itemType: CommentableType
  readonly itemId: string
  readonly parentId: string | null
  readonly authorProfileId: string
  readonly body: string
}

/**
 * SQL for comments (soft-deleted: `deleted_at`). A comment hidden by a moderator (`hidden_at`) is
 * left out as a deleted one is (counts, replies, edits), but an item's list shows it to its author
 * and staff (`reader`).
 */
export class CommentsRepo extends Effect.Service<CommentsRepo>()("@roda/core/CommentsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`c.id, c.item_type, c.item_id, c.parent_id, c.author_profile_id, p.role AS author_role,
      p.full_name AS author_name, p.avatar_url AS author_avatar_url, c.body,
      c.hidden_at IS NOT NULL AND c.hidden_at IS DISTINCT FROM c.held_at AS hidden, c.held_at IS NOT NULL AS pending,
      c.created_at, c.updated_at`
    const authorJoin = sql`JOIN member_cards p ON p.community_id = c.community_id AND p.id = c.author_profile_id`
    const select = sql`SELECT ${columns} FROM comments c ${authorJoin}`

    return {
      find: (communityId: CommunityId, id: string) =>
        sql`${select} WHERE c.community_id = ${communityId} AND c.id = ${id}
          AND c.deleted_at IS NULL AND c.hidden_at IS NULL`.pipe(
          Effect.flatMap(decodeComments),
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        ),
      /**
       * The comment a reply is about to name as parent, locked until the reply's transaction ends, so
       * that removing the thread waits for the reply and takes it too (see `remove`); none when
       * deleted, also by a removal that committed while this waited.
       */
      lockParent: (communityId: CommunityId, id: string) =>
        sql`SELECT id, item_type, item_id, parent_id
          FROM comments WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL AND hidden_at IS NULL
          FOR SHARE`.pipe(
          Effect.flatMap(decodeParents),
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        ),
      /**
       * Inserts the comment (held when `held`: see held.ts) and answers it as `findAny` would, in one
       * statement.
       */
      insert: (row: NewCommentRow, held?: Fragment) =>
        sql`WITH h AS MATERIALIZED (SELECT ${heldAt(sql, held)} AS at),
          c AS (INSERT INTO comments (id, community_id, item_type, item_id, parent_id, author_profile_id, body,
            held_at, hidden_at)
          SELECT ${row.id}, ${row.communityId}, ${row.itemType}, ${row.itemId}, ${row.parentId},
            ${row.authorProfileId}, ${row.body}, h.at, h.at FROM h
          RETURNING *)
          SELECT ${columns} FROM c ${authorJoin}`.pipe(
          Effect.flatMap(decodeComments),
          Effect.flatMap((rows) =>
            rows[0] === undefined ? Effect.dieMessage(`comment ${row.id} has no author`) : Effect.succeed(rows[0])
          ),
          Effect.orDie
        ),
      /** A comment not deleted, hidden or held included (its author's new one, a held one approved). */
      findAny: (communityId: CommunityId, id: string) =>
        sql`${select} WHERE c.community_id = ${communityId} AND c.id = ${id} AND c.deleted_at IS NULL`.pipe(
          Effect.flatMap(decodeComments),
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        ),
      /** The new body; held for approval when `held` (held.ts `editHeldWhen`): whether it waits now. */
      update: (communityId: CommunityId, id: string, body: string, held?: Fragment) =>
        sql`UPDATE comments SET body = ${body}, updated_at = now()${heldOnEdit(sql, held)}
          WHERE community_id = ${communityId} AND id = ${id} RETURNING ${editedColumns(sql)}`.pipe(
          Effect.flatMap(decodeEdited),
          Effect.map((rows) => rows[0] ?? { pending: false, heldEdit: false }),
          Effect.orDie
        ),
      /**
       * Soft-deletes the comment, then its replies: two statements (run them in one transaction), so
       * that the second sees a reply committed while the first waited on `lockParent`'s lock.
       */
      remove: (communityId: CommunityId, comment: Pick<CommentRow, "id" | "itemType" | "itemId">) =>
        Effect.zipRight(
          sql`UPDATE comments SET deleted_at = now()
            WHERE community_id = ${communityId} AND id = ${comment.id} AND deleted_at IS NULL`,
          sql`UPDATE comments SET deleted_at = now()
            WHERE community_id = ${communityId} AND item_type = ${comment.itemType} AND item_id = ${comment.itemId}
              AND parent_id = ${comment.id} AND deleted_at IS NULL`
        ).pipe(Effect.asVoid, Effect.orDie),
      /**
       * Comments of an item in threads, oldest first: each top-level comment followed by its replies.
       * Keyset on (thread id, id); ids are UUIDv7, so a thread's id precedes its replies'.
       */
      list: (
        communityId: CommunityId,
        itemType: CommentableType,
        itemId: string,
        after: readonly [string, string] | undefined,
        limit: number,
        reader: { readonly profileId: string; readonly staff: boolean }
      ) =>
        sql`SELECT x.* FROM (SELECT s.*, coalesce(s.parent_id, s.id) AS thread_id
            FROM (${select} WHERE c.community_id = ${communityId} AND c.item_type = ${itemType}
              AND c.item_id = ${itemId} AND c.deleted_at IS NULL
              AND (c.hidden_at IS NULL OR ${reader.staff} OR c.author_profile_id = ${reader.profileId})) s) x
          ${after === undefined ? sql`` : sql`WHERE (x.thread_id, x.id) > (${after[0]}::uuid, ${after[1]}::uuid)`}
          ORDER BY x.thread_id, x.id LIMIT ${limit + 1}`.pipe(Effect.orDie, Effect.flatMap(decodeThreaded)),
      /** Comments of these items: one grouped query. */
      counts: (communityId: CommunityId, itemType: CommentableType, itemIds: ReadonlyArray<string>) =>
        itemIds.length === 0
          ? Effect.succeed<ReadonlyArray<{ itemId: string; n: number }>>([])
          : sql`SELECT item_id, count(*)::int AS n FROM comments
              WHERE community_id = ${communityId} AND item_type = ${itemType} AND deleted_at IS NULL
              AND hidden_at IS NULL AND ${sql.in("item_id", itemIds)} GROUP BY item_id`.pipe(
            Effect.orDie,
            Effect.flatMap(decodeCounts)
          )
    }
  })
}) {}
