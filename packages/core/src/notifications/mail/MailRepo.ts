import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { decodeRows } from "../../domain/Rows"

const Due = Schema.Struct({
  id: Schema.String,
  communityId: Schema.String,
  recipientProfileId: Schema.String,
  kind: Schema.String,
  actorName: Schema.NullOr(Schema.String),
  subjectType: Schema.String,
  subjectId: Schema.String,
  subjectTitle: Schema.String,
  createdAt: Schema.DateFromSelf,
  email: Schema.NullOr(Schema.String),
  fullName: Schema.String,
  communityName: Schema.NullOr(Schema.String)
})
/** A notification whose e-mail is due, with who gets it and where. */
export type DueMail = typeof Due.Type

const decodeDue = decodeRows(Due)
const decodePending = decodeRows(Schema.Struct({ communityId: Schema.String, emailDue: Schema.String }))

export type Cadence = "instant" | "daily" | "weekly"

/** SQL of the notification e-mails: the queue is `notifications.email_due` (partial index). */
export class NotificationMailRepo extends Effect.Service<NotificationMailRepo>()("@roda/core/NotificationMailRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * Takes the community's notifications due by `cadence` of up to `limit` recipients (all of each
     * one's), marking them e-mailed: in the caller's transaction, with the e-mails it writes to the
     * outbox, so a rolled-back run sends nothing and a committed one marks what it sent. A row taken by
     * a run still going is skipped (`SKIP LOCKED`), so two runs never e-mail one notification twice.
     */
    const take = (communityId: string, cadence: Cadence, limit: number, createdBefore?: Date) =>
      sql`WITH recipients AS (
          SELECT DISTINCT recipient_profile_id FROM notifications
          WHERE community_id = ${communityId} AND email_due = ${cadence}
            ${createdBefore === undefined ? sql`` : sql`AND created_at < ${createdBefore}`}
          LIMIT ${limit}
        ), taken AS (
          SELECT n.id FROM notifications n JOIN recipients r ON r.recipient_profile_id = n.recipient_profile_id
          WHERE n.community_id = ${communityId} AND n.email_due = ${cadence}
          FOR UPDATE OF n SKIP LOCKED
        ), n AS (
          UPDATE notifications n SET email_due = NULL FROM taken WHERE n.id = taken.id RETURNING n.*
        )
        SELECT n.id, n.community_id, n.recipient_profile_id, n.kind, a.full_name AS actor_name, n.subject_type, n.subject_id,
          n.subject_title, n.created_at, c.email, coalesce(m.full_name, '') AS full_name, s.name AS community_name
        FROM n
        LEFT JOIN member_cards a ON a.community_id = n.community_id AND a.id = n.actor_profile_id
        LEFT JOIN member_cards m ON m.community_id = n.community_id AND m.id = n.recipient_profile_id
          AND m.status = 'active' AND m.removed_at IS NULL
        LEFT JOIN account_contacts c ON c.id = m.account_id
        LEFT JOIN community_summaries s ON s.id = n.community_id
        ORDER BY n.recipient_profile_id, n.created_at, n.id`.pipe(Effect.flatMap(decodeDue), Effect.orDie)

    /** The communities with e-mails waiting, by cadence (`instant` ones only when written before `before`). */
    const pending = (before: Date) =>
      sql`SELECT DISTINCT community_id, email_due FROM notifications
        WHERE email_due IS NOT NULL AND (email_due <> 'instant' OR created_at < ${before})`.pipe(
        Effect.flatMap(decodePending),
        Effect.orDie
      )

    /**
     * Turns off the e-mail of these kinds for the member (the app keeps its setting), and drops the
     * e-mails still waiting for them; nothing for someone no longer a member.
     */
    const turnOffEmail = (communityId: string, profileId: string, kinds: ReadonlyArray<string>, at: Date) =>
      sql`WITH member AS (
          SELECT id FROM member_cards WHERE community_id = ${communityId} AND id = ${profileId}
        ), saved AS (
          INSERT INTO notification_preferences (community_id, profile_id, kind, in_app, email, updated_at)
          SELECT ${communityId}, member.id, k.kind, TRUE, 'off', ${at}
          FROM member CROSS JOIN jsonb_array_elements_text(${JSON.stringify(kinds)}::jsonb) AS k(kind)
          ON CONFLICT (community_id, profile_id, kind) DO UPDATE SET email = 'off', updated_at = excluded.updated_at
          RETURNING 1
        )
        UPDATE notifications SET email_due = NULL
        WHERE community_id = ${communityId} AND recipient_profile_id = ${profileId}
          AND kind IN ${sql.in(kinds)} AND email_due IS NOT NULL`.pipe(Effect.asVoid, Effect.orDie)

    return { take, pending, turnOffEmail }
  })
}) {}
