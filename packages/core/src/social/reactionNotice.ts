import type { SqlClient } from "@effect/sql"
import { Schema } from "effect"
import type { CommunityId } from "../domain/Ids"
import type { ReactableType } from "./kinds"

const HOUR = 3_600_000

/**
 * What a reaction notifies about: the author of the item reacted to (a course's creator, an event's
 * host), and the subject the inbox opens (for a comment, the post it is on, titled with the comment).
 */
export const ReactedItem = Schema.Struct({
  author: Schema.NullOr(Schema.String),
  subjectType: Schema.String,
  subjectId: Schema.String,
  subjectText: Schema.NullOr(Schema.String),
  spaceId: Schema.NullOr(Schema.String)
})
export type ReactedItem = typeof ReactedItem.Type

/** `reaction` is batched: one notification per item and hour (since the epoch) at most. */
export const reactionOnceKey = (itemId: string, now: number) => `${itemId}:${Math.floor(now / HOUR)}`

/**
 * `ReactedItem` of one item, as SQL over social's tables and the course and event item views. A
 * hidden or held item (`hidden_at`: a moderator's hide, or waiting for approval) has none: a reaction
 * to it, by staff or its author, notifies nobody (platform.md "Moderation": hidden content leaves the
 * notifications).
 */
export const reactedItem = (
  sql: SqlClient.SqlClient,
  communityId: CommunityId,
  type: ReactableType,
  itemId: string
) => {
  const where = sql`t.community_id = ${communityId} AND t.id = ${itemId}`
  const shown = sql`${where} AND t.hidden_at IS NULL`
  switch (type) {
    case "status":
      return sql`SELECT t.author_profile_id AS author, 'status' AS subject_type, t.id AS subject_id,
        t.body AS subject_text, NULL::uuid AS space_id FROM status_posts t WHERE ${shown}`
    case "content":
      return sql`SELECT t.author_profile_id AS author, 'content' AS subject_type, t.id AS subject_id,
        t.title AS subject_text, t.space_id FROM content_posts t WHERE ${shown}`
    case "course":
      return sql`SELECT t.created_by AS author, 'course' AS subject_type, t.id AS subject_id,
        t.title AS subject_text, t.space_id FROM course_items t WHERE ${where}`
    case "event":
      return sql`SELECT t.host_profile_id AS author, 'event' AS subject_type, t.id AS subject_id,
        t.title AS subject_text, t.space_id FROM event_items t WHERE ${shown}`
    case "comment": {
      const on = (alias: string, itemType: string) =>
        sql`t.item_type = ${itemType} AND ${sql(alias)}.community_id = t.community_id AND ${sql(alias)}.id = t.item_id`
      return sql`SELECT t.author_profile_id AS author, t.item_type AS subject_type, t.item_id AS subject_id,
          t.body AS subject_text, coalesce(cp.space_id, ci.space_id, ei.space_id) AS space_id
        FROM comments t
        LEFT JOIN content_posts cp ON ${on("cp", "content")}
        LEFT JOIN course_items ci ON ${on("ci", "course")}
        LEFT JOIN event_items ei ON ${on("ei", "event")}
        WHERE ${shown}`
    }
  }
}
