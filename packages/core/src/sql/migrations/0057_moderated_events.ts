import { ddl } from "./ddl"

/**
 * Moderation of events and the log of held content (platform.md "Moderation", issue 56):
 * - `events.hidden_at`: an event hidden by a moderator is read only by its host and staff (marked
 *   `hidden`), and leaves event lists, the feed, search, reminders and counts; a removal is the soft
 *   delete (`deleted_at`) a host's removal sets. `event_items` shows it (a view gains columns at its
 *   end only).
 * - `moderation_log.subject_excerpt`: what a log entry without a case (a held post's approval or
 *   rejection) was about, as it read then.
 */
export default ddl(
  `ALTER TABLE events ADD COLUMN hidden_at timestamptz`,
  `CREATE OR REPLACE VIEW event_items AS
    SELECT id, community_id, space_id, title, created_at, deleted_at, host_profile_id, hidden_at FROM events`,
  `ALTER TABLE moderation_log ADD COLUMN subject_excerpt text`
)
