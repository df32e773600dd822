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
      series: (communityId, range) => {
        const end = sql`((${range.to}::date + 1)::timestamp AT TIME ZONE ${range.timeZone})`
        const active = sql`p.community_id = ${communityId} AND p.status = 'active' AND p.created_at < ${end}`
        // `total` is what changed before each period's end, summed: every profile is placed once on
        // the first period it counts in (`width_bucket` over the periods' ends), joining and leaving.
        return sql`
          WITH pe AS MATERIALIZED (${periodEnds(sql, range)}),
          ends AS (SELECT array_agg(ends_at ORDER BY ends_at) AS at FROM pe),
          net AS (
            SELECT b, sum(n) AS n FROM (
              -- all who joined before the first period's end are on it (bucket 0): counted, not placed one by one
              SELECT 0 AS b, count(*) AS n FROM profiles p, ends WHERE ${active} AND p.created_at < ends.at[1]
              UNION ALL
              SELECT width_bucket(p.created_at, ends.at), 1 FROM profiles p, ends
              WHERE ${active} AND p.created_at >= ends.at[1]
              UNION ALL
              SELECT width_bucket(greatest(p.created_at, p.removed_at), ends.at), -1 FROM profiles p, ends
              WHERE ${active} AND p.removed_at IS NOT NULL AND p.removed_at < ${end}
            ) e GROUP BY b),
          came AS (
            SELECT ${periodOf(sql, "p.created_at", range)} AS period, count(*) AS n FROM profiles p
            WHERE ${active} AND ${inPeriods(sql, "p.created_at", range)} GROUP BY 1),
          went AS (
            SELECT ${periodOf(sql, "p.removed_at", range)} AS period, count(*) AS n FROM profiles p
            WHERE ${active} AND p.removed_at IS NOT NULL AND ${inPeriods(sql, "p.removed_at", range)} GROUP BY 1)
          SELECT pe.period, coalesce(came.n, 0)::text AS joined, coalesce(went.n, 0)::text AS left,
            coalesce(sum(net.n) OVER (ORDER BY pe.b), 0)::text AS total
          FROM (SELECT period, row_number() OVER (ORDER BY ends_at) - 1 AS b FROM pe) pe
          LEFT JOIN net ON net.b = pe.b
          LEFT JOIN came ON came.period = pe.period
          LEFT JOIN went ON went.period = pe.period`.pipe(
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
        )
      },
      exists: (communityId, profileId) =>
        sql`SELECT 1 FROM profiles WHERE community_id = ${communityId} AND id = ${profileId}`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        )
    }
  })
)
