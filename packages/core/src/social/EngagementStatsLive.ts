import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { decodeRows } from "../domain/Rows"
import { inPeriods, periodOf } from "../sql/periods"
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
        return sql`
          SELECT ${periodOf(sql, "at", range)} AS period,
            count(*) FILTER (WHERE what = 'post')::text AS posts,
            count(*) FILTER (WHERE what = 'comment')::text AS comments,
            count(*) FILTER (WHERE what = 'reaction')::text AS reactions,
            count(DISTINCT who)::text AS active_members
          FROM (
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
          ) a GROUP BY 1`.pipe(
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
