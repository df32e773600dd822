import { ddl } from "./ddl"

/**
 * Members' data rights (platform.md, issue 56). `data_exports`: an account's requested exports, built
 * by a job into a ZIP in the blob store (`blob_key`), downloadable until `expires_at` (7 days after it
 * is ready, when a job of its own removes the file); one at a time per account is `pending` or
 * `running` (`data_exports_open_idx`). `profiles_account_any_idx`: the profiles of an account,
 * removed ones too (the subject of an export or an erasure); `profiles_account_idx` covers live
 * profiles only.
 */
export default ddl(
  `CREATE TABLE data_exports (
    id uuid PRIMARY KEY,
    account_id uuid NOT NULL REFERENCES accounts (id),
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'ready', 'failed', 'expired')),
    blob_key text,
    size bigint,
    created_at timestamptz NOT NULL DEFAULT now(),
    ready_at timestamptz,
    expires_at timestamptz
  )`,
  `CREATE INDEX data_exports_account_idx ON data_exports (account_id, created_at DESC, id DESC)`,
  // One export under way per account: requests fired at once land on the same one.
  `CREATE UNIQUE INDEX data_exports_open_idx ON data_exports (account_id) WHERE status IN ('pending', 'running')`,
  `CREATE INDEX profiles_account_any_idx ON profiles (account_id, community_id)`
)
