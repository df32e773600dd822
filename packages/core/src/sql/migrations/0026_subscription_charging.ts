import { ddl } from "./ddl"

/**
 * Subscription charges leave the database transaction while the gateway is asked (issue 17): a
 * billing is `charging` (its attempt number in `attempts`) between the short transaction that marks
 * it and the one that applies the gateway's answer; a billing left `charging` by a crash is asked of
 * the gateway by a job. A refund of a billing (the team's cancel with refund, a billing paid after
 * its subscription moved on) is a `subscription_refunds` row, `pending` while the gateway is asked,
 * then `succeeded` (posted to the ledger) or `failed`. `gateway_charge_id` is the gateway's id of
 * the billing's last attempt (a refund or a lost dispute the gateway reports finds the billing by it). The routes that charge or
 * refund run outside the per-request transaction and keep their `Idempotency-Key` in
 * `subscription_request_keys` (an answer `NULL` is a request still in flight). `gateway_events.outcome`
 * tells an event handled from one acknowledged and ignored (not Roda's).
 */
export default ddl(
  `ALTER TABLE subscription_billings DROP CONSTRAINT subscription_billings_status_check`,
  `ALTER TABLE subscription_billings ADD CONSTRAINT subscription_billings_status_check
    CHECK (status IN ('pending', 'charging', 'paid', 'failed', 'refunded'))`,
  `ALTER TABLE subscription_billings ADD COLUMN gateway_charge_id text`,
  `CREATE INDEX subscription_billings_gateway_idx ON subscription_billings (gateway_charge_id)
    WHERE gateway_charge_id IS NOT NULL`,
  `CREATE TABLE subscription_refunds (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL,
    subscription_id uuid NOT NULL,
    billing_id uuid NOT NULL REFERENCES subscription_billings (id),
    amount bigint NOT NULL CHECK (amount > 0),
    status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
    reason text NOT NULL,
    ends_subscription boolean NOT NULL,
    gateway_refund_id text,
    failure_reason text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    FOREIGN KEY (community_id, subscription_id) REFERENCES subscriptions (community_id, id)
  )`,
  `CREATE INDEX subscription_refunds_billing_idx ON subscription_refunds (billing_id)`,
  `CREATE TABLE subscription_request_keys (
    community_id uuid NOT NULL,
    caller text NOT NULL,
    key text NOT NULL,
    fingerprint text NOT NULL,
    answer jsonb,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (community_id, caller, key)
  )`,
  `ALTER TABLE gateway_events ADD COLUMN outcome text NOT NULL DEFAULT 'handled'
    CHECK (outcome IN ('handled', 'ignored'))`
)
