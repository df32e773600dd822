import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Effect, Schema } from "effect"
import { decodeRows, firstRow } from "../domain/Rows"
import type { Notification } from "./Notify"
import { NotificationRow, PreferenceRow } from "./rows"

const decodeNotifications = decodeRows(NotificationRow)
const firstNotification = firstRow(NotificationRow)
const decodePreferences = decodeRows(PreferenceRow)
const decodeCount = decodeRows(Schema.Struct({ n: Schema.Number }))
const decodeCreatedAt = decodeRows(Schema.Struct({ createdAt: Schema.DateFromSelf }))
const decodeBatch = decodeRows(Schema.Struct({ n: Schema.Number, last: Schema.NullOr(Schema.String) }))

/** A page's key: [created_at as ISO, id] of the last notification seen. */
export type InboxKey = readonly [string, string]

/** SQL of the notifications (their own tables; members through `member_cards`). */
export class NotificationsRepo extends Effect.Service<NotificationsRepo>()("@roda/core/NotificationsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`n.id, n.kind, n.created_at, n.read_at, n.actor_profile_id, a.full_name AS actor_name,
      n.subject_type, n.subject_id, n.subject_title`
    const actorJoin = sql`LEFT JOIN member_cards a ON a.community_id = n.community_id AND a.id = n.actor_profile_id`
    const inbox = (communityId: string, profileId: string) =>
      sql`n.community_id = ${communityId} AND n.recipient_profile_id = ${profileId}`

    /**
     * One notification for each recipient (these ids, or the rows of the CTE `batch`) who is an active
     * member, not the actor, may read the space's content (`readable`, over `m`: `Access.readableSpacesOf`)
     * and has not turned the kind off in the app.
     */
    const insertFor = (
      communityId: string,
      notification: Omit<Notification, "recipients">,
      recipients: ReadonlyArray<string> | "batch",
      readable: Fragment | undefined,
      at: Date
    ) => {
      const actor = notification.actorProfileId ?? null
      return sql`INSERT INTO notifications (id, community_id, recipient_profile_id, kind, actor_profile_id,
          subject_type, subject_id, subject_title, once_key, created_at)
        SELECT gen_random_uuid(), m.community_id, m.id, ${notification.kind}, ${actor}::uuid,
          ${notification.subject.type}, ${notification.subject.id}, ${notification.subject.title},
          ${notification.onceKey ?? null}, ${at}
        FROM member_cards m ${recipients === "batch" ? sql`JOIN batch b ON b.profile_id = m.id` : sql``}
        WHERE m.community_id = ${communityId} AND ${recipients === "batch" ? sql`TRUE` : sql.in("m.id", recipients)}
          AND m.status = 'active' AND m.removed_at IS NULL AND m.id IS DISTINCT FROM ${actor}::uuid
          ${readable === undefined ? sql`` : sql`AND ${notification.spaceId}::uuid IN (${readable})`}
          AND NOT EXISTS (SELECT 1 FROM notification_preferences p WHERE p.community_id = m.community_id
            AND p.profile_id = m.id AND p.kind = ${notification.kind} AND NOT p.in_app)
        ON CONFLICT (community_id, recipient_profile_id, kind, once_key) WHERE once_key IS NOT NULL DO NOTHING`
    }

    return {
      insert: (communityId: string, notification: Notification, readable: Fragment | undefined, at: Date) =>
        insertFor(communityId, notification, notification.recipients, readable, at).pipe(Effect.asVoid, Effect.orDie),
      /**
       * The next `limit` followers of the space after `after` (by profile id), notified in one
       * statement: how many were read, and the last one (where the next batch starts).
       */
      notifyFollowersBatch: (
        communityId: string,
        spaceId: string,
        notification: Omit<Notification, "recipients">,
        after: string,
        limit: number,
        readable: Fragment,
        at: Date
      ) =>
        sql`WITH batch AS (
            SELECT profile_id FROM space_follows
            WHERE community_id = ${communityId} AND space_id = ${spaceId} AND profile_id > ${after}::uuid
            ORDER BY profile_id LIMIT ${limit}
          ), written AS (
            ${insertFor(communityId, notification, "batch", readable, at)}
          )
          SELECT count(*)::int AS n, max(profile_id::text) AS last FROM batch`.pipe(
          Effect.flatMap(decodeBatch),
          Effect.map((rows) => rows[0]!),
          Effect.orDie
        ),
      list: (
        communityId: string,
        profileId: string,
        unread: boolean,
        after: InboxKey | undefined,
        limit: number
      ) =>
        sql`SELECT ${columns} FROM notifications n ${actorJoin}
          WHERE ${inbox(communityId, profileId)} ${unread ? sql`AND n.read_at IS NULL` : sql``}
          ${after === undefined ? sql`` : sql`AND (n.created_at, n.id) < (${new Date(after[0])}, ${after[1]})`}
          ORDER BY n.created_at DESC, n.id DESC LIMIT ${limit + 1}`.pipe(
          Effect.flatMap(decodeNotifications),
          Effect.orDie
        ),
      /** The next `limit` notifications after `after`, oldest first (what a stream sends next). */
      since: (communityId: string, profileId: string, after: InboxKey, limit: number) =>
        sql`SELECT ${columns} FROM notifications n ${actorJoin}
          WHERE ${inbox(communityId, profileId)} AND (n.created_at, n.id) > (${new Date(after[0])}, ${after[1]})
          ORDER BY n.created_at, n.id LIMIT ${limit}`.pipe(Effect.flatMap(decodeNotifications), Effect.orDie),
      /** When this notification of the inbox was written, if it is there. */
      createdAt: (communityId: string, profileId: string, id: string) =>
        sql`SELECT n.created_at FROM notifications n WHERE ${inbox(communityId, profileId)} AND n.id = ${id}`.pipe(
          Effect.flatMap(decodeCreatedAt),
          Effect.map((rows) => rows[0]?.createdAt),
          Effect.orDie
        ),
      unreadCount: (communityId: string, profileId: string) =>
        sql`SELECT count(*)::int AS n FROM notifications n
          WHERE ${inbox(communityId, profileId)} AND n.read_at IS NULL`.pipe(
          Effect.flatMap(decodeCount),
          Effect.map((rows) => rows[0]?.n ?? 0),
          Effect.orDie
        ),
      /** Read at `at`, unless it was read before (its first time stays); none when not in this inbox. */
      markRead: (communityId: string, profileId: string, id: string, at: Date) =>
        sql`WITH n AS (
            UPDATE notifications n SET read_at = coalesce(n.read_at, ${at})
            WHERE ${inbox(communityId, profileId)} AND n.id = ${id}
            RETURNING n.*
          )
          SELECT ${columns} FROM n ${actorJoin}`.pipe(Effect.flatMap(firstNotification), Effect.orDie),
      markAllRead: (communityId: string, profileId: string, at: Date) =>
        sql`WITH n AS (
            UPDATE notifications n SET read_at = ${at}
            WHERE ${inbox(communityId, profileId)} AND n.read_at IS NULL
            RETURNING 1
          )
          SELECT count(*)::int AS n FROM n`.pipe(
          Effect.flatMap(decodeCount),
          Effect.map((rows) => rows[0]?.n ?? 0),
          Effect.orDie
        ),
      preferences: (communityId: string, profileId: string) =>
        sql`SELECT kind, in_app, email FROM notification_preferences
          WHERE community_id = ${communityId} AND profile_id = ${profileId}`.pipe(
          Effect.flatMap(decodePreferences),
          Effect.orDie
        ),
      savePreferences: (communityId: string, profileId: string, rows: ReadonlyArray<PreferenceRow>, at: Date) =>
        rows.length === 0 ? Effect.void : sql`INSERT INTO notification_preferences
            (community_id, profile_id, kind, in_app, email, updated_at)
          SELECT ${communityId}, ${profileId}, r.kind, r.in_app, r.email, ${at}
          FROM jsonb_to_recordset(${
          JSON.stringify(rows.map((row) => ({ kind: row.kind, in_app: row.inApp, email: row.email })))
        }::jsonb) AS r(kind text, in_app boolean, email text)
          ON CONFLICT (community_id, profile_id, kind)
          DO UPDATE SET in_app = excluded.in_app, email = excluded.email, updated_at = excluded.updated_at`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      follow: (communityId: string, spaceId: string, profileId: string, at: Date) =>
        sql`INSERT INTO space_follows (community_id, space_id, profile_id, created_at)
          VALUES (${communityId}, ${spaceId}, ${profileId}, ${at})
          ON CONFLICT (community_id, space_id, profile_id) DO NOTHING`.pipe(Effect.asVoid, Effect.orDie),
      unfollow: (communityId: string, spaceId: string, profileId: string) =>
        sql`DELETE FROM space_follows
          WHERE community_id = ${communityId} AND space_id = ${spaceId} AND profile_id = ${profileId}`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
    }
  })
}) {}
