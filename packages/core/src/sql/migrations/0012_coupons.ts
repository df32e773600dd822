import { ddl } from "./ddl"

/**
 * Coupons and their redemptions (commerce/coupons). `status` stores only the hand-set state
 * (`active`, `inactive`); `expired` and `exhausted` are derived when read. `times_reserved` counts
 * uses held by open charges and `times_redeemed` uses of paid charges; together they never pass
 * `max_redemptions` (checked here too, as a last line behind the conditional updates). Codes are
 * stored upper-case, unique per community among coupons not deleted.
 */
export default ddl(
  `CREATE TABLE coupons (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id),
    code text NOT NULL,
    name text,
    percent_off integer CHECK (percent_off BETWEEN 1 AND 100),
    amount_off integer CHECK (amount_off > 0),
    currency text,
    duration text NOT NULL CHECK (duration IN ('once', 'repeating', 'forever')),
    duration_months integer CHECK (duration_months > 0),
    max_redemptions integer CHECK (max_redemptions >= 1),
    times_redeemed integer NOT NULL DEFAULT 0 CHECK (times_redeemed >= 0),
    times_reserved integer NOT NULL DEFAULT 0 CHECK (times_reserved >= 0),
    expires_at timestamptz,
    status text NOT NULL CHECK (status IN ('active', 'inactive')),
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((percent_off IS NULL) <> (amount_off IS NULL)),
    CHECK ((amount_off IS NULL) = (currency IS NULL)),
    CHECK ((duration = 'repeating') = (duration_months IS NOT NULL)),
    CHECK (max_redemptions IS NULL OR times_redeemed + times_reserved <= max_redemptions)
  )`,
  `CREATE UNIQUE INDEX coupons_community_id_key ON coupons (community_id, id)`,
  `CREATE UNIQUE INDEX coupons_community_code_key ON coupons (community_id, code) WHERE deleted_at IS NULL`,
  `CREATE INDEX coupons_community_list_idx ON coupons (community_id, id DESC) WHERE deleted_at IS NULL`,
  `CREATE TABLE coupon_products (
    community_id uuid NOT NULL,
    coupon_id uuid NOT NULL,
    product_id uuid NOT NULL,
    position integer NOT NULL,
    PRIMARY KEY (coupon_id, product_id),
    FOREIGN KEY (community_id, coupon_id) REFERENCES coupons (community_id, id) ON DELETE CASCADE,
    FOREIGN KEY (community_id, product_id) REFERENCES products (community_id, id)
  )`,
  `CREATE INDEX coupon_products_product_idx ON coupon_products (community_id, product_id)`,
  `CREATE TABLE coupon_redemptions (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL,
    coupon_id uuid NOT NULL,
    charge_id text NOT NULL,
    profile_id uuid,
    amount integer CHECK (amount >= 0),
    discount integer CHECK (discount >= 0),
    currency text,
    status text NOT NULL CHECK (status IN ('reserved', 'redeemed', 'released')),
    reserved_at timestamptz NOT NULL,
    redeemed_at timestamptz,
    released_at timestamptz,
    updated_at timestamptz NOT NULL,
    FOREIGN KEY (community_id, coupon_id) REFERENCES coupons (community_id, id)
  )`,
  `CREATE UNIQUE INDEX coupon_redemptions_charge_key ON coupon_redemptions (community_id, charge_id)`,
  `CREATE INDEX coupon_redemptions_usage_idx ON coupon_redemptions (community_id, coupon_id, id DESC)`
)
