import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { decodeRows } from "../domain/Rows"
import { inPeriods, periodOf } from "../sql/periods"
import { EventStats } from "./EventStats"

const decodeSeries = decodeRows(
  Schema.Struct({
    period: Schema.String,
    events: Schema.String,
    participants: Schema.String,
    attendance: Schema.String
  })
)

/**
 * `EventStats` over the events tables (read only); removed events do not count, nor do events hidden
 * by a moderator, their sign-ups and check-ins.
 */
export const EventStatsLive = Layer.effect(
  EventStats,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      series: (communityId, range, profileId) => {
        const who = (column: string) => profileId === undefined ? sql`` : sql`AND ${sql.unsafe(column)} = ${profileId}`
        const shown = sql`AND NOT EXISTS (SELECT 1 FROM events h WHERE h.community_id = ${communityId}
          AND h.id = event_id AND h.hidden_at IS NOT NULL)`
        return sql`
          SELECT ${periodOf(sql, "at", range)} AS period,
            count(*) FILTER (WHERE what = 'event')::text AS events,
            count(*) FILTER (WHERE what = 'participant')::text AS participants,
            count(*) FILTER (WHERE what = 'attendance')::text AS attendance
          FROM (
            SELECT start_time AS at, 'event' AS what FROM events
            WHERE community_id = ${communityId} AND deleted_at IS NULL AND hidden_at IS NULL
              AND ${inPeriods(sql, "start_time", range)}
              ${who("host_profile_id")}
            UNION ALL
            SELECT joined_at, 'participant' FROM event_participants
            WHERE community_id = ${communityId} AND status <> 'cancelled' AND ${inPeriods(sql, "joined_at", range)}
              ${who("profile_id")} ${shown}
            UNION ALL
            SELECT checked_in_at, 'attendance' FROM event_participants
            WHERE community_id = ${communityId} AND checked_in_at IS NOT NULL
              AND ${inPeriods(sql, "checked_in_at", range)} ${who("profile_id")} ${shown}
          ) a GROUP BY 1`.pipe(
          Effect.flatMap(decodeSeries),
          Effect.map((rows) =>
            rows.map((row) => ({
              period: row.period,
              events: Number(row.events),
              participants: Number(row.participants),
              attendance: Number(row.attendance)
            }))
          ),
          Effect.orDie
        )
      }
    }
  })
)
