import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import type { CommunityId } from "../../domain/Ids"
import { roundHalfEven } from "../../domain/Money"
import { inPeriods, periodEnds, periodOf } from "../../sql/periods"
import { SubscriptionStats } from "./SubscriptionStats"

/** Counts and sums as text (bigint), made numbers after decoding. */
const MovesRow = Schema.Struct({ period: Schema.String, new: Schema.String, churned: Schema.String })
const EndsRow = Schema.Struct({ period: Schema.String, active: Schema.String, arr: Schema.String })
const StatusRow = Schema.Struct({ status: Schema.String, count: Schema.String })
const decodeMoves = Schema.decodeUnknown(Schema.Array(MovesRow))
const decodeEnds = Schema.decodeUnknown(Schema.Array(EndsRow))
const decodeStatuses = Schema.decodeUnknown(Schema.Array(StatusRow))

/** `SubscriptionStats` over the subscriptions table (read only). */
export const SubscriptionStatsLive = Layer.effect(
  SubscriptionStats,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const running = sql`s.status NOT IN ('incomplete', 'incomplete_expired')`

    const series = (communityId: CommunityId, currency: string, range: Parameters<typeof periodOf>[2]) =>
      Effect.gen(function*() {
        const moves = yield* sql`
          SELECT period, count(*) FILTER (WHERE move = 'new')::text AS new,
            count(*) FILTER (WHERE move = 'churned')::text AS churned
          FROM (
            SELECT ${periodOf(sql, "s.created_at", range)} AS period, 'new' AS move FROM subscriptions s
            WHERE s.community_id = ${communityId} AND ${running} AND ${inPeriods(sql, "s.created_at", range)}
            UNION ALL
            SELECT ${periodOf(sql, "s.canceled_at", range)}, 'churned' FROM subscriptions s
            WHERE s.community_id = ${communityId} AND s.canceled_at IS NOT NULL
              AND ${inPeriods(sql, "s.canceled_at", range)}
          ) m GROUP BY period`.pipe(Effect.flatMap(decodeMoves))
        // The yearly value is an integer: the option's price × 12 / months of its interval, plus 12 × the
        // monthly price of each add-on held at the period's end; 0 while paused then. MRR = ARR / 12, rounded once.
        const ends = yield* sql`
          SELECT pe.period, count(s.id)::text AS active,
            coalesce(sum(CASE WHEN paused.at IS NOT NULL THEN 0
              ELSE s.price * CASE p.billing_interval WHEN 'ANNUAL' THEN 1 WHEN 'SEMIANNUAL' THEN 2
                WHEN 'QUARTERLY' THEN 4 ELSE 12 END + 12 * add_ons.monthly END)
              FILTER (WHERE s.currency = ${currency}), 0)::text AS arr
          FROM (${periodEnds(sql, range)}) pe
          LEFT JOIN subscriptions s ON s.community_id = ${communityId} AND ${running}
            AND s.created_at < pe.ends_at AND (s.canceled_at IS NULL OR s.canceled_at >= pe.ends_at)
          LEFT JOIN product_summaries p ON p.community_id = s.community_id AND p.id = s.product_id
          LEFT JOIN LATERAL (
            SELECT coalesce(sum(a.price), 0) AS monthly FROM subscription_add_ons a
            WHERE a.community_id = s.community_id AND a.subscription_id = s.id AND a.created_at < pe.ends_at
              AND (a.removed_at IS NULL OR a.removed_at >= pe.ends_at)
          ) add_ons ON true
          LEFT JOIN LATERAL (
            SELECT sp.paused_at AS at FROM subscription_pauses sp
            WHERE sp.community_id = s.community_id AND sp.subscription_id = s.id AND sp.paused_at < pe.ends_at
              AND (sp.resumed_at IS NULL OR sp.resumed_at >= pe.ends_at)
            LIMIT 1
          ) paused ON true
          GROUP BY pe.period`.pipe(Effect.flatMap(decodeEnds))
        return ends.map((row) => {
          const move = moves.find((m) => m.period === row.period)
          return {
            period: row.period,
            new: Number(move?.new ?? 0),
            churned: Number(move?.churned ?? 0),
            active: Number(row.active),
            mrr: Number(roundHalfEven(BigInt(row.arr), 12n))
          }
        })
      }).pipe(Effect.orDie)

    const byStatus = (communityId: CommunityId) =>
      sql`SELECT status, count(*)::text AS count FROM subscriptions
        WHERE community_id = ${communityId} GROUP BY status ORDER BY status`.pipe(
        Effect.flatMap(decodeStatuses),
        Effect.map((rows) => rows.map((row) => ({ status: row.status, count: Number(row.count) }))),
        Effect.orDie
      )

    return { series, byStatus }
  })
)
