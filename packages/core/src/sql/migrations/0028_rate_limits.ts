import { ddl } from "./ddl"

/** Fixed-window counters of calls that anyone may make without an account (`platform/RateLimits.ts`). */
export default ddl(
  `CREATE TABLE rate_limits (
    key text PRIMARY KEY,
    window_started_at timestamptz NOT NULL,
    used integer NOT NULL
  )`
)
