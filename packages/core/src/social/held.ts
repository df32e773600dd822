import type { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Schema } from "effect"
import { wordsOf } from "../domain/words"

/** Whether `text` has one of the blocked words of the settings row `s` (`community_moderation`). */
const blocked = (sql: SqlClient.SqlClient, text: string): Fragment =>
  sql`(s.blocked_words <> '[]'::jsonb AND EXISTS (SELECT 1 FROM jsonb_array_elements_text(s.blocked_words) w
    WHERE w.value = ANY (string_to_array(${wordsOf(text)}, ' '))))`

/**
 * Whether a new post or comment by `author` waits for approval (platform.md "Moderation"), as a SQL
 * boolean of its insert, so that deciding it takes no statement of its own: the community's settings
 * (`community_moderation`) name one of its words, or it is among the author's first `holdFirstPosts`
 * (their posts and comments that were never held or were approved; rejected and waiting ones do not
 * count). Staff are never held: the caller leaves it out for them. The check is the function
 * `social_held` (migration 0061), so that the author's posts are read, and planned, only in a
 * community that holds first posts.
 */
export const heldWhen = (sql: SqlClient.SqlClient, communityId: string, author: Fragment, text: string): Fragment =>
  sql`social_held(${communityId}, ${author}, ${wordsOf(text)})`

/**
 * Whether an edit waits for approval, as a SQL boolean of its update: its new text has one of the
 * community's blocked words (platform.md "Moderation": an edit that adds one is held as a new post
 * would be; `holdFirstPosts` counts posts, not edits). Staff are never held: the caller leaves it out.
 */
export const editHeldWhen = (sql: SqlClient.SqlClient, communityId: string, text: string): Fragment =>
  sql`EXISTS (SELECT 1 FROM community_moderation s WHERE s.id = ${communityId} AND ${blocked(sql, text)})`

/**
 * `held_at, hidden_at` of an edit's update (`held`: see `editHeldWhen`): a visible item that becomes
 * held is written as a new held one is (both now), a moderator's earlier `hidden_at` kept (approval
 * leaves it hidden then); an item already held stays held as it was.
 */
export const heldOnEdit = (sql: SqlClient.SqlClient, held: Fragment | undefined): Fragment =>
  held === undefined ? sql`` : sql`,
    held_at = CASE WHEN held_at IS NULL AND ${held} THEN now() ELSE held_at END,
    hidden_at = CASE WHEN held_at IS NULL AND hidden_at IS NULL AND ${held} THEN now() ELSE hidden_at END`

/**
 * A post or comment after an edit: waiting for approval (`pending`), and whether an edit put it there
 * (`heldEdit`: held after it was written; a new held item is held by its insert, `held_at` equal to
 * `created_at`, and stays so through its author's edits until it is decided).
 */
export const EditedRow = Schema.Struct({ pending: Schema.Boolean, heldEdit: Schema.Boolean })
export type EditedRow = typeof EditedRow.Type

/** `EditedRow`'s columns, for the `RETURNING` of an edit. */
export const editedColumns = (sql: SqlClient.SqlClient): Fragment =>
  sql`held_at IS NOT NULL AS pending, coalesce(held_at > created_at, false) AS held_edit`

/**
 * `held_at` (and `hidden_at`) of the insert: now when `held`, else null. Its query must be kept apart
 * (`MATERIALIZED`, `OFFSET 0`): inlined, both columns would decide it again.
 */
export const heldAt = (sql: SqlClient.SqlClient, held: Fragment | undefined) =>
  held === undefined ? sql`NULL::timestamptz` : sql`CASE WHEN ${held} THEN now() END`
