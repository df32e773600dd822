import { ddl } from "./ddl"

/**
 * The operator audit log (issue 16): one row per operator action (reviews, fee overrides, payout
 * moves, certificates, gateway accounts), written in the action's transaction. Listed newest first
 * by `(created_at, id)`, overall or by action, actor or community. No foreign keys: the log outlives
 * what it names, and the actor's e-mail is kept as it was when they acted.
 */
export default ddl(
  `CREATE TABLE operator_audit (
    id uuid PRIMARY KEY,
    actor_id uuid NOT NULL,
    actor_email text NOT NULL,
    action text NOT NULL,
    target_type text NOT NULL,
    target_id text NOT NULL,
    community_id uuid,
    details jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at timestamptz NOT NULL
  )`,
  `CREATE INDEX operator_audit_created_idx ON operator_audit (created_at DESC, id DESC)`,
  `CREATE INDEX operator_audit_action_idx ON operator_audit (action, created_at DESC, id DESC)`,
  `CREATE INDEX operator_audit_actor_idx ON operator_audit (actor_id, created_at DESC, id DESC)`,
  `CREATE INDEX operator_audit_community_idx ON operator_audit (community_id, created_at DESC, id DESC)
    WHERE community_id IS NOT NULL`
)
