import { ddl } from "./ddl"

/**
 * Disputes hold money; one payout path per sale (issue 52, items 5 and 6).
 *
 * The ledger learns disputes and sales settled by the gateway: `community_disputed` (money of an
 * open dispute, held from `available` until it closes), `gateway_dispute_fees` (what the gateway
 * charged for disputes) and `community_gateway_settled` (a sale's net the gateway settled into the
 * community's own connected account, Stripe Connect destination charges: never paid out by Roda).
 * `charges.settled_to` is the connected account a charge was made for (as the gateway answered).
 * `disputes` keeps each gateway dispute and its state (`open -> won | lost`, see `disputeStates`),
 * so events out of order or repeated book each step once.
 */
export default ddl(
  `ALTER TABLE ledger_transactions DROP CONSTRAINT ledger_transactions_kind_check`,
  `ALTER TABLE ledger_transactions ADD CONSTRAINT ledger_transactions_kind_check
    CHECK (kind IN ('sale', 'release', 'refund', 'payout', 'payout_paid', 'payout_return',
      'dispute_hold', 'dispute_release', 'dispute_fee'))`,
  `ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_account_check`,
  `ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_account_check CHECK (account IN
    ('buyer_payments', 'platform_fees', 'platform_interest', 'community_pending', 'community_available',
     'community_in_transit', 'platform_payout_fees', 'payouts_sent', 'community_disputed',
     'gateway_dispute_fees', 'community_gateway_settled'))`,
  `ALTER TABLE charges ADD COLUMN settled_to text`,
  `CREATE TABLE disputes (
    gateway text NOT NULL,
    dispute_id text NOT NULL,
    community_id uuid NOT NULL REFERENCES communities (id),
    charge_id uuid NOT NULL,
    status text NOT NULL CHECK (status IN ('open', 'won', 'lost')),
    currency text NOT NULL,
    amount bigint NOT NULL CHECK (amount >= 0),
    held bigint NOT NULL DEFAULT 0 CHECK (held >= 0),
    fee bigint NOT NULL DEFAULT 0,
    fee_currency text,
    reason text,
    opened_at timestamptz,
    closed_at timestamptz,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (gateway, dispute_id)
  )`,
  `CREATE INDEX disputes_charge_idx ON disputes (community_id, charge_id)`
)
