import { ddl } from "./ddl"

/**
 * Fees, fee overrides and the ledger (money/ledger).
 *
 * The ledger is double entry and append-only: `ledger_transactions` and `ledger_entries` refuse
 * UPDATE, DELETE and TRUNCATE (triggers), and a deferred constraint trigger refuses, at commit, any
 * transaction whose entries do not sum to zero per currency. `ledger_balances` is the running
 * balance per account (changed under its row lock as entries are posted, each entry keeping the
 * balance after it); `ledger_releases` schedules each sale's move from pending to available.
 */
export default ddl(
  `CREATE TABLE fee_overrides (
    community_id uuid NOT NULL REFERENCES communities (id),
    payment_method text NOT NULL CHECK (payment_method IN ('CREDIT_CARD', 'PIX', 'BOLETO')),
    percent_bps integer NOT NULL CHECK (percent_bps BETWEEN 0 AND 10000),
    fixed integer NOT NULL CHECK (fixed >= 0),
    interest_rate_bps integer CHECK (interest_rate_bps BETWEEN 1 AND 1000),
    updated_by uuid NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (community_id, payment_method),
    CHECK (interest_rate_bps IS NULL OR payment_method = 'CREDIT_CARD')
  )`,
  `CREATE TABLE ledger_transactions (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id),
    kind text NOT NULL CHECK (kind IN ('sale', 'release')),
    idempotency_key text NOT NULL,
    reference text,
    description text NOT NULL,
    occurred_at timestamptz NOT NULL,
    posted_at timestamptz NOT NULL
  )`,
  `CREATE UNIQUE INDEX ledger_transactions_key ON ledger_transactions (community_id, idempotency_key)`,
  `CREATE UNIQUE INDEX ledger_transactions_community_id_key ON ledger_transactions (community_id, id)`,
  `CREATE TABLE ledger_entries (
    id uuid PRIMARY KEY,
    seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    community_id uuid NOT NULL,
    transaction_id uuid NOT NULL,
    kind text NOT NULL,
    account text NOT NULL CHECK (account IN
      ('buyer_payments', 'platform_fees', 'platform_interest', 'community_pending', 'community_available')),
    currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    amount bigint NOT NULL CHECK (amount <> 0),
    balance_after bigint NOT NULL,
    posted_at timestamptz NOT NULL,
    FOREIGN KEY (community_id, transaction_id) REFERENCES ledger_transactions (community_id, id)
  )`,
  `CREATE INDEX ledger_entries_statement_idx ON ledger_entries (community_id, account, seq DESC)`,
  `CREATE INDEX ledger_entries_transaction_idx ON ledger_entries (community_id, transaction_id)`,
  `CREATE INDEX ledger_entries_posted_idx ON ledger_entries (community_id, posted_at)`,
  `CREATE TABLE ledger_balances (
    community_id uuid NOT NULL REFERENCES communities (id),
    account text NOT NULL,
    currency text NOT NULL,
    balance bigint NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (community_id, account, currency)
  )`,
  `CREATE TABLE ledger_releases (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL,
    sale_transaction_id uuid NOT NULL UNIQUE,
    reference text,
    description text NOT NULL,
    currency text NOT NULL,
    amount bigint NOT NULL CHECK (amount >= 0),
    release_at timestamptz NOT NULL,
    released_at timestamptz,
    release_transaction_id uuid,
    FOREIGN KEY (community_id, sale_transaction_id) REFERENCES ledger_transactions (community_id, id),
    FOREIGN KEY (community_id, release_transaction_id) REFERENCES ledger_transactions (community_id, id),
    CHECK ((released_at IS NULL) = (release_transaction_id IS NULL))
  )`,
  `CREATE INDEX ledger_releases_due_idx ON ledger_releases (community_id, release_at) WHERE released_at IS NULL`,
  `CREATE INDEX ledger_releases_all_due_idx ON ledger_releases (release_at) WHERE released_at IS NULL`,
  `CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    RAISE EXCEPTION 'the ledger is append-only: % on % refused', TG_OP, TG_TABLE_NAME
      USING ERRCODE = 'integrity_constraint_violation';
  END
  $$`,
  `CREATE FUNCTION ledger_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF EXISTS (
      SELECT 1 FROM ledger_entries
      WHERE community_id = NEW.community_id AND transaction_id = NEW.transaction_id
      GROUP BY currency HAVING sum(amount) <> 0
    ) THEN
      RAISE EXCEPTION 'ledger transaction % does not sum to zero', NEW.transaction_id
        USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
  END
  $$`,
  `CREATE TRIGGER ledger_transactions_append_only BEFORE UPDATE OR DELETE ON ledger_transactions
    FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change()`,
  `CREATE TRIGGER ledger_transactions_no_truncate BEFORE TRUNCATE ON ledger_transactions
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change()`,
  `CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change()`,
  `CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change()`,
  `CREATE CONSTRAINT TRIGGER ledger_entries_balanced AFTER INSERT ON ledger_entries
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_check_balanced()`
)
