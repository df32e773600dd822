import { ddl } from "./ddl"

/**
 * Subscriptions that live (issue 12): the subscription keeps the terms it was sold with (`price`,
 * `currency`, the card it renews with), separate state fields (states.md "Subscription"), add-ons as
 * rows of their own (the team removes one by id), one billing row per charge attempt target
 * (a renewal is keyed by subscription and period, so it is charged at most once), and single-use
 * payment links (only a digest of the secret is kept).
 *
 * Manual subscriptions (team) have no checkout charge: `first_charge_id` becomes optional.
 */
export default ddl(
  `ALTER TABLE subscriptions ALTER COLUMN first_charge_id DROP NOT NULL`,
  `ALTER TABLE subscriptions
    ADD COLUMN kind text NOT NULL DEFAULT 'paid' CHECK (kind IN ('paid', 'courtesy', 'charge')),
    ADD COLUMN price bigint NOT NULL DEFAULT 0 CHECK (price >= 0),
    ADD COLUMN currency text NOT NULL DEFAULT 'BRL',
    ADD COLUMN payment_method text CHECK (payment_method IN ('CREDIT_CARD', 'PIX', 'BOLETO')),
    ADD COLUMN card_token text,
    ADD COLUMN billing_anchor timestamptz,
    ADD COLUMN period_index integer NOT NULL DEFAULT 0,
    ADD COLUMN paused_until timestamptz,
    ADD COLUMN paused_remaining_seconds bigint,
    ADD COLUMN scheduled_product_id uuid,
    ADD COLUMN discount_percent integer CHECK (discount_percent BETWEEN 1 AND 100),
    ADD COLUMN discount_months_left integer CHECK (discount_months_left >= 0),
    ADD COLUMN coupon_discount bigint CHECK (coupon_discount >= 0),
    ADD COLUMN coupon_periods_left integer CHECK (coupon_periods_left >= 0),
    ADD COLUMN past_due_since timestamptz,
    ADD COLUMN canceled_at timestamptz,
    ADD COLUMN starts_at timestamptz`,
  `UPDATE subscriptions s SET price = p.price, currency = p.currency, payment_method = c.payment_method,
    billing_anchor = s.current_period_start, period_index = CASE WHEN s.current_period_start IS NULL THEN 0 ELSE 1 END
    FROM products p, charges c WHERE p.id = s.product_id AND c.id = s.first_charge_id`,
  `CREATE INDEX subscriptions_team_idx ON subscriptions (community_id, id DESC)`,
  `CREATE INDEX subscriptions_status_idx ON subscriptions (community_id, status, id DESC)`,
  `CREATE INDEX subscriptions_plan_idx ON subscriptions (community_id, subscription_group_id, id DESC)`,
  `CREATE UNIQUE INDEX subscriptions_community_id_key ON subscriptions (community_id, id)`,
  `CREATE TABLE subscription_add_ons (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL,
    subscription_id uuid NOT NULL,
    product_id uuid NOT NULL,
    price bigint NOT NULL CHECK (price >= 0),
    created_at timestamptz NOT NULL,
    removed_at timestamptz,
    FOREIGN KEY (community_id, subscription_id) REFERENCES subscriptions (community_id, id)
  )`,
  `CREATE INDEX subscription_add_ons_subscription_idx ON subscription_add_ons (community_id, subscription_id)`,
  `CREATE UNIQUE INDEX subscription_add_ons_open_key ON subscription_add_ons (subscription_id, product_id)
    WHERE removed_at IS NULL`,
  `CREATE TABLE subscription_billings (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL,
    subscription_id uuid NOT NULL,
    key text NOT NULL,
    reason text NOT NULL CHECK (reason IN ('initial', 'renewal', 'proration', 'add_on', 'resume')),
    period_start timestamptz,
    period_end timestamptz,
    list_amount bigint NOT NULL CHECK (list_amount >= 0),
    discount bigint NOT NULL CHECK (discount >= 0),
    amount bigint NOT NULL CHECK (amount >= 0),
    currency text NOT NULL,
    payment_method text,
    fee bigint NOT NULL DEFAULT 0,
    net bigint NOT NULL DEFAULT 0,
    status text NOT NULL CHECK (status IN ('pending', 'paid', 'failed', 'refunded')),
    attempts integer NOT NULL DEFAULT 0,
    failure_reason text,
    refunded_amount bigint NOT NULL DEFAULT 0,
    paid_at timestamptz,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    FOREIGN KEY (community_id, subscription_id) REFERENCES subscriptions (community_id, id)
  )`,
  `CREATE UNIQUE INDEX subscription_billings_key ON subscription_billings (community_id, key)`,
  `CREATE INDEX subscription_billings_subscription_idx ON subscription_billings (community_id, subscription_id, id DESC)`,
  `CREATE TABLE subscription_payment_links (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL,
    subscription_id uuid NOT NULL,
    token_hash text NOT NULL UNIQUE,
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    created_at timestamptz NOT NULL,
    FOREIGN KEY (community_id, subscription_id) REFERENCES subscriptions (community_id, id)
  )`,
  `CREATE INDEX subscription_payment_links_subscription_idx ON subscription_payment_links (community_id, subscription_id)`
)
