import { ddl } from "./ddl"

/**
 * Real gateways (issue 17). A checkout now reserves (stock, coupon, the pending charge) in one
 * transaction, asks the gateway outside any transaction, and settles in another:
 * `charges.submitted_at` is set once the gateway's answer is recorded (a pending charge without it
 * was left by a crash and is reconciled by a job), `failed` is the final state of a declined
 * charge, `next_action` what a pending card charge asks of the buyer (3-D Secure). Refunds are
 * written `pending` before the gateway is asked and `succeeded` (or `failed`) after; a refund or a
 * lost dispute the gateway reports on its own is a row too (`kind`, no `refunded_by`). A team refund
 * keeps its `Idempotency-Key` and answer (the route runs outside the per-request transaction).
 * `gateway_accounts` names the seller account of a community at a gateway (Stripe Connect);
 * `stripe_saved_cards` the customer and payment method a card token was saved as, for renewals.
 */
export default ddl(
  `ALTER TABLE charges DROP CONSTRAINT charges_status_check`,
  `ALTER TABLE charges ADD CONSTRAINT charges_status_check CHECK (status IN ('pending', 'paid', 'expired', 'failed'))`,
  `ALTER TABLE charges
    ADD COLUMN submitted_at timestamptz,
    ADD COLUMN next_action jsonb,
    ADD COLUMN failure_reason text`,
  `UPDATE charges SET submitted_at = created_at`,
  `CREATE INDEX charges_unsubmitted_idx ON charges (created_at) WHERE status = 'pending' AND submitted_at IS NULL`,
  `ALTER TABLE refunds
    ADD COLUMN status text NOT NULL DEFAULT 'succeeded' CHECK (status IN ('pending', 'succeeded', 'failed')),
    ADD COLUMN kind text NOT NULL DEFAULT 'refund' CHECK (kind IN ('refund', 'chargeback')),
    ALTER COLUMN refunded_by DROP NOT NULL,
    ADD COLUMN request_key text,
    ADD COLUMN request_fingerprint text,
    ADD COLUMN answer jsonb`,
  `CREATE UNIQUE INDEX refunds_request_key ON refunds (community_id, refunded_by, request_key)`,
  `CREATE UNIQUE INDEX refunds_gateway_refund_key ON refunds (community_id, charge_id, gateway_refund_id)`,
  `CREATE TABLE gateway_accounts (
    gateway text NOT NULL,
    community_id uuid NOT NULL REFERENCES communities (id),
    account_id text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (gateway, community_id)
  )`,
  `CREATE TABLE stripe_saved_cards (
    card_token text PRIMARY KEY,
    customer_id text NOT NULL,
    payment_method_id text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`
)
