import { ddl } from "./ddl"

/**
 * Webhooks out (platform.md "Webhooks out"): a community's endpoints with their signing secrets (the
 * previous one signs beside the new for a day after a rotation); `webhook_events`, the outbox each
 * change writes in its own transaction; and `webhook_deliveries`, one per event and endpoint, the
 * durable queue the delivery worker claims (`FOR UPDATE SKIP LOCKED` with a lease).
 */
export default ddl(
  `CREATE TABLE webhook_endpoints (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id) ON DELETE CASCADE,
    url text NOT NULL,
    events jsonb NOT NULL,
    description text,
    enabled boolean NOT NULL DEFAULT true,
    secret text NOT NULL,
    previous_secret text,
    previous_secret_until timestamptz,
    consecutive_failures integer NOT NULL DEFAULT 0,
    failing_since timestamptz,
    disabled_reason text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
  )`,
  `CREATE INDEX webhook_endpoints_community_idx ON webhook_endpoints (community_id, id DESC)
    WHERE deleted_at IS NULL`,
  `CREATE TABLE webhook_events (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id) ON DELETE CASCADE,
    type text NOT NULL,
    data jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX webhook_events_community_idx ON webhook_events (community_id, id DESC)`,
  `CREATE INDEX webhook_events_type_idx ON webhook_events (community_id, type, id DESC)`,
  `CREATE TABLE webhook_deliveries (
    id uuid PRIMARY KEY,
    endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_id uuid NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
    attempts integer NOT NULL DEFAULT 0,
    last_status_code integer,
    last_error text,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    locked_until timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (endpoint_id, event_id)
  )`,
  `CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
  `CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC, id DESC)`
)
