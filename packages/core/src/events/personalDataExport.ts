import { SqlClient } from "@effect/sql"
import { Effect, type Option } from "effect"
import type { ExportFile } from "../privacy/PersonalData"
import { afterKey, EXPORT_PAGE, isoOf, keysetRowsOfEach } from "../sql/keysetExport"

/**
 * Events' file of a members' data export (issue 56): the subject's participations with their check-ins
 * (by `event_participants_profile_events_idx`, migration 0056).
 */
export const eventsExportFiles = Effect.map(SqlClient.SqlClient, (sql): ReadonlyArray<ExportFile> => [
  {
    name: "participations.json",
    describes: "The events you joined: your status, when you joined, your ticket and when you checked in.",
    records: (subject) =>
      keysetRowsOfEach(
        subject.profiles,
        (profile, after: Option.Option<string>) =>
          sql`SELECT p.event_id, p.community_id, e.title AS event_title, ${
            isoOf(sql, "e.start_time")
          } AS event_starts_at,
            p.status, ${isoOf(sql, "p.joined_at")} AS joined_at, p.ticket_code,
            ${isoOf(sql, "p.checked_in_at")} AS checked_in_at, ${isoOf(sql, "p.updated_at")} AS updated_at
          FROM event_participants p JOIN events e ON e.community_id = p.community_id AND e.id = p.event_id
          WHERE p.community_id = ${profile.communityId} AND p.profile_id = ${profile.profileId}
            ${afterKey(sql, "p.event_id", after)}
          ORDER BY p.event_id LIMIT ${EXPORT_PAGE}`,
        (row) => row["eventId"] as string
      )
  }
])
