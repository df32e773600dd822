import { ddl } from "./ddl"

/** Webhook events are kept 30 days: the retention job finds the older ones by their time. */
export default ddl(`CREATE INDEX webhook_events_created_idx ON webhook_events (created_at)`)
