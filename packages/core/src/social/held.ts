import type { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { wordsOf } from "../domain/words"

/**
 * Whether a new post or comment by `author` waits for approval (platform.md "Moderation"), as a SQL
 * boolean of its insert, so that deciding it takes no statement of its own: the community's settings
 * (`community_moderation`) name one of its words, or it is among the author's first `holdFirstPosts`
 * (their posts and comments that were never held or were approved; rejected and waiting ones do not
 * count). Staff are never held: the caller leaves it out for them.
 */
export const heldWhen = (sql: SqlClient.SqlClient, communityId: string, author: Fragment, text: string): Fragment => {
  const own = (table: string) =>
    sql`SELECT 1 FROM ${sql(table)} WHERE community_id = s.id AND author_profile_id = ${author} AND held_at IS NULL`
  return sql`EXISTS (SELECT 1 FROM community_moderation s WHERE s.id = ${communityId} AND (
      (s.blocked_words <> '[]'::jsonb AND EXISTS (SELECT 1 FROM jsonb_array_elements_text(s.blocked_words) w
        WHERE w.value = ANY (string_to_array(${wordsOf(text)}, ' '))))
      OR (s.hold_first_posts > 0 AND s.hold_first_posts > (SELECT count(*) FROM (
        ${own("status_posts")} UNION ALL ${own("content_posts")} UNION ALL ${own("comments")} LIMIT 20) n))))`
}

/** `held_at` (and `hidden_at`) of the insert: now when `held`, else null. */
export const heldAt = (sql: SqlClient.SqlClient, held: Fragment | undefined) =>
  held === undefined ? sql`NULL::timestamptz` : sql`CASE WHEN ${held} THEN now() END`
