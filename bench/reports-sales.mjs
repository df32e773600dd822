// Benchmark of the sales report (issue 12): a year of daily series for a community with 100k sales.
// Usage: DATABASE_URL=postgres://… node bench/reports-sales.mjs   (a migrated database with a community;
// the sales are written into the first community found, inside a transaction that is rolled back).
import { performance } from "node:perf_hooks"
import pg from "pg"

const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
await client.connect()
const SALES = Number(process.env.SALES ?? 100_000)
try {
  await client.query("BEGIN")
  const { rows: [community] } = await client.query("SELECT id FROM communities LIMIT 1")
  if (!community) throw new Error("no community in this database")
  const started = performance.now()
  await client.query(
    `INSERT INTO ledger_transactions (id, community_id, kind, idempotency_key, reference, description, occurred_at,
       posted_at, payment_method, currency, gross, fee, interest, net)
     SELECT gen_random_uuid(), $1, 'sale', 'bench:' || g, 'bench', 'Bench',
       timestamptz '2025-01-01' + (g % 365) * interval '1 day' + (g % 86400) * interval '1 second', now(),
       (ARRAY['PIX', 'CREDIT_CARD', 'BOLETO'])[1 + g % 3], 'BRL', 10000, 199, 0, 9801
     FROM generate_series(1, $2) g`,
    [community.id, SALES]
  )
  await client.query("ANALYZE ledger_transactions")
  console.log(`seeded ${SALES} sales in ${Math.round(performance.now() - started)} ms`)
  // the query of money/ledger/SalesStatsLive.ts, a year by day in UTC, with its work_mem (WORK_MEM overrides)
  const report = `SELECT to_char(bucket, 'YYYY-MM-DD') AS period, payment_method,
      sales, gross, fees, interest, net, refunds, refund_count
    FROM (
      SELECT date_trunc('day', occurred_at AT TIME ZONE 'UTC') AS bucket, payment_method,
        count(*) FILTER (WHERE kind = 'sale') AS sales,
        coalesce(sum(gross) FILTER (WHERE kind = 'sale'), 0) AS gross,
        coalesce(sum(fee) FILTER (WHERE kind = 'sale'), 0) AS fees,
        coalesce(sum(interest) FILTER (WHERE kind = 'sale'), 0) AS interest,
        coalesce(sum(net) FILTER (WHERE kind = 'sale'), 0) AS net,
        coalesce(sum(gross) FILTER (WHERE kind = 'refund'), 0) AS refunds,
        count(*) FILTER (WHERE kind = 'refund') AS refund_count
      FROM ledger_transactions
      WHERE community_id = $1 AND kind IN ('sale', 'refund') AND currency = 'BRL'
        AND occurred_at >= ('2025-01-01'::date::timestamp AT TIME ZONE 'UTC')
        AND occurred_at < (('2025-12-31'::date + 1)::timestamp AT TIME ZONE 'UTC')
      GROUP BY 1, 2
    ) t`
  await client.query(`SET LOCAL work_mem = '${process.env.WORK_MEM ?? "32MB"}'`)
  for (let run = 1; run <= 3; run++) {
    const at = performance.now()
    const { rows } = await client.query(report, [community.id])
    console.log(`run ${run}: ${rows.length} rows in ${Math.round(performance.now() - at)} ms`)
  }
  if (process.env.EXPLAIN) {
    const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${report}`, [community.id])
    console.log(rows.map((row) => row["QUERY PLAN"]).join("\n"))
  }
  // nothing is kept (the seeded transactions have no entries)
  await client.query("ROLLBACK")
} finally {
  await client.end()
}
