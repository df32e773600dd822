import { ddl } from "./ddl"

/**
 * The sweep of expired `Idempotency-Key`s of the subscription routes (`SubscriptionsRepo.sweepKeys`,
 * `requestKeys.ts`) finds the keys claimed at a time or earlier: by `created_at`, indexed.
 */
export default ddl(
  `CREATE INDEX subscription_request_keys_created_idx ON subscription_request_keys (created_at)`
)
