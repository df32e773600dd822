import { ddl } from "./ddl"

/**
 * Sessions (platform.md "Sessions"): one row per sign-in; a token names its row as `sid`. A session
 * ends by setting `ended_at` (never deleted while a token of it may live). The caller statement of
 * every request reads `session_states` (identity's read contract) to refuse a token of an ended one.
 * `oauth_connections` gets an index by account (its live grants are revoked together).
 * `password_links` gains `email-undo`: the link to the old address that takes an e-mail change back.
 */
export default ddl(
  `CREATE TABLE auth_sessions (
    id uuid PRIMARY KEY,
    account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz NOT NULL DEFAULT now(),
    user_agent text,
    client_address text,
    ended_at timestamptz
  )`,
  `CREATE INDEX auth_sessions_open_idx ON auth_sessions (account_id, created_at DESC, id DESC)
    WHERE ended_at IS NULL`,
  `CREATE INDEX auth_sessions_address_idx ON auth_sessions (account_id, client_address, created_at)`,
  `CREATE VIEW session_states AS SELECT id, account_id, ended_at FROM auth_sessions`,
  // an account's live OAuth grants, all ended at once (logout-all, an e-mail change taken back)
  `CREATE INDEX oauth_connections_account_idx ON oauth_connections (account_id) WHERE revoked_at IS NULL`,
  `ALTER TABLE password_links DROP CONSTRAINT password_links_purpose_check`,
  `ALTER TABLE password_links ADD CONSTRAINT password_links_purpose_check
    CHECK (purpose IN ('invite', 'recovery', 'email-change', 'verify-email', 'email-undo'))`
)
