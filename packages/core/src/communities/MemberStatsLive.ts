import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { decodeRows } from "../domain/Rows"
import { inPeriods, periodEnds, periodOf } from "../sql/periods"
import { MemberStats } from "./MemberStats"

/** Counts are read as text (a `bigint` count may exceed a 32-bit int), then made numbers. */
const decodeSeries = decodeRows(
  Schema.Struct({ period: Schema.String, joined: Schema.String, left: Schema.String, total: Schema.String })
)

/** `MemberStats` over the profiles table (read only). */
export const MemberStatsLive = Layer.effect(
  MemberStats,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      series: (communityId, range) =>
        sql`
          SELECT pe.period,
            count(p.id) FILTER (WHERE ${inPeriods(sql, "p.created_at", range)}
              AND ${periodOf(sql, "p.created_at", range)} = pe.period)::text AS joined,
            count(p.id) FILTER (WHERE p.removed_at IS NOT NULL AND ${inPeriods(sql, "p.removed_at", range)}
              AND ${periodOf(sql, "p.removed_at", range)} = pe.period)::text AS left,
            count(p.id) FILTER (WHERE p.created_at < pe.ends_at
              AND (p.removed_at IS NULL OR p.removed_at >= pe.ends_at))::text AS total
          FROM (${periodEnds(sql, range)}) pe
          LEFT JOIN profiles p ON p.community_id = ${communityId} AND p.status = 'active'
            AND p.created_at < ((${range.to}::date + 1)::timestamp AT TIME ZONE ${range.timeZone})
          GROUP BY pe.period`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeSeries),
          Effect.map((rows) =>
            rows.map((row) => ({
              period: row.period,
              joined: Number(row.joined),
              left: Number(row.left),
              total: Number(row.total)
            }))
          )
        ),
      exists: (communityId, profileId) =>
        sql`SELECT 1 FROM profiles WHERE community_id = ${communityId} AND id = ${profileId}`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        )
    }
  })
)
