import { ddl } from "./ddl"

/**
 * Checkout: charges (one per checkout; the money side), what a paid charge gives (purchases of
 * ONE_TIME products, subscriptions), stored answers of `Idempotency-Key` requests, and the gateway
 * events already handled (webhooks arrive more than once).
 */
export default ddl(
  `CREATE TABLE charges (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id),
    profile_id uuid NOT NULL,
    product_id uuid NOT NULL,
    subscription_group_id uuid,
    add_on_product_ids uuid[] NOT NULL DEFAULT '{}',
    payment_method text NOT NULL CHECK (payment_method IN ('CREDIT_CARD', 'PIX', 'BOLETO')),
    installments integer NOT NULL CHECK (installments BETWEEN 1 AND 12),
    currency text NOT NULL,
    list_amount integer NOT NULL CHECK (list_amount >= 0),
    discount integer NOT NULL CHECK (discount >= 0),
    amount integer NOT NULL CHECK (amount >= 0),
    interest integer NOT NULL CHECK (interest >= 0),
    total integer NOT NULL CHECK (total >= 0),
    fee integer NOT NULL CHECK (fee >= 0),
    net integer NOT NULL CHECK (net >= 0),
    amounts jsonb NOT NULL,
    coupon_id uuid,
    stock_reserved boolean NOT NULL DEFAULT false,
    status text NOT NULL CHECK (status IN ('pending', 'paid', 'expired')),
    gateway text NOT NULL,
    gateway_charge_id text,
    payment_code text,
    expires_at timestamptz,
    paid_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (community_id, profile_id) REFERENCES profiles (community_id, id),
    FOREIGN KEY (community_id, product_id) REFERENCES products (community_id, id)
  )`,
  `CREATE UNIQUE INDEX charges_community_id_key ON charges (community_id, id)`,
  `CREATE UNIQUE INDEX charges_gateway_key ON charges (gateway, gateway_charge_id)`,
  `CREATE INDEX charges_pending_expiry_idx ON charges (expires_at) WHERE status = 'pending'`,
  `CREATE TABLE purchases (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL,
    profile_id uuid NOT NULL,
    product_id uuid NOT NULL,
    charge_id uuid NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (community_id, charge_id) REFERENCES charges (community_id, id)
  )`,
  `CREATE INDEX purchases_buyer_idx ON purchases (community_id, profile_id, id DESC)`,
  `CREATE TABLE subscriptions (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL,
    profile_id uuid NOT NULL,
    subscription_group_id uuid NOT NULL,
    product_id uuid NOT NULL,
    add_on_product_ids uuid[] NOT NULL DEFAULT '{}',
    status text NOT NULL CHECK (status IN
      ('incomplete', 'incomplete_expired', 'active', 'past_due', 'unpaid', 'paused', 'canceled')),
    cancel_at_period_end boolean NOT NULL DEFAULT false,
    current_period_start timestamptz,
    current_period_end timestamptz,
    first_charge_id uuid NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (community_id, first_charge_id) REFERENCES charges (community_id, id)
  )`,
  `CREATE INDEX subscriptions_member_idx ON subscriptions (community_id, profile_id, id DESC)`,
  `CREATE TABLE idempotency_keys (
    community_id uuid NOT NULL,
    key text NOT NULL,
    request_hash text NOT NULL,
    response jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (community_id, key)
  )`,
  `CREATE TABLE gateway_events (
    gateway text NOT NULL,
    event_id text NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (gateway, event_id)
  )`
)
