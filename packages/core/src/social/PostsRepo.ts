import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Effect, Option, Schema } from "effect"
import { type CommunityId, ProfileId, SpaceId } from "../domain/Ids"
import { Role } from "../domain/Role"
import { decodeRows } from "../domain/Rows"
import { editedColumns, EditedRow, heldAt, heldOnEdit, heldWhen } from "./held"

const authoredFields = {
  id: Schema.String,
  authorProfileId: ProfileId,
  authorName: Schema.String,
  authorAvatarUrl: Schema.NullOr(Schema.String),
  body: Schema.String,
  /** Hidden by a moderator: read by its author and staff only, out of the feed, search and counts. */
  hidden: Schema.Boolean,
  /** Held for approval (moderation's settings): read by its author and staff only, like a hidden one. */
  pending: Schema.Boolean,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
}

export const StatusRow = Schema.Struct({
  ...authoredFields,
  /** `created_at` with microseconds, for the keyset. */
  cursorTime: Schema.String
})
export type StatusRow = typeof StatusRow.Type

/** A status post with its author's role (who may edit it: `requireMayEdit`). */
export const FoundStatusRow = Schema.Struct({ ...StatusRow.fields, authorRole: Role })
export type FoundStatusRow = typeof FoundStatusRow.Type

export const ContentRow = Schema.Struct({
  ...authoredFields,
  spaceId: SpaceId,
  title: Schema.String,
  attachments: Schema.Array(Schema.String)
})
export type ContentRow = typeof ContentRow.Type

const decodeStatus = decodeRows(StatusRow)
const decodeFoundStatus = decodeRows(FoundStatusRow)
const decodeContent = decodeRows(ContentRow)
/** A row of `insertStatusAs`: the caller's profile, and the post when one was written. */
const decodeCaller = decodeRows(Schema.Struct({
  id: Schema.NullOr(Schema.String),
  callerProfileId: Schema.NullOr(Schema.String),
  callerSuspendedUntil: Schema.NullOr(Schema.DateFromSelf)
}))
const decodePending = decodeRows(Schema.Struct({ pending: Schema.Boolean }))
const decodeEdited = decodeRows(EditedRow)
const decodePostingPolicy = decodeRows(Schema.Struct({ postingPolicy: Schema.Literal("members", "staff") }))

export type NewContentRow = {
  readonly id: string
  readonly communityId: string
  readonly spaceId: string
  readonly authorProfileId: string
  readonly title: string
  readonly body: string
  readonly attachments: ReadonlyArray<string>
}

const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

