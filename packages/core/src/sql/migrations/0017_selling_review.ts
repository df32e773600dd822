import { ddl } from "./ddl"

/**
 * Issue 10 (items 13 and 14):
 * - review states of business information and payout settings in the spec's upper-case codes
 *   (`DRAFT`, `PENDING`, `APPROVED`, `REJECTED`), the same in the database as on the wire; a `PENDING`
 *   row with `submitted_at` null is an approved record edited and not submitted again;
 * - a SUBSCRIPTION product may be the billing option of several plans (spec §2 does not forbid it).
 */
const review = (table: string) => [
  `ALTER TABLE ${table} DROP CONSTRAINT IF EXISTS ${table}_status_check`,
  `UPDATE ${table} SET status = upper(status) WHERE status <> upper(status)`,
  `ALTER TABLE ${table} ADD CONSTRAINT ${table}_status_check
    CHECK (status IN ('DRAFT', 'PENDING', 'APPROVED', 'REJECTED'))`,
  `DROP INDEX IF EXISTS ${table}_pending_idx`,
  `CREATE INDEX ${table}_pending_idx ON ${table} (submitted_at) WHERE status = 'PENDING' AND submitted_at IS NOT NULL`
]

export default ddl(
  ...review("business_information"),
  ...review("payout_settings"),
  `DROP INDEX IF EXISTS subscription_group_products_one_plan_key`
)
