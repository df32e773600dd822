import { csvLineSql, type CsvSqlColumn } from "../../domain/Csv"

/**
 * The columns of the sales CSV (`GET /api/manage/purchases/export.csv`) and how PostgreSQL writes
 * each, as `csvLine` would write `saleView` of the sale (the status as `saleView` tells it). Aliases:
 * `pu` purchases, `c` charges, `p` the product, `pr` the buyer's profile, `a` their account.
 */
const columns: ReadonlyArray<readonly [string, CsvSqlColumn]> = [
  ["id", { plain: "pu.id" }],
  ["chargeId", { plain: "pu.charge_id" }],
  ["status", {
    plain:
      "CASE WHEN c.refunded_amount = 0 THEN 'paid' WHEN c.refunded_amount >= c.total THEN 'refunded' ELSE 'partially_refunded' END"
  }],
  ["buyerProfileId", { plain: "pu.profile_id" }],
  ["buyerName", { text: "pr.full_name" }],
  ["buyerEmail", { text: "a.email" }],
  ["productId", { plain: "pu.product_id" }],
  ["productTitle", { text: "p.title" }],
  // CREDIT_CARD, PIX or BOLETO (a check of the table): nothing to neutralise or quote.
  ["paymentMethod", { plain: "c.payment_method" }],
  ["installments", { plain: "c.installments" }],
  ["currency", { text: "c.currency" }],
  ["total", { plain: "c.total" }],
  ["fee", { plain: "c.fee" }],
  ["net", { plain: "c.net" }],
  ["refundedAmount", { plain: "c.refunded_amount" }],
  ["paidAt", { instant: "c.paid_at" }],
  ["createdAt", { instant: "pu.created_at" }]
]

export const SALES_CSV_HEADER = columns.map(([name]) => name)

/** One sale's CSV line (CRLF-terminated), an SQL expression over the aliases above. */
export const SALE_CSV_LINE = csvLineSql(columns.map(([, column]) => column))
