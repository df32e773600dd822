import { ddl } from "./ddl"

/**
 * Notification e-mails (platform.md "Notifications", issue 55 item 1). A notification is written for
 * a member who wants it in the app or by e-mail: `in_app` false keeps it out of the inbox (an e-mail
 * only); `email_due` is the cadence it still waits for (`instant`, `daily`, `weekly`), null once
 * e-mailed, read in the app, or never wanted by e-mail. The partial index is the e-mail jobs' queue.
 * The outbox keeps an e-mail's extra headers (`List-Unsubscribe`, RFC 8058). Notifications are
 * found by subject, and by the item that caused them (`source_id`), for moderation to withdraw them.
 */
export default ddl(
  `ALTER TABLE notifications ADD COLUMN in_app boolean NOT NULL DEFAULT true`,
  `ALTER TABLE notifications ADD COLUMN email_due text CHECK (email_due IN ('instant', 'daily', 'weekly'))`,
  `CREATE INDEX notifications_email_due_idx
    ON notifications (community_id, email_due, recipient_profile_id, created_at) WHERE email_due IS NOT NULL`,
  `ALTER TABLE outbox ADD COLUMN headers jsonb`,
  // what a subject's notifications are: a space's follower already told of a post (a mention) is skipped
  `CREATE INDEX notifications_subject_idx ON notifications (community_id, subject_id, recipient_profile_id)`,
  // the item that caused a notification about another (a comment's mention or reply in a post): moderation
  // hiding or removing it withdraws its notifications
  `ALTER TABLE notifications ADD COLUMN source_id uuid`,
  `CREATE INDEX notifications_source_idx ON notifications (community_id, source_id) WHERE source_id IS NOT NULL`
)
