import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import type { CommunityId } from "../../domain/Ids"
import { roundHalfEven } from "../../domain/Money"
import { inPeriods, periodEnds, periodOf } from "../../sql/periods"
import { SubscriptionStats } from "./SubscriptionStats"

/** Counts and sums as text (bigint), made numbers after decoding. */
const EndsRow = Schema.Struct({
  period: Schema.String,
  new: Schema.String,
  churned: Schema.String,
  active: Schema.String,
  arr: Schema.String
})
const StatusRow = Schema.Struct({ status: Schema.String, count: Schema.String })
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
        // The yearly value is an integer: the option's price × 12 / months of its interval, plus 12 × the
        // monthly price of each add-on held at the period's end; 0 while paused then. MRR = ARR / 12, rounded once.
        // A subscription never paused and without add-ons has one value while it runs: it is placed on the
        // first period it counts in when it starts and when it ends (`width_bucket` over the periods'
        // ends), and the periods sum what changed before them. Only the others are valued period by period.
        // New ones are counted from `running` too: one pass over the community's subscriptions.
        const end = sql`((${range.to}::date + 1)::timestamp AT TIME ZONE ${range.timeZone})`
        const ends = yield* sql`
          WITH pe AS MATERIALIZED (${periodEnds(sql, range)}),
          ends AS (SELECT array_agg(ends_at ORDER BY ends_at) AS at FROM pe),
          varying AS (
            SELECT subscription_id FROM subscription_pauses WHERE community_id = ${communityId}
            UNION SELECT subscription_id FROM subscription_add_ons WHERE community_id = ${communityId}),
          running AS MATERIALIZED (
            SELECT s.id, s.created_at, s.canceled_at, s.currency = ${currency} AS counted,
              s.price * CASE p.billing_interval WHEN 'ANNUAL' THEN 1 WHEN 'SEMIANNUAL' THEN 2
                WHEN 'QUARTERLY' THEN 4 ELSE 12 END AS yearly,
              s.id IN (SELECT subscription_id FROM varying) AS varies
            FROM subscriptions s
            LEFT JOIN product_summaries p ON p.community_id = s.community_id AND p.id = s.product_id
            WHERE s.community_id = ${communityId} AND ${running} AND s.created_at < ${end}),
          net AS (
            SELECT b, sum(n) AS n, sum(arr) AS arr FROM (
              SELECT width_bucket(r.created_at, ends.at) AS b, 1 AS n,
                CASE WHEN r.counted THEN r.yearly ELSE 0 END AS arr
              FROM running r, ends WHERE NOT r.varies
              UNION ALL
              SELECT width_bucket(greatest(r.created_at, r.canceled_at), ends.at), -1,
                CASE WHEN r.counted THEN -r.yearly ELSE 0 END
              FROM running r, ends WHERE NOT r.varies AND r.canceled_at IS NOT NULL
            ) e GROUP BY b),
          varied AS (
            SELECT pe.period, count(r.id) AS n,
              coalesce(sum(CASE WHEN paused.at IS NOT NULL THEN 0 ELSE r.yearly + 12 * add_ons.monthly END)
                FILTER (WHERE r.counted), 0) AS arr
            FROM pe
            CROSS JOIN varying v
            JOIN running r ON r.id = v.subscription_id AND r.created_at < pe.ends_at
              AND (r.canceled_at IS NULL OR r.canceled_at >= pe.ends_at)
            CROSS JOIN LATERAL (
              SELECT coalesce(sum(a.price), 0) AS monthly FROM subscription_add_ons a
              WHERE a.community_id = ${communityId} AND a.subscription_id = r.id AND a.created_at < pe.ends_at
                AND (a.removed_at IS NULL OR a.removed_at >= pe.ends_at)
            ) add_ons
            LEFT JOIN LATERAL (
              SELECT sp.paused_at AS at FROM subscription_pauses sp
              WHERE sp.community_id = ${communityId} AND sp.subscription_id = r.id AND sp.paused_at < pe.ends_at
                AND (sp.resumed_at IS NULL OR sp.resumed_at >= pe.ends_at)
              LIMIT 1
            ) paused ON true
            GROUP BY pe.period),
          began AS (
            SELECT to_char(at, 'YYYY-MM-DD') AS period, count(*) AS n FROM (
              SELECT date_trunc(${range.interval}, r.created_at AT TIME ZONE ${range.timeZone}) AS at FROM running r
              WHERE ${inPeriods(sql, "r.created_at", range)}) b GROUP BY at),
          churned AS (
            SELECT ${periodOf(sql, "s.canceled_at", range)} AS period, count(*) AS n FROM subscriptions s
            WHERE s.community_id = ${communityId} AND s.canceled_at IS NOT NULL
              AND ${inPeriods(sql, "s.canceled_at", range)} GROUP BY 1)
          SELECT pe.period, coalesce(began.n, 0)::text AS new, coalesce(churned.n, 0)::text AS churned,
            (coalesce(sum(net.n) OVER w, 0) + coalesce(varied.n, 0))::text AS active,
            (coalesce(sum(net.arr) OVER w, 0) + coalesce(varied.arr, 0))::text AS arr
          FROM (SELECT period, row_number() OVER (ORDER BY ends_at) - 1 AS b FROM pe) pe
          LEFT JOIN net ON net.b = pe.b
          LEFT JOIN varied ON varied.period = pe.period
          LEFT JOIN began ON began.period = pe.period
          LEFT JOIN churned ON churned.period = pe.period
          WINDOW w AS (ORDER BY pe.b)`.pipe(Effect.flatMap(decodeEnds))
        return ends.map((row) => ({
          period: row.period,
          new: Number(row.new),
          churned: Number(row.churned),
          active: Number(row.active),
          mrr: Number(roundHalfEven(BigInt(row.arr), 12n))
        }))
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
