import { ddl } from "./ddl"

/**
 * Event check-in (issue 55): every participation carries a ticket code, random and unique per event,
 * kept for the life of the row (leaving and joining again keeps it); rows from before get one here
 * (16 hex digits, which are ticket-code characters too).
 * The attendance list reads checked-in people in `(checked_in_at, profile_id)` order from a partial
 * index. `event_notices` records each e-mail sent once per participant (a reminder for one start
 * time), so a job that runs again sends nothing twice. The outbox learns an HTML body and attachments
 * (the ticket's QR image, the `.ics` file).
 */
export default ddl(
  `ALTER TABLE event_participants ADD COLUMN ticket_code text`,
  `UPDATE event_participants SET ticket_code = upper(substr(md5(gen_random_uuid()::text), 1, 16))
    WHERE ticket_code IS NULL`,
  `ALTER TABLE event_participants ALTER COLUMN ticket_code SET NOT NULL`,
  `CREATE UNIQUE INDEX event_participants_ticket_key ON event_participants (community_id, event_id, ticket_code)`,
  `CREATE INDEX event_participants_checked_in_idx
    ON event_participants (community_id, event_id, checked_in_at, profile_id) WHERE checked_in_at IS NOT NULL`,
  `CREATE TABLE event_notices (
    community_id uuid NOT NULL,
    event_id uuid NOT NULL,
    profile_id uuid NOT NULL,
    notice text NOT NULL,
    sent_at timestamptz NOT NULL,
    PRIMARY KEY (community_id, event_id, profile_id, notice),
    FOREIGN KEY (community_id, event_id) REFERENCES events (community_id, id) ON DELETE CASCADE
  )`,
  `ALTER TABLE outbox ADD COLUMN html text`,
  `ALTER TABLE outbox ADD COLUMN attachments jsonb`
)
