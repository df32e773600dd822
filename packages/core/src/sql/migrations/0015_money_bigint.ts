import { ddl } from "./ddl"

/**
 * Money as `bigint` (issue 10, item 6): every amount in minor units that 0009..0013 stored as
 * `integer` (2^31 − 1 minor units is R$ 21 million, less than a plan with add-ons may cost).
 * Checkout bounds a charge's total (`MAX_CHARGE_TOTAL`), far below what bigint and a JS number hold;
 * the Database layer reads int8 back as a number on PostgreSQL as PGlite does.
 *
 * Idempotency keys of checkout are scoped to the caller (item 7): `scope` is the account
 * (`account:<id>`) or, for an anonymous buyer, a digest of the buyer's e-mail; rows written before
 * keep the empty scope, which no request uses any more.
 */
export default ddl(
  `ALTER TABLE products ALTER COLUMN price TYPE bigint`,
  `ALTER TABLE coupons ALTER COLUMN amount_off TYPE bigint`,
  `ALTER TABLE coupon_redemptions ALTER COLUMN amount TYPE bigint, ALTER COLUMN discount TYPE bigint`,
  `ALTER TABLE fee_overrides ALTER COLUMN fixed TYPE bigint`,
  `ALTER TABLE charges
    ALTER COLUMN list_amount TYPE bigint,
    ALTER COLUMN discount TYPE bigint,
    ALTER COLUMN amount TYPE bigint,
    ALTER COLUMN interest TYPE bigint,
    ALTER COLUMN total TYPE bigint,
    ALTER COLUMN fee TYPE bigint,
    ALTER COLUMN net TYPE bigint`,
  `ALTER TABLE idempotency_keys ADD COLUMN scope text NOT NULL DEFAULT ''`,
  `ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey`,
  `ALTER TABLE idempotency_keys ADD PRIMARY KEY (community_id, scope, key)`
)
