import { ddl } from "./ddl"

/**
 * API keys (platform.md "API keys"): a key acts in one community as the account that made it, with
 * that account's role at most, narrowed by `scopes`. Only the key's SHA-256 is kept (`key_hash`, the
 * lookup of every request that sends one); `prefix` is its first 8 characters, to recognise it.
 * Revoking sets `revoked_at`; rows are kept for the record.
 */
export default ddl(
  `CREATE TABLE api_keys (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id) ON DELETE CASCADE,
    name text NOT NULL,
    prefix text NOT NULL,
    key_hash text NOT NULL UNIQUE,
    scopes jsonb NOT NULL,
    created_by uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    expires_at timestamptz,
    revoked_at timestamptz
  )`,
  `CREATE INDEX api_keys_community_idx ON api_keys (community_id, id DESC)`
)
