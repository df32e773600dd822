import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { type Coded, type NotFound, notFound } from "../domain/AppError"
import { type CommunityId, isUuid, SpaceId } from "../domain/Ids"
import { Messages } from "../domain/Messages"
import { isStaff } from "../domain/Role"
import { decodeRows } from "../domain/Rows"
import type { Text } from "../domain/Text"
import { traced } from "../platform/traced"
import { Access, type ContentRefused, type SpaceHidden, type Viewer } from "../structure/Access"
import { commentableTypes, type ReactableType } from "./kinds"
import { socialMessages as M } from "./messages"

/** A feed item (or comment) a viewer may read. */
export interface ResolvedItem {
  readonly type: ReactableType
  readonly id: string
  /** The space whose content it is; null for status posts (community-wide). */
  readonly spaceId: string | null
  /** For a comment: the item it belongs to. */
  readonly parent?: ResolvedItem
}

const notFoundText = {
  status: M.statusNotFound,
  content: M.contentNotFound,
  course: Messages.courseNotFound,
  event: M.socialItemNotFound,
  comment: M.commentNotFound
} satisfies Record<ReactableType, Text>

/** The item is of another community, or hidden from the viewer. */
type ItemHidden = Coded<NotFound, (typeof notFoundText)[ReactableType]["code"]>

const decodeItems = decodeRows(Schema.Struct({
  id: Schema.String,
  spaceId: Schema.NullOr(SpaceId),
  itemType: Schema.NullOr(Schema.Literal(...commentableTypes)),
  itemId: Schema.NullOr(Schema.String),
  /** The author of a post or comment hidden by a moderator (null when not hidden). */
  hiddenFrom: Schema.NullOr(Schema.String)
}))

/** Hidden posts and comments are read by their author and staff only. */
const seesHidden = (viewer: Viewer, authorProfileId: string) =>
  Option.isSome(viewer.member) &&
  (isStaff(viewer.member.value.role) || viewer.member.value.actingProfileId === authorProfileId)
const decodeOpen = decodeRows(Schema.Struct({ open: Schema.Boolean }))

/**
 * The one place that decides whether an item exists in the community and the viewer may read it,
 * for reactions, comments and the feed:
 * - status posts (community-wide, no space): not deleted; members of the community read them,
 *   anonymous visitors only when the community's `publicStatusPosts` setting is true;
 * - content posts: not deleted, and `Access.readContent` on their space;
 * - courses: published (drafts are not found, staff included), and `Access.readContent` on their space;
 * - events: not deleted, and `Access.readContent` on their space;
 * - comments: not deleted, and their item readable by these rules;
 * - a status post, content post, comment or event hidden by a moderator: only by its author (an
 *   event's host) and staff.
 * Another community's id, a malformed id, a deleted or hidden item answer 404; a visible space whose
 * content the viewer may not read answers 403 (from `Access`).
 */
export class SocialItems extends Effect.Service<SocialItems>()("@roda/core/SocialItems", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const access = yield* Access

    const lookup = (communityId: CommunityId, type: ReactableType, id: string) => {
      const where = sql`t.community_id = ${communityId} AND t.id = ${id}`
      const hidden = sql`CASE WHEN t.hidden_at IS NULL THEN NULL ELSE t.author_profile_id::text END AS hidden_from`
      const query = {
        status: sql`SELECT t.id, NULL::uuid AS space_id, NULL::text AS item_type, NULL::uuid AS item_id, ${hidden}
          FROM status_posts t WHERE ${where} AND t.deleted_at IS NULL`,
        content: sql`SELECT t.id, t.space_id, NULL::text AS item_type, NULL::uuid AS item_id, ${hidden}
          FROM content_posts t WHERE ${where} AND t.deleted_at IS NULL`,
        course: sql`SELECT t.id, t.space_id, NULL::text AS item_type, NULL::uuid AS item_id, NULL::text AS hidden_from
          FROM course_items t WHERE ${where} AND t.status = 'published'`,
        event: sql`SELECT t.id, t.space_id, NULL::text AS item_type, NULL::uuid AS item_id,
          CASE WHEN t.hidden_at IS NULL THEN NULL ELSE t.host_profile_id::text END AS hidden_from
          FROM event_items t WHERE ${where} AND t.deleted_at IS NULL`,
        comment: sql`SELECT t.id, NULL::uuid AS space_id, t.item_type, t.item_id, ${hidden}
          FROM comments t WHERE ${where} AND t.deleted_at IS NULL`
      }[type]
      return query.pipe(Effect.orDie, Effect.flatMap(decodeItems), Effect.map((rows) => Option.fromNullable(rows[0])))
    }

    /** Members see status posts; anonymous visitors only when the community opened them. */
    const statusPostsVisible = traced("SocialItems.statusPostsVisible")(function*(viewer: Viewer) {
      if (Option.isSome(viewer.member)) return true
      const rows = yield* sql`SELECT public_status_posts
        AS open FROM community_summaries WHERE id = ${viewer.communityId}`.pipe(
        Effect.orDie,
        Effect.flatMap(decodeOpen)
      )
      return rows[0]?.open ?? false
    })

    const resolve = (
      viewer: Viewer,
      type: ReactableType,
      id: string
    ): Effect.Effect<ResolvedItem, ItemHidden | SpaceHidden | ContentRefused> =>
      Effect.gen(function*() {
        const missing = notFound(notFoundText[type])
        const key = id.trim().toLowerCase()
        if (!isUuid(key)) return yield* Effect.fail(missing)
        const row = yield* lookup(viewer.communityId, type, key)
        if (Option.isNone(row)) return yield* Effect.fail(missing)
        const found = row.value
        if (found.hiddenFrom !== null && !seesHidden(viewer, found.hiddenFrom)) return yield* Effect.fail(missing)
        if (type === "comment") {
          const parent = yield* resolve(viewer, found.itemType!, found.itemId!)
          return { type, id: found.id, spaceId: parent.spaceId, parent }
        }
        if (type === "status") {
          if (!(yield* statusPostsVisible(viewer))) return yield* Effect.fail(missing)
        } else {
          yield* access.readContent(viewer, found.spaceId!)
        }
        return { type, id: found.id, spaceId: found.spaceId }
      }).pipe(Effect.withSpan("SocialItems.resolve"))

    return { resolve, statusPostsVisible }
  })
}) {}
