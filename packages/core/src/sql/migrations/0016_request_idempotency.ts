import { ddl } from "./ddl"

/**
 * `Idempotency-Key` on creating POSTs (issue 10, item 10): one row per (community, caller, key),
 * claimed in the transaction of the request it answers, so the write and the stored answer commit
 * together. `status` is null when the request answered anything but 2xx (nothing is replayed then);
 * a row past `expires_at` may be claimed again.
 */
export default ddl(
  `CREATE TABLE request_idempotency_keys (
    scope text NOT NULL,
    caller text NOT NULL,
    key text NOT NULL,
    fingerprint text NOT NULL,
    status integer,
    body text,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (scope, caller, key)
  )`,
  `CREATE INDEX request_idempotency_keys_expires_at ON request_idempotency_keys (expires_at)`
)
