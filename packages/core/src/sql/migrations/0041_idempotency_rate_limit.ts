import { ddl } from "./ddl"

/**
 * A stored `Idempotency-Key` answer remembers the limit on abuse its request counted (policy, counter
 * and its size, as `platform/RateLimits.ts` counted it), so that a replay shows that limit's current
 * `RateLimit-Policy` and `RateLimit` headers as the first answer did (issue 52). Null: no limit counted.
 */
export default ddl(`ALTER TABLE request_idempotency_keys ADD COLUMN rate_limit jsonb`)
