import { ddl } from "./ddl"

/**
 * A change of option scheduled for the period end keeps the price it was quoted at when scheduled
 * (`scheduled_price`, beside `scheduled_product_id`, both cleared together): the catalogue may be
 * repriced before the period ends, and a subscription sold keeps its terms. Schedules made before
 * it (NULL) take the option's catalogue price when applied.
 */
export default ddl(
  `ALTER TABLE subscriptions ADD COLUMN scheduled_price bigint CHECK (scheduled_price >= 0)`
)
