import { ddl } from "./ddl"

/**
 * When each subscription was paused (issue 55, reports): the MRR at a period's end counts a
 * subscription paused at that moment as 0, so pauses are kept as intervals, `paused_at` to
 * `resumed_at` (open while paused; closed by a resume or any other move out of `paused`, a cancel
 * included). A trigger on the subscription's status writes them, at the time of the change
 * (`updated_at`, the application's clock), whatever code path moves the status. Subscriptions
 * paused before this migration get an open pause from their last change.
 */
export default ddl(
  `CREATE TABLE subscription_pauses (
    community_id uuid NOT NULL,
    subscription_id uuid NOT NULL,
    paused_at timestamptz NOT NULL,
    resumed_at timestamptz,
    PRIMARY KEY (community_id, subscription_id, paused_at),
    FOREIGN KEY (community_id, subscription_id) REFERENCES subscriptions (community_id, id)
  )`,
  `CREATE FUNCTION subscription_pauses_track() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF OLD.status = 'paused' THEN
      UPDATE subscription_pauses SET resumed_at = greatest(paused_at, NEW.updated_at)
        WHERE community_id = NEW.community_id AND subscription_id = NEW.id AND resumed_at IS NULL;
    END IF;
    IF NEW.status = 'paused' THEN
      -- paused again at the very instant it resumed: that resume never was
      INSERT INTO subscription_pauses (community_id, subscription_id, paused_at)
        VALUES (NEW.community_id, NEW.id, NEW.updated_at)
        ON CONFLICT (community_id, subscription_id, paused_at) DO UPDATE SET resumed_at = NULL;
    END IF;
    RETURN NULL;
  END
  $$`,
  `CREATE TRIGGER subscriptions_pauses AFTER UPDATE OF status ON subscriptions
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status AND 'paused' IN (OLD.status, NEW.status))
    EXECUTE FUNCTION subscription_pauses_track()`,
  `INSERT INTO subscription_pauses (community_id, subscription_id, paused_at)
    SELECT community_id, id, updated_at FROM subscriptions WHERE status = 'paused'`
)
