import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { ExportFile } from "../privacy/PersonalData"
import { afterKey, EXPORT_PAGE, isoMicrosOf, isoOf, keysetRowsOfEach } from "../sql/keysetExport"

/**
 * Notifications' files of a members' data export (issue 56): the subject's notifications (newest first,
 * by `notifications_inbox_idx`), their preferences and the spaces they follow. Who caused a
 * notification is another member and is left out; what it is about is named by type, id and title.
 */
export const notificationsExportFiles = Effect.map(SqlClient.SqlClient, (sql): ReadonlyArray<ExportFile> => [
  {
    name: "notifications.json",
    describes: "Your notifications, newest first: what happened, about what, when, and when you read it.",
    records: (subject) =>
      keysetRowsOfEach(
        subject.profiles,
        (profile, after: Option.Option<readonly [string, string]>) =>
          sql`SELECT id, community_id, kind, subject_type, subject_id, subject_title, in_app,
            ${isoOf(sql, "created_at")} AS created_at, ${isoOf(sql, "read_at")} AS read_at,
            ${isoMicrosOf(sql, "created_at")} AS page_key
          FROM notifications
          WHERE community_id = ${profile.communityId} AND recipient_profile_id = ${profile.profileId} ${
            Option.match(after, {
              onNone: () => sql``,
              onSome: ([at, id]) => sql`AND (created_at, id) < (${at}::timestamptz, ${id}::uuid)`
            })
          }
          ORDER BY created_at DESC, id DESC LIMIT ${EXPORT_PAGE}`,
        (row) => [row["pageKey"] as string, row["id"] as string] as const
      )
  },
  {
    name: "notification-preferences.json",
    describes: "How you chose to be told of each kind of notification (in the app, by e-mail and how often).",
    records: (subject) =>
      keysetRowsOfEach(
        subject.profiles,
        (profile, after: Option.Option<string>) =>
          sql`SELECT community_id, kind, in_app, email, ${isoOf(sql, "updated_at")} AS updated_at
          FROM notification_preferences
          WHERE community_id = ${profile.communityId} AND profile_id = ${profile.profileId}
            ${afterKey(sql, "kind", after)}
          ORDER BY kind LIMIT ${EXPORT_PAGE}`,
        (row) => row["kind"] as string
      )
  },
  {
    name: "follows.json",
    describes: "The spaces you follow, and since when.",
    // by `space_follows_profile_idx` (community_id, profile_id)
    records: (subject) =>
      keysetRowsOfEach(
        subject.profiles,
        (profile, after: Option.Option<string>) =>
          sql`SELECT community_id, space_id, ${isoOf(sql, "created_at")} AS created_at
          FROM space_follows
          WHERE community_id = ${profile.communityId} AND profile_id = ${profile.profileId}
            ${afterKey(sql, "space_id", after)}
          ORDER BY space_id LIMIT ${EXPORT_PAGE}`,
        (row) => row["spaceId"] as string
      )
  }
])
