import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Effect, Schema } from "effect"
import { decodeRows, firstRow } from "../domain/Rows"
import { Jobs } from "../platform/Jobs"
import { defaultPreference } from "./kinds"
import { instantMailJob } from "./mail/jobs"
import type { Notification } from "./Notify"
import { NotificationRow, PreferenceRow } from "./rows"

const decodeNotifications = decodeRows(NotificationRow)
const decodeTagged = decodeRows(Schema.Struct({ k: Schema.Number, ...NotificationRow.fields }))
const firstNotification = firstRow(NotificationRow)
const decodePreferences = decodeRows(PreferenceRow)
const decodeOptionalIds = decodeRows(Schema.Struct({ id: Schema.NullOr(Schema.String) }))
const decodeCount = decodeRows(Schema.Struct({ n: Schema.Number }))
const decodeCreatedAt = decodeRows(Schema.Struct({ createdAt: Schema.DateFromSelf }))
const decodeBatch = decodeRows(Schema.Struct({ n: Schema.Number, last: Schema.NullOr(Schema.String) }))

/** A page's key: [created_at as ISO, id] of the last notification seen. */
export type InboxKey = readonly [string, string]

/** SQL of the notifications (their own tables; members through `member_cards`). */
export class NotificationsRepo extends Effect.Service<NotificationsRepo>()("@roda/core/NotificationsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const jobs = yield* Jobs
    const columns = sql`n.id, n.kind, n.created_at, n.read_at, n.actor_profile_id, a.full_name AS actor_name,
      n.subject_type, n.subject_id, n.subject_title`
    const actorJoin = sql`LEFT JOIN member_cards a ON a.community_id = n.community_id AND a.id = n.actor_profile_id`
    const inbox = (communityId: string, profileId: string) =>
      sql`n.community_id = ${communityId} AND n.recipient_profile_id = ${profileId} AND n.in_app`

    /** A member's e-mail cadence for `kind` over their preference `p` (the kind's default without one). */
    const emailOf = (kind: Notification["kind"]) => sql`coalesce(p.email, ${defaultPreference(kind).email})`

    /**
     * One notification for each recipient (these ids, or the rows of the CTE `following`) who is an active
     * member, not the actor, may read the space's content (`readable`, over `m`: `Access.readableSpacesOf`)
     * and wants this kind in the app or by e-mail (their preference, else the kind's default); a
     * follower already told of the subject (mentioned in the post) is not told again: a probe of
     * `notifications_subject_idx` per follower (a scalar subquery: a `NOT EXISTS` becomes an anti
     * join, which PostgreSQL plans from statistics that never know a new post, as a scan of all the
     * post's notifications per follower; quadratic over a fan-out, bench/results/issue-55). `in_app`
     * says whether the inbox shows it, `email_due` which e-mail still waits for it. Answers the cadences.
     */
    const insertFor = (
      communityId: string,
      notification: Omit<Notification, "recipients">,
      recipients: ReadonlyArray<string> | "following",
      readable: Fragment | undefined,
      at: Date,
      mailedBy: "notifications" | "producer" = "notifications"
    ) => {
      const actor = notification.actorProfileId ?? null
      const email = emailOf(notification.kind)
      return sql`INSERT INTO notifications (id, community_id, recipient_profile_id, kind, actor_profile_id,
          subject_type, subject_id, subject_title, once_key, created_at, source_id, in_app, email_due)
        SELECT gen_random_uuid(), m.community_id, m.id, ${notification.kind}, ${actor}::uuid,
          ${notification.subject.type}, ${notification.subject.id}, ${notification.subject.title},
          ${notification.onceKey ?? null}, ${at}, ${notification.sourceId ?? null}::uuid, coalesce(p.in_app, TRUE),
          ${mailedBy === "producer" ? sql`NULL` : sql`nullif(${email}, 'off')`}
        FROM member_cards m ${recipients === "following" ? sql`JOIN following b ON b.profile_id = m.id` : sql``}
        LEFT JOIN notification_preferences p ON p.community_id = m.community_id AND p.profile_id = m.id
          AND p.kind = ${notification.kind}
        WHERE m.community_id = ${communityId} AND ${recipients === "following" ? sql`TRUE` : sql.in("m.id", recipients)}
          AND m.status = 'active' AND m.removed_at IS NULL AND m.id IS DISTINCT FROM ${actor}::uuid
          ${readable === undefined ? sql`` : sql`AND ${notification.spaceId}::uuid IN (${readable})`}
          AND (coalesce(p.in_app, TRUE) OR ${email} <> 'off')
          ${
        recipients === "following"
          ? sql`AND (SELECT 1 FROM notifications told WHERE told.community_id = m.community_id
              AND told.subject_id = ${notification.subject.id} AND told.recipient_profile_id = m.id LIMIT 1) IS NULL`
          : sql``
      }
        ON CONFLICT (community_id, recipient_profile_id, kind, once_key) WHERE once_key IS NOT NULL DO NOTHING
        RETURNING recipient_profile_id, email_due`
    }

    /**
     * `WITH` these CTEs (one of them `written`: an `insertFor`) and the job that e-mails the community's
     * notifications due at once (`instant`), written only when some are.
     */
    const withInstantMail = (communityId: string, ctes: Fragment, at: Date) =>
      Effect.map(
        jobs.enqueueWithin(
          instantMailJob(communityId, at),
          sql`EXISTS (SELECT 1 FROM written WHERE email_due = 'instant')`
        ),
        (mail) => sql`WITH ${ctes}, mail AS (${mail})`
      )

    return {
      /** `signal`: the streams' wake-up (`NotificationSignals.inStatement`), sent by this statement. */
      insert: (
        communityId: string,
        notification: Notification,
        readable: Fragment | undefined,
        at: Date,
        signal: Fragment | undefined
      ) =>
        withInstantMail(
          communityId,
          sql`written AS (${insertFor(communityId, notification, notification.recipients, readable, at)})`,
          at
        ).pipe(
          Effect.flatMap((statement) => sql`${statement} SELECT ${signal ?? sql`1`}`),
          Effect.asVoid,
          Effect.orDie
        ),
      /**
       * `insert` for a producer that e-mails in its own way: the notifications carry no e-mail of
       * their own; answers the recipients notified who want this kind by e-mail (any cadence but `off`).
       */
      insertMailedByProducer: (
        communityId: string,
        notification: Notification,
        readable: Fragment | undefined,
        at: Date,
        signal: Fragment | undefined
      ) =>
        // The signal drives the answer (one row even when nobody wants the e-mail), so it is sent.
        sql`WITH written AS (
            ${insertFor(communityId, notification, notification.recipients, readable, at, "producer")}
          ), signal AS MATERIALIZED (SELECT ${signal ?? sql`1`} AS sent)
          SELECT wanting.id FROM signal LEFT JOIN (
            SELECT w.recipient_profile_id AS id FROM written w
            LEFT JOIN notification_preferences p ON p.community_id = ${communityId}
              AND p.profile_id = w.recipient_profile_id AND p.kind = ${notification.kind}
            WHERE ${emailOf(notification.kind)} <> 'off'
          ) wanting ON TRUE`.pipe(
          Effect.flatMap(decodeOptionalIds),
          Effect.map((rows) => rows.flatMap((row) => row.id === null ? [] : [row.id])),
          Effect.orDie
        ),
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
        at: Date,
        followingBy: Date | undefined,
        signal: Fragment | undefined
      ) =>
        withInstantMail(
          communityId,
          sql`batch AS (
              SELECT profile_id, created_at FROM space_follows
              WHERE community_id = ${communityId} AND space_id = ${spaceId} AND profile_id > ${after}::uuid
              ORDER BY profile_id LIMIT ${limit}
            ), following AS (
              SELECT profile_id FROM batch
              ${followingBy === undefined ? sql`` : sql`WHERE created_at <= ${followingBy}`}
            ), written AS (
              ${insertFor(communityId, notification, "following", readable, at)}
            )`,
          at
        ).pipe(
          Effect.flatMap((statement) =>
            sql`${statement} SELECT count(*)::int AS n, max(profile_id::text) AS last
              ${
              signal === undefined ? sql`` : sql`, (SELECT ${signal} WHERE EXISTS (SELECT 1 FROM written)) AS signaled`
            }
              FROM batch`
          ),
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
      /**
       * What streams of the community send next, in one statement: for each (`k`, its profile, its
       * `after`), the next `limit` notifications after `after`, oldest first, tagged with `k`.
       */
      sinceMany: (
        communityId: string,
        streams: ReadonlyArray<{ readonly k: number; readonly profileId: string; readonly after: InboxKey }>,
        limit: number
      ) =>
        sql`SELECT s.k, n.* FROM jsonb_to_recordset(${
          JSON.stringify(streams.map((s) => ({ k: s.k, p: s.profileId, t: s.after[0], i: s.after[1] })))
        }::jsonb) AS s(k int, p uuid, t timestamptz, i uuid)
          CROSS JOIN LATERAL (
            SELECT ${columns} FROM notifications n ${actorJoin}
            WHERE n.community_id = ${communityId} AND n.recipient_profile_id = s.p AND n.in_app
              AND (n.created_at, n.id) > (s.t, s.i)
            ORDER BY n.created_at, n.id LIMIT ${limit}
          ) n
          ORDER BY s.k, n.created_at, n.id`.pipe(Effect.flatMap(decodeTagged), Effect.orDie),
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
            UPDATE notifications n SET read_at = coalesce(n.read_at, ${at}), email_due = NULL
            WHERE ${inbox(communityId, profileId)} AND n.id = ${id}
            RETURNING n.*
          )
          SELECT ${columns} FROM n ${actorJoin}`.pipe(Effect.flatMap(firstNotification), Effect.orDie),
      markAllRead: (communityId: string, profileId: string, at: Date) =>
        sql`WITH n AS (
            UPDATE notifications n SET read_at = ${at}, email_due = NULL
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
      withdraw: (communityId: string, itemId: string) =>
        sql`DELETE FROM notifications WHERE community_id = ${communityId} AND kind <> 'moderation'
          AND (subject_id = ${itemId} OR source_id = ${itemId})`.pipe(Effect.asVoid, Effect.orDie),
      /** Follows every feed space of the community the member (`m`) may read (`readable`, over `m`). */
      followFeeds: (communityId: string, profileId: string, readable: Fragment, at: Date) =>
        sql`INSERT INTO space_follows (community_id, space_id, profile_id, created_at)
          SELECT m.community_id, s.id, m.id, ${at}
          FROM member_cards m JOIN space_summaries s ON s.community_id = m.community_id AND s.module = 'feed'
          WHERE m.community_id = ${communityId} AND m.id = ${profileId} AND s.id IN (${readable})
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
