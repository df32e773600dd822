import { ddl } from "./ddl"

/**
 * Moderation (platform.md "Moderation", issue 56): members' reports, grouped into one open case per
 * subject (`moderation_cases_open_idx`: 50 members reporting one post at once make one case, by
 * `INSERT … ON CONFLICT`), one report per reporter and subject (`moderation_reports_once_idx`), and
 * the log of every moderation action. A case keeps the subject's excerpt and author as reported, so
 * a removed post stays readable in the queue and the log.
 *
 * Social's posts and comments gain `hidden_at` (hidden by a moderator: their author and staff still
 * read them; the feed, search and counts leave them out, as they leave out `deleted_at`, which a
 * removal sets); the read contracts show it. `event_items` shows the event's host (who an event
 * report is about). A view gains columns at its end only (CREATE OR REPLACE keeps the others).
 */
export default ddl(
  `ALTER TABLE status_posts ADD COLUMN hidden_at timestamptz`,
  `ALTER TABLE content_posts ADD COLUMN hidden_at timestamptz`,
  `ALTER TABLE comments ADD COLUMN hidden_at timestamptz`,
  `CREATE OR REPLACE VIEW status_post_items AS
    SELECT id, community_id, author_profile_id, body, created_at, deleted_at, hidden_at FROM status_posts`,
  `CREATE OR REPLACE VIEW content_post_items AS
    SELECT id, community_id, space_id, author_profile_id, title, body, created_at, deleted_at, hidden_at
    FROM content_posts`,
  `CREATE OR REPLACE VIEW comment_activity AS
    SELECT community_id, item_type, item_id, author_profile_id, created_at, deleted_at, hidden_at FROM comments`,
  `CREATE OR REPLACE VIEW event_items AS
    SELECT id, community_id, space_id, title, created_at, deleted_at, host_profile_id FROM events`,
  `CREATE TABLE moderation_cases (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id) ON DELETE CASCADE,
    subject_type text NOT NULL
      CHECK (subject_type IN ('status', 'comment', 'content', 'event', 'profile', 'submission')),
    subject_id uuid NOT NULL,
    subject_author_profile_id uuid,
    subject_excerpt text NOT NULL,
    status text NOT NULL CHECK (status IN ('open', 'resolved')),
    created_at timestamptz NOT NULL,
    resolved_at timestamptz,
    resolved_by_profile_id uuid,
    resolution text CHECK (resolution IN ('dismiss', 'hide', 'remove')),
    resolution_note text,
    UNIQUE (community_id, id)
  )`,
  `CREATE UNIQUE INDEX moderation_cases_open_idx
    ON moderation_cases (community_id, subject_type, subject_id) WHERE status = 'open'`,
  `CREATE INDEX moderation_cases_queue_idx ON moderation_cases (community_id, status, created_at DESC, id DESC)`,
  `CREATE TABLE moderation_reports (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL,
    case_id uuid NOT NULL,
    reporter_profile_id uuid NOT NULL,
    subject_type text NOT NULL,
    subject_id uuid NOT NULL,
    reason text NOT NULL
      CHECK (reason IN ('spam', 'harassment', 'hate', 'sexual', 'violence', 'misinformation', 'other')),
    note text,
    created_at timestamptz NOT NULL,
    FOREIGN KEY (community_id, case_id) REFERENCES moderation_cases (community_id, id) ON DELETE CASCADE,
    FOREIGN KEY (community_id, reporter_profile_id) REFERENCES profiles (community_id, id) ON DELETE CASCADE
  )`,
  `CREATE UNIQUE INDEX moderation_reports_once_idx
    ON moderation_reports (community_id, reporter_profile_id, subject_type, subject_id)`,
  `CREATE INDEX moderation_reports_case_idx ON moderation_reports (community_id, case_id)`,
  `CREATE TABLE moderation_log (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id) ON DELETE CASCADE,
    actor_profile_id uuid NOT NULL,
    action text NOT NULL,
    case_id uuid,
    subject_type text NOT NULL,
    subject_id uuid NOT NULL,
    note text,
    created_at timestamptz NOT NULL
  )`,
  `CREATE INDEX moderation_log_list_idx ON moderation_log (community_id, created_at DESC, id DESC)`
)
