import { ddl } from "./ddl"

/** Charges, purchases, subscriptions, idempotency keys and gateway events (commerce/checkout). */
export default ddl()
