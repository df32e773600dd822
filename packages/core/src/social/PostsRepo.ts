import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Effect, Option } from "effect"
import type { CommunityId } from "../domain/Ids"
import type { Role } from "../domain/Role"

interface Authored {
  readonly id: string
  readonly authorProfileId: string
  readonly authorName: string
  readonly authorAvatarUrl: string | null
  readonly body: string
  readonly createdAt: Date
  readonly updatedAt: Date
}

export interface StatusRow extends Authored {
  /** `created_at` with microseconds, for the keyset. */
  readonly cursorTime: string
}

/** A status post with its author's role (who may edit it: `requireMayEdit`). */
export interface FoundStatusRow extends StatusRow {
  readonly authorRole: Role
}

export interface ContentRow extends Authored {
  readonly spaceId: string
  readonly title: string
  readonly attachments: ReadonlyArray<string>
}

export type NewContentRow = {
  readonly id: string
  readonly communityId: string
  readonly spaceId: string
  readonly authorProfileId: string
  readonly title: string
  readonly body: string
  readonly attachments: ReadonlyArray<string>
}

/** A row of `insertStatusAs`: the caller's profile, and the post when one was written. */
type CallerStatusRow = { readonly callerProfileId: string | null } & StatusRow

const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

/** SQL for status posts and content posts (soft-deleted: `deleted_at`). */
export class PostsRepo extends Effect.Service<PostsRepo>()("@roda/core/PostsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const authorJoin = sql`JOIN member_cards p ON p.community_id = t.community_id AND p.id = t.author_profile_id`
    const authored = sql`t.id, t.author_profile_id, p.full_name AS author_name, p.avatar_url AS author_avatar_url,
      t.body, t.created_at, t.updated_at`
    const statusColumns = sql`${authored},
      to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_time`
    const status = sql`SELECT ${statusColumns} FROM status_posts t ${authorJoin}`

    return {
      findStatus: (communityId: CommunityId, id: string) =>
        sql<FoundStatusRow>`SELECT ${statusColumns}, p.role AS author_role FROM status_posts t ${authorJoin}
          WHERE t.community_id = ${communityId} AND t.id = ${id} AND t.deleted_at IS NULL`.pipe(
          Effect.map(first),
          Effect.orDie
        ),
      /** Inserts the post and answers it as `findStatus` would, in one statement. */
      insertStatus: (row: { id: string; communityId: CommunityId; authorProfileId: string; body: string }) =>
        sql<StatusRow>`WITH t AS (INSERT INTO status_posts ${sql.insert(row)} RETURNING *)
          SELECT ${statusColumns} FROM t ${authorJoin}`.pipe(
          Effect.flatMap((rows) =>
            rows[0] === undefined ? Effect.dieMessage(`status post ${row.id} has no author`) : Effect.succeed(rows[0])
          ),
          Effect.orDie
        ),
      /**
       * The post by the caller `caller` finds (`DeferredMember.caller`), in one statement: none when
       * the caller's account is gone, `row` none when it is no member (nothing is written then).
       */
      insertStatusAs: (caller: Fragment, row: { id: string; communityId: CommunityId; body: string }) =>
        sql<CallerStatusRow>`WITH caller AS (${caller}),
          t AS (INSERT INTO status_posts (id, community_id, author_profile_id, body)
            SELECT ${row.id}, ${row.communityId}, caller.profile_id, ${row.body} FROM caller
            WHERE caller.profile_id IS NOT NULL
            RETURNING *)
          SELECT caller.profile_id AS caller_profile_id, ${statusColumns}
          FROM caller LEFT JOIN (t ${authorJoin}) ON true`.pipe(
          Effect.map((rows): Option.Option<{ row: Option.Option<StatusRow> }> => {
            const found = rows[0]
            if (found === undefined) return Option.none()
            return Option.some({ row: found.callerProfileId === null ? Option.none() : Option.some<StatusRow>(found) })
          }),
          Effect.orDie
        ),
      updateStatus: (communityId: CommunityId, id: string, body: string) =>
        sql`UPDATE status_posts SET body = ${body}, updated_at = now()
          WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      removeStatus: (communityId: CommunityId, id: string) =>
        sql`UPDATE status_posts SET deleted_at = now()
          WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL`.pipe(Effect.asVoid, Effect.orDie),
      /** Newest first; keyset on (created_at, id) descending. */
      listStatus: (communityId: string, after: readonly [string, string] | undefined, limit: number) =>
        sql<StatusRow>`${status} WHERE t.community_id = ${communityId} AND t.deleted_at IS NULL
          ${after === undefined ? sql`` : sql`AND (t.created_at, t.id) < (${after[0]}::timestamptz, ${after[1]}::uuid)`}
          ORDER BY t.created_at DESC, t.id DESC LIMIT ${limit + 1}`.pipe(Effect.orDie),
      findContent: (communityId: CommunityId, id: string) =>
        sql<ContentRow>`SELECT ${authored}, t.space_id, t.title, t.attachments FROM content_posts t ${authorJoin}
          WHERE t.community_id = ${communityId} AND t.id = ${id} AND t.deleted_at IS NULL`.pipe(
          Effect.map(first),
          Effect.orDie
        ),
      insertContent: (row: NewContentRow) =>
        sql`INSERT INTO content_posts (id, community_id, space_id, author_profile_id, title, body, attachments)
          VALUES (${row.id}, ${row.communityId}, ${row.spaceId}, ${row.authorProfileId}, ${row.title}, ${row.body},
            ${JSON.stringify(row.attachments)}::jsonb)`.pipe(Effect.asVoid, Effect.orDie),
      postingPolicy: (communityId: CommunityId, spaceId: string) =>
        sql<{ postingPolicy: "members" | "staff" }>`SELECT posting_policy FROM space_summaries
          WHERE community_id = ${communityId} AND id = ${spaceId}`.pipe(
          Effect.map((rows) => rows[0]?.postingPolicy ?? "staff"),
          Effect.orDie
        )
    }
  })
}) {}
