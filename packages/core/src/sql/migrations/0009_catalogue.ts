import { ddl } from "./ddl"

/**
 * Products and plans (subscription groups). Products are soft-deleted (`deleted_at`), because
 * plans, coupons and purchases keep pointing at them. A plan lists its billing options (SUBSCRIPTION
 * products) and its add-ons in `subscription_group_products`.
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
  `CREATE INDEX subscription_group_products_product_idx ON subscription_group_products (community_id, product_id, kind)`
)
