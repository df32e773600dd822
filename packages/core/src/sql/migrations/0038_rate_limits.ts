import { ddl } from "./ddl"

/**
 * The limits on abuse (`platform/RateLimits.ts`): one row per limit (`bucket`, e.g. `register`,
 * `recovery:client`) and key (a client address, an account, a hashed e-mail…), counting the actions
 * of the window that ends at `resets_at`. Rows of ended windows are swept by later counts.
 */
export default ddl(
  `CREATE TABLE rate_limit_counters (
    bucket text NOT NULL,
    key text NOT NULL,
    used integer NOT NULL,
    resets_at timestamptz NOT NULL,
    PRIMARY KEY (bucket, key)
  )`,
  `CREATE INDEX rate_limit_counters_resets_at_idx ON rate_limit_counters (resets_at)`
)