/** SQL for status posts and content posts (soft-deleted: `deleted_at`). */
export class PostsRepo extends Effect.Service<PostsRepo>()("@roda/core/PostsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const authorJoin = sql`JOIN member_cards p ON p.community_id = t.community_id AND p.id = t.author_profile_id`
    const authored = sql`t.id, t.author_profile_id, p.full_name AS author_name, p.avatar_url AS author_avatar_url,
      t.body, t.hidden_at IS NOT NULL AND t.hidden_at IS DISTINCT FROM t.held_at AS hidden,
      t.held_at IS NOT NULL AS pending, t.created_at, t.updated_at`
    const statusColumns = sql`${authored},
      to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_time`
    const status = sql`SELECT ${statusColumns} FROM status_posts t ${authorJoin}`
    /** A timestamp as `Date.toISOString` writes it. */
    const isoMillis = (column: Fragment) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    const more = (within: Fragment | undefined) => within === undefined ? sql`` : sql`, ${within}`

    return {
      findStatus: (communityId: CommunityId, id: string) =>
        sql`SELECT ${statusColumns}, p.role AS author_role FROM status_posts t ${authorJoin}
          WHERE t.community_id = ${communityId} AND t.id = ${id} AND t.deleted_at IS NULL`.pipe(
          Effect.flatMap(decodeFoundStatus),
          Effect.map(first),
          Effect.orDie
        ),
      /**
       * The post an insert below writes, for `WebhookEvents.emitWithin`: `data` is `view` with the
       * author and the times the insert reads (as `statusView` writes them).
       */
      insertedStatus: (view: Record<string, unknown>) => ({
        // a held post's event is written on its approval
        from: sql`t ${authorJoin} WHERE t.held_at IS NULL`,
        data: sql`${JSON.stringify(view)}::jsonb || jsonb_build_object(
          'author', jsonb_build_object('id', t.author_profile_id, 'fullName', p.full_name, 'avatarUrl', p.avatar_url),
          'createdAt', ${isoMillis(sql`t.created_at`)}, 'updatedAt', ${isoMillis(sql`t.updated_at`)})`
      }),
      /**
       * Inserts the post and answers it as `findStatus` would, in one statement (with `within`'s
       * CTEs, which may read the post as `insertedStatus` does).
       */
      insertStatus: (
        row: { id: string; communityId: CommunityId; authorProfileId: string; body: string },
        within?: Fragment,
        held?: Fragment
      ) =>
        sql`WITH h AS MATERIALIZED (SELECT ${heldAt(sql, held)} AS at),
          t AS (INSERT INTO status_posts (id, community_id, author_profile_id, body, held_at, hidden_at)
            SELECT ${row.id}, ${row.communityId}, ${row.authorProfileId}, ${row.body}, h.at, h.at FROM h
            RETURNING *)${more(within)}
          SELECT ${statusColumns} FROM t ${authorJoin}`.pipe(
          Effect.flatMap(decodeStatus),
          Effect.flatMap((rows) =>
            rows[0] === undefined ? Effect.dieMessage(`status post ${row.id} has no author`) : Effect.succeed(rows[0])
          ),
          Effect.orDie
        ),
      /**
       * The post by the caller `caller` finds (`DeferredMember.caller`), in one statement: none when
       * the caller's account is gone, `row` none when it is no member or is suspended past `now`
       * (`suspendedUntil` says which; nothing is written then, and `within` sees no post).
       */
      insertStatusAs: (
        caller: Fragment,
        row: { id: string; communityId: CommunityId; body: string },
        now: Date,
        within?: Fragment
      ) =>
        sql`WITH caller AS (${caller}),
          t AS (INSERT INTO status_posts (id, community_id, author_profile_id, body, held_at, hidden_at)
            SELECT ${row.id}, ${row.communityId}, caller.profile_id, ${row.body}, h.at, h.at
            FROM caller CROSS JOIN LATERAL (SELECT ${
          heldAt(
            sql,
            sql`caller.role NOT IN ('owner', 'admin', 'moderator')
              AND ${heldWhen(sql, row.communityId, sql`caller.profile_id`, row.body)}`
          )
        } AS at OFFSET 0) h
            WHERE caller.profile_id IS NOT NULL
              AND (caller.suspended_until IS NULL OR caller.suspended_until <= ${now})
            RETURNING *)${more(within)}
          SELECT caller.profile_id AS caller_profile_id, caller.suspended_until AS caller_suspended_until,
            ${statusColumns}
          FROM caller LEFT JOIN (t ${authorJoin}) ON true`.pipe(
          Effect.flatMap((rows) =>
            Effect.flatMap(decodeCaller(rows), ([found]) => {
              type Found = { row: Option.Option<StatusRow>; suspendedUntil: Date | null }
              if (found === undefined) return Effect.succeed(Option.none<Found>())
              const suspendedUntil = found.callerSuspendedUntil
              if (found.callerProfileId === null || found.id === null) {
                return Effect.succeed(Option.some<Found>({ row: Option.none(), suspendedUntil }))
              }
              return Effect.map(
                decodeStatus(rows),
                (decoded) => Option.some<Found>({ row: first(decoded), suspendedUntil })
              )
            })
          ),
          Effect.orDie
        ),
      /** The new body; held for approval when `held` (held.ts `editHeldWhen`): whether it waits now. */
      updateStatus: (communityId: CommunityId, id: string, body: string, held?: Fragment) =>
        sql`UPDATE status_posts SET body = ${body}, updated_at = now()${heldOnEdit(sql, held)}
          WHERE community_id = ${communityId} AND id = ${id} RETURNING ${editedColumns(sql)}`.pipe(
          Effect.flatMap(decodeEdited),
          Effect.map((rows) => rows[0] ?? { pending: false, heldEdit: false }),
          Effect.orDie
        ),
      removeStatus: (communityId: CommunityId, id: string) =>
        sql`UPDATE status_posts SET deleted_at = now()
          WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL`.pipe(Effect.asVoid, Effect.orDie),
      /**
       * Newest first; keyset on (created_at, id) descending. Hidden posts only for staff (`seer`
       * `"staff"`) and their author (`seer` the author's profile id).
       */
      listStatus: (
        communityId: CommunityId,
        after: readonly [string, string] | undefined,
        limit: number,
        seer: string | null
      ) =>
        sql`${status} WHERE t.community_id = ${communityId} AND t.deleted_at IS NULL
          ${
          seer === "staff"
            ? sql``
            : seer === null
            ? sql`AND t.hidden_at IS NULL`
            : sql`AND (t.hidden_at IS NULL OR t.author_profile_id = ${seer})`
        }
          ${after === undefined ? sql`` : sql`AND (t.created_at, t.id) < (${after[0]}::timestamptz, ${after[1]}::uuid)`}
          ORDER BY t.created_at DESC, t.id DESC LIMIT ${limit + 1}`.pipe(Effect.orDie, Effect.flatMap(decodeStatus)),
      findContent: (communityId: CommunityId, id: string) =>
        sql`SELECT ${authored}, t.space_id, t.title, t.attachments FROM content_posts t ${authorJoin}
          WHERE t.community_id = ${communityId} AND t.id = ${id} AND t.deleted_at IS NULL`.pipe(
          Effect.flatMap(decodeContent),
          Effect.map(first),
          Effect.orDie
        ),
      /** Inserts the post; whether it was held (`held`: see held.ts). */
      insertContent: (row: NewContentRow, held?: Fragment) =>
        sql`WITH h AS MATERIALIZED (SELECT ${heldAt(sql, held)} AS at)
          INSERT INTO content_posts (id, community_id, space_id, author_profile_id, title, body, attachments,
            held_at, hidden_at)
          SELECT ${row.id}, ${row.communityId}, ${row.spaceId}, ${row.authorProfileId}, ${row.title}, ${row.body},
            ${JSON.stringify(row.attachments)}::jsonb, h.at, h.at FROM h
          RETURNING held_at IS NOT NULL AS pending`.pipe(
          Effect.flatMap(decodePending),
          Effect.map((rows) => rows[0]?.pending ?? false),
          Effect.orDie
        ),
      postingPolicy: (communityId: CommunityId, spaceId: string) =>
        sql`SELECT posting_policy FROM space_summaries
          WHERE community_id = ${communityId} AND id = ${spaceId}`.pipe(
          Effect.flatMap(decodePostingPolicy),
          Effect.map((rows) => rows[0]?.postingPolicy ?? "staff"),
          Effect.orDie
        )
    }
  })
}) {}
