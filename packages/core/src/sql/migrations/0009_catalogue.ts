import { ddl } from "./ddl"

/**
 * Products and plans (subscription groups). Products are soft-deleted (`deleted_at`), because
 * plans, coupons and purchases keep pointing at them. A plan lists its billing options (SUBSCRIPTION
 * products) and its add-ons in `subscription_group_products`; downsell offers belong to a plan; pricing
 * tiers (the public pricing page) point at plans.
 */
export default ddl(
  `CREATE TABLE products (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id),
    type text NOT NULL CHECK (type IN ('ONE_TIME', 'SUBSCRIPTION')),
    title text NOT NULL,
    description text,
    price integer NOT NULL CHECK (price >= 0),
    currency text NOT NULL,
    billing_interval text CHECK (billing_interval IN ('MONTHLY', 'QUARTERLY', 'SEMIANNUAL', 'ANNUAL')),
    commitment_months integer CHECK (commitment_months > 0),
    allowed_payment_methods text[] NOT NULL,
    has_stock boolean NOT NULL DEFAULT false,
    stock_quantity integer CHECK (stock_quantity >= 0),
    status text NOT NULL CHECK (status IN ('DRAFT', 'ACTIVE')),
    published_at timestamptz,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((type = 'SUBSCRIPTION') = (billing_interval IS NOT NULL)),
    CHECK (NOT has_stock OR stock_quantity IS NOT NULL)
  )`,
  `CREATE UNIQUE INDEX products_community_id_key ON products (community_id, id)`,
  `CREATE INDEX products_community_list_idx ON products (community_id, id DESC) WHERE deleted_at IS NULL`,
  `CREATE TABLE subscription_groups (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id),
    name text NOT NULL,
    description text,
    position integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE UNIQUE INDEX subscription_groups_community_id_key ON subscription_groups (community_id, id)`,
  `CREATE INDEX subscription_groups_community_position_idx ON subscription_groups (community_id, position, id)`,
  `CREATE TABLE subscription_group_products (
    community_id uuid NOT NULL,
    group_id uuid NOT NULL,
    product_id uuid NOT NULL,
    kind text NOT NULL CHECK (kind IN ('option', 'add_on')),
    position integer NOT NULL,
    PRIMARY KEY (group_id, product_id),
    FOREIGN KEY (community_id, group_id) REFERENCES subscription_groups (community_id, id) ON DELETE CASCADE,
    FOREIGN KEY (community_id, product_id) REFERENCES products (community_id, id)
  )`,
  `CREATE INDEX subscription_group_products_product_idx ON subscription_group_products (community_id, product_id, kind)`,
  // A SUBSCRIPTION product is the billing option of one plan at most, so a checkout of it names one plan.
  `CREATE UNIQUE INDEX subscription_group_products_one_plan_key ON subscription_group_products (community_id, product_id)
    WHERE kind = 'option'`,
  `CREATE INDEX subscription_group_products_group_idx ON subscription_group_products (community_id, group_id, kind, position)`,
  `CREATE INDEX products_community_type_status_idx ON products (community_id, type, status, id DESC)
    WHERE deleted_at IS NULL`,
  // Offers shown to a member who cancels: percent off the next `duration_cycles` charges.
  `CREATE TABLE downsell_offers (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL,
    group_id uuid NOT NULL,
    percent_off integer NOT NULL CHECK (percent_off BETWEEN 1 AND 100),
    duration_cycles integer NOT NULL CHECK (duration_cycles >= 1),
    message text,
    active boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (community_id, group_id) REFERENCES subscription_groups (community_id, id) ON DELETE CASCADE
  )`,
  `CREATE UNIQUE INDEX downsell_offers_community_id_key ON downsell_offers (community_id, id)`,
  `CREATE INDEX downsell_offers_group_idx ON downsell_offers (community_id, group_id, id)`,
  // The public pricing page (`/api/communities/plans`): tiers in order, each showing one plan.
  `CREATE TABLE pricing_tiers (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id),
    subscription_group_id uuid NOT NULL,
    name text NOT NULL,
    description text,
    benefits text[] NOT NULL DEFAULT '{}',
    highlight boolean NOT NULL DEFAULT false,
    position integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (community_id, subscription_group_id) REFERENCES subscription_groups (community_id, id)
  )`,
  `CREATE UNIQUE INDEX pricing_tiers_community_id_key ON pricing_tiers (community_id, id)`,
  `CREATE INDEX pricing_tiers_community_position_idx ON pricing_tiers (community_id, position, id)`,
  `CREATE INDEX pricing_tiers_group_idx ON pricing_tiers (community_id, subscription_group_id)`
)
