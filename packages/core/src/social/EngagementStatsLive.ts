import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { decodeRows } from "../domain/Rows"
import { inPeriods } from "../sql/periods"
import { EngagementStats } from "./EngagementStats"

const decodeSeries = decodeRows(Schema.Struct({
  period: Schema.String,
  posts: Schema.String,
  comments: Schema.String,
  reactions: Schema.String,
  activeMembers: Schema.String
}))

/** `EngagementStats` over social's tables (read only); deleted and hidden posts and comments do not count. */
export const EngagementStatsLive = Layer.effect(
  EngagementStats,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      series: (communityId, range, profileId) => {
        const author = (column: string) =>
          profileId === undefined ? sql`` : sql`AND ${sql.unsafe(column)} = ${profileId}`
        // Grouped on the period's start (a timestamp) and labelled after: sorting a month's ~50k rows
        // (bench/scale) on the label's text cost ~1.6 times as much. (Grouping by period and member
        // first is slower: nearly every pair is distinct, and the hash spills to disk.)
        return sql`
          SELECT to_char(bucket, 'YYYY-MM-DD') AS period,
            count(*) FILTER (WHERE what = 'post')::text AS posts,
            count(*) FILTER (WHERE what = 'comment')::text AS comments,
            count(*) FILTER (WHERE what = 'reaction')::text AS reactions,
            count(DISTINCT who)::text AS active_members
          FROM (
          SELECT date_trunc(${range.interval}, at AT TIME ZONE ${range.timeZone}) AS bucket, who, what FROM (
            SELECT created_at AS at, author_profile_id AS who, 'post' AS what FROM status_posts
            WHERE community_id = ${communityId} AND deleted_at IS NULL AND hidden_at IS NULL AND ${
          inPeriods(sql, "created_at", range)
        }
              ${author("author_profile_id")}
            UNION ALL
            SELECT created_at, author_profile_id, 'post' FROM content_posts
            WHERE community_id = ${communityId} AND deleted_at IS NULL AND hidden_at IS NULL AND ${
          inPeriods(sql, "created_at", range)
        }
              ${author("author_profile_id")}
            UNION ALL
            SELECT created_at, author_profile_id, 'comment' FROM comments
            WHERE community_id = ${communityId} AND deleted_at IS NULL AND hidden_at IS NULL AND ${
          inPeriods(sql, "created_at", range)
        }
              ${author("author_profile_id")}
            UNION ALL
            SELECT created_at, profile_id, 'reaction' FROM reactions
            WHERE community_id = ${communityId} AND ${inPeriods(sql, "created_at", range)} ${author("profile_id")}
          ) a
          ) b GROUP BY bucket`.pipe(
          Effect.flatMap(decodeSeries),
          Effect.map((rows) =>
            rows.map((row) => ({
              period: row.period,
              posts: Number(row.posts),
              comments: Number(row.comments),
              reactions: Number(row.reactions),
              activeMembers: Number(row.activeMembers)
            }))
          ),
          Effect.orDie
        )
      }
    }
  })
)
