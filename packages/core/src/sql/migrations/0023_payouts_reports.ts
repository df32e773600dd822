import { ddl } from "./ddl"

/**
 * Payouts, refunds and the indexes of the team's sales list and the reports (issue 12).
 *
 * The ledger learns payouts and refunds: new transaction kinds and three accounts
 * (`community_in_transit`, `platform_payout_fees`, `payouts_sent`). `payouts` holds each withdrawal
 * and its state (`pending -> in_transit -> paid`, `pending -> canceled`, `pending | in_transit |
 * paid -> failed`); at most one open (pending or in transit) per community, held by a partial
 * unique index behind the service's lock. `refunds` keeps each refund of a charge, and
 * `charges.refunded_amount` their sum (changed under the charge's row lock, never above the total).
 */
export default ddl(
  `ALTER TABLE ledger_transactions DROP CONSTRAINT ledger_transactions_kind_check`,
  `ALTER TABLE ledger_transactions ADD CONSTRAINT ledger_transactions_kind_check
    CHECK (kind IN ('sale', 'release', 'refund', 'payout', 'payout_paid', 'payout_return'))`,
  `ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_account_check`,
  `ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_account_check CHECK (account IN
    ('buyer_payments', 'platform_fees', 'platform_interest', 'community_pending', 'community_available',
     'community_in_transit', 'platform_payout_fees', 'payouts_sent'))`,
  // the sales report reads one row per sale or refund: its method and figures are kept on the transaction
  // (written once with it; sales recorded before get them below, their method from the charge when known)
  `ALTER TABLE ledger_transactions
    ADD COLUMN payment_method text,
    ADD COLUMN currency text,
    ADD COLUMN gross bigint,
    ADD COLUMN fee bigint,
    ADD COLUMN interest bigint,
    ADD COLUMN net bigint`,
  `ALTER TABLE ledger_transactions DISABLE TRIGGER ledger_transactions_append_only`,
  `UPDATE ledger_transactions t SET currency = f.currency, gross = f.gross, fee = f.fee, interest = f.interest,
      net = f.net, payment_method = (SELECT c.payment_method FROM charges c
        WHERE c.community_id = t.community_id AND c.id::text = t.reference)
    FROM (SELECT community_id, transaction_id, min(currency) AS currency,
        coalesce(-sum(amount) FILTER (WHERE account = 'buyer_payments'), 0) AS gross,
        coalesce(sum(amount) FILTER (WHERE account = 'platform_fees'), 0) AS fee,
        coalesce(sum(amount) FILTER (WHERE account = 'platform_interest'), 0) AS interest,
        coalesce(sum(amount) FILTER (WHERE account = 'community_pending'), 0) AS net
      FROM ledger_entries WHERE kind = 'sale' GROUP BY community_id, transaction_id) f
    WHERE t.kind = 'sale' AND f.community_id = t.community_id AND f.transaction_id = t.id`,
  `ALTER TABLE ledger_transactions ENABLE TRIGGER ledger_transactions_append_only`,
  `CREATE INDEX ledger_transactions_report_idx ON ledger_transactions (community_id, occurred_at)
    INCLUDE (kind, payment_method, currency, gross, fee, interest, net) WHERE kind IN ('sale', 'refund')`,
  `CREATE TABLE payouts (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id),
    currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    amount bigint NOT NULL CHECK (amount > 0),
    fee bigint NOT NULL CHECK (fee >= 0),
    status text NOT NULL CHECK (status IN ('pending', 'in_transit', 'paid', 'failed', 'canceled')),
    method text,
    requested_by uuid NOT NULL,
    failure_reason text,
    created_at timestamptz NOT NULL,
    in_transit_at timestamptz,
    paid_at timestamptz,
    failed_at timestamptz,
    canceled_at timestamptz,
    updated_at timestamptz NOT NULL,
    FOREIGN KEY (community_id, requested_by) REFERENCES profiles (community_id, id)
  )`,
  `CREATE INDEX payouts_list_idx ON payouts (community_id, id DESC)`,
  `CREATE INDEX payouts_status_idx ON payouts (community_id, status, id DESC)`,
  `CREATE UNIQUE INDEX payouts_one_open_key ON payouts (community_id) WHERE status IN ('pending', 'in_transit')`,
  `ALTER TABLE charges ADD COLUMN refunded_amount bigint NOT NULL DEFAULT 0`,
  `ALTER TABLE charges ADD CONSTRAINT charges_refunded_amount_check
    CHECK (refunded_amount >= 0 AND refunded_amount <= total)`,
  `CREATE TABLE refunds (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL,
    charge_id uuid NOT NULL,
    purchase_id uuid,
    amount bigint NOT NULL CHECK (amount > 0),
    fee bigint NOT NULL CHECK (fee >= 0),
    interest bigint NOT NULL CHECK (interest >= 0),
    currency text NOT NULL,
    reason text NOT NULL,
    full_refund boolean NOT NULL,
    gateway_refund_id text,
    refunded_by uuid NOT NULL,
    created_at timestamptz NOT NULL,
    FOREIGN KEY (community_id, charge_id) REFERENCES charges (community_id, id)
  )`,
  `CREATE INDEX refunds_charge_idx ON refunds (community_id, charge_id, id)`,
  `CREATE INDEX refunds_created_idx ON refunds (community_id, created_at)`,
  // the team's sales list (newest first; by product)
  `CREATE INDEX purchases_community_idx ON purchases (community_id, id DESC)`,
  `CREATE INDEX purchases_product_idx ON purchases (community_id, product_id, id DESC)`,
  // reports: members joined and left, posts, enrollments, lesson completions, participants, check-ins per period
  `CREATE INDEX profiles_joined_idx ON profiles (community_id, created_at)`,
  `CREATE INDEX profiles_removed_idx ON profiles (community_id, removed_at) WHERE removed_at IS NOT NULL`,
  `CREATE INDEX enrollments_report_idx ON enrollments (community_id, enrolled_at)`,
  `CREATE INDEX lesson_progress_report_idx ON lesson_progress (community_id, completed_at) WHERE completed`,
  `CREATE INDEX event_participants_report_idx ON event_participants (community_id, joined_at)`,
  `CREATE INDEX event_participants_checkin_idx ON event_participants (community_id, checked_in_at)
    WHERE checked_in_at IS NOT NULL`,
  `CREATE INDEX subscriptions_started_idx ON subscriptions (community_id, created_at)`,
  `CREATE INDEX subscriptions_canceled_idx ON subscriptions (community_id, canceled_at) WHERE canceled_at IS NOT NULL`,
  `CREATE INDEX outbox_kind_idx ON outbox (community_id, kind)`
)
