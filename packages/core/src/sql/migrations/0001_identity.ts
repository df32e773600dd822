import { ddl } from "./ddl"

export default ddl(
  `CREATE TABLE accounts (
    id uuid PRIMARY KEY,
    email text NOT NULL,
    full_name text NOT NULL,
    password_hash text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE UNIQUE INDEX accounts_email_key ON accounts (lower(email))`,
  `CREATE TABLE password_links (
    id uuid PRIMARY KEY,
    account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    purpose text NOT NULL CHECK (purpose IN ('invite', 'recovery')),
    secret_hash text NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX password_links_account_idx ON password_links (account_id)`,
  `CREATE TABLE login_failures (
    key text PRIMARY KEY,
    window_started_at timestamptz NOT NULL,
    failures integer NOT NULL
  )`,
  `CREATE TABLE outbox (
    id uuid PRIMARY KEY,
    community_id uuid,
    recipient text NOT NULL,
    subject text NOT NULL,
    body text NOT NULL,
    kind text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    sent_at timestamptz,
    attempts integer NOT NULL DEFAULT 0,
    lease_until timestamptz
  )`,
  `CREATE INDEX outbox_unsent_idx ON outbox (created_at) WHERE sent_at IS NULL`,
  `CREATE INDEX outbox_community_idx ON outbox (community_id, created_at)`,
  `CREATE INDEX outbox_recipient_idx ON outbox (lower(recipient), created_at)`
)
