import type { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { csvLineSql, type CsvSqlColumn } from "../../domain/Csv"

/**
 * The columns of the subscriptions CSV (`GET /api/manage/subscriptions/export.csv`) and how
 * PostgreSQL writes each, as `csvLine` would write the subscription's values. Aliases: `s`
 * subscriptions, `p` the option, `pr` the member's profile, `a` their account.
 */
const columns: ReadonlyArray<readonly [string, CsvSqlColumn]> = [
  ["id", { plain: "s.id" }],
  // One of the statuses a check of the table allows: nothing to neutralise or quote.
  ["status", { plain: "s.status" }],
  ["cancelAtPeriodEnd", { boolean: "s.cancel_at_period_end" }],
  ["profileId", { plain: "s.profile_id" }],
  ["fullName", { text: "pr.full_name" }],
  ["email", { text: "a.email" }],
  ["subscriptionGroupId", { plain: "s.subscription_group_id" }],
  ["productId", { plain: "s.product_id" }],
  ["productTitle", { text: "p.title" }],
  ["price", { plain: "s.price" }],
  ["currency", { text: "s.currency" }],
  ["discountPercent", { plain: "s.discount_percent" }],
  ["currentPeriodStart", { instant: "s.current_period_start" }],
  ["currentPeriodEnd", { instant: "s.current_period_end" }],
  ["createdAt", { instant: "s.created_at" }],
  ["canceledAt", { instant: "s.canceled_at" }]
]

export const csvHeader = columns.map(([name]) => name)

/** One subscription's CSV line (CRLF-terminated), an SQL expression over the aliases above. */
const LINE = csvLineSql(columns.map(([, column]) => column))

/**
 * The `id` and `line` of the first `limit` subscriptions `where` picks, newest first (for
 * `csvPageSql`). The member and the e-mail are LATERAL lookups by key (`LIMIT 1` keeps them
 * lookups): a page never hash-joins every community's profiles.
 */
export const csvRows = (sql: SqlClient.SqlClient, where: Fragment, limit: number) =>
  sql`SELECT s.id, ${sql.unsafe(LINE)} AS line FROM subscriptions s
    JOIN product_summaries p ON p.id = s.product_id
    JOIN LATERAL (SELECT m.full_name, m.account_id FROM member_cards m WHERE m.id = s.profile_id LIMIT 1) pr ON true
    JOIN LATERAL (SELECT ac.email FROM account_contacts ac WHERE ac.id = pr.account_id LIMIT 1) a ON true
    WHERE ${where}
    ORDER BY s.id DESC LIMIT ${limit}`
