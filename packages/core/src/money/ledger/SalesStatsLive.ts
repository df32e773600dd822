import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { inPeriods } from "../../sql/periods"
import { transactional } from "../../sql/transaction"
import { SalesStats } from "./SalesStats"

const numbers = ["sales", "gross", "fees", "interest", "net", "refunds", "refundCount"] as const

/** One bucket of one method: figures as text (sums of bigint), made numbers after decoding. */
const SeriesRow = Schema.Struct({
  period: Schema.String,
  paymentMethod: Schema.NullOr(Schema.String),
  sales: Schema.String,
  gross: Schema.String,
  fees: Schema.String,
  interest: Schema.String,
  net: Schema.String,
  refunds: Schema.String,
  refundCount: Schema.String
})
const decodeSeries = Schema.decodeUnknown(Schema.Array(SeriesRow))

/**
 * `SalesStats` over the ledger's transactions: each sale and refund keeps its method and figures on
 * its transaction row, so a series is one pass over an index-only range (no join with the entries).
 */
export const SalesStatsLive = Layer.effect(
  SalesStats,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      // A year of daily series groups some 100k rows: with the default work_mem the grouping spills to
      // disk (an external merge sort), twice as slow (bench/reports-sales.mjs: ~200 → ~90 ms).
      series: (communityId, currency, range) =>
        transactional(sql)(Effect.zipRight(
          sql`SET LOCAL work_mem = '32MB'`,
          sql`SELECT to_char(bucket, 'YYYY-MM-DD') AS period, payment_method,
            sales, gross, fees, interest, net, refunds, refund_count
          FROM (
            SELECT date_trunc(${range.interval}, occurred_at AT TIME ZONE ${range.timeZone}) AS bucket,
              payment_method,
              count(*) FILTER (WHERE kind = 'sale')::text AS sales,
              coalesce(sum(gross) FILTER (WHERE kind = 'sale'), 0)::text AS gross,
              coalesce(sum(fee) FILTER (WHERE kind = 'sale'), 0)::text AS fees,
              coalesce(sum(interest) FILTER (WHERE kind = 'sale'), 0)::text AS interest,
              coalesce(sum(net) FILTER (WHERE kind = 'sale'), 0)::text AS net,
              coalesce(sum(gross) FILTER (WHERE kind = 'refund'), 0)::text AS refunds,
              count(*) FILTER (WHERE kind = 'refund')::text AS refund_count
            FROM ledger_transactions
            WHERE community_id = ${communityId} AND kind IN ('sale', 'refund') AND currency = ${currency}
              AND ${inPeriods(sql, "occurred_at", range)}
            GROUP BY 1, 2
          ) t`
        )).pipe(
          Effect.flatMap(decodeSeries),
          Effect.map((rows) =>
            rows.map((row) => {
              const out: Record<string, unknown> = { period: row.period, paymentMethod: row.paymentMethod }
              for (const key of numbers) out[key] = Number(row[key])
              return out as never
            })
          ),
          Effect.orDie
        )
    }
  })
)
