import { ddl } from "./ddl"

/**
 * Notifications (platform.md "Notifications"): each member's inbox per community, read newest first
 * by keyset (`notifications_inbox_idx`), its unread part counted and listed from a partial index;
 * `once_key` makes a notification unique per recipient and kind where a producer names one (a fan-out
 * job that runs again writes nothing twice). A member's preferences per kind (only what differs from
 * the defaults is stored), and the spaces each member follows.
 */
export default ddl(
  `CREATE TABLE notifications (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id) ON DELETE CASCADE,
    recipient_profile_id uuid NOT NULL,
    kind text NOT NULL,
    actor_profile_id uuid,
    subject_type text NOT NULL,
    subject_id uuid NOT NULL,
    subject_title text NOT NULL,
    once_key text,
    created_at timestamptz NOT NULL,
    read_at timestamptz,
    FOREIGN KEY (community_id, recipient_profile_id) REFERENCES profiles (community_id, id) ON DELETE CASCADE
  )`,
  `CREATE INDEX notifications_inbox_idx
    ON notifications (community_id, recipient_profile_id, created_at DESC, id DESC)`,
  `CREATE INDEX notifications_unread_idx
    ON notifications (community_id, recipient_profile_id, created_at DESC, id DESC) WHERE read_at IS NULL`,
  `CREATE UNIQUE INDEX notifications_once_idx
    ON notifications (community_id, recipient_profile_id, kind, once_key) WHERE once_key IS NOT NULL`,
  `CREATE TABLE notification_preferences (
    community_id uuid NOT NULL,
    profile_id uuid NOT NULL,
    kind text NOT NULL,
    in_app boolean NOT NULL,
    email text NOT NULL CHECK (email IN ('off', 'instant', 'daily', 'weekly')),
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (community_id, profile_id, kind),
    FOREIGN KEY (community_id, profile_id) REFERENCES profiles (community_id, id) ON DELETE CASCADE
  )`,
  `CREATE TABLE space_follows (
    community_id uuid NOT NULL,
    space_id uuid NOT NULL,
    profile_id uuid NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (community_id, space_id, profile_id),
    FOREIGN KEY (community_id, space_id) REFERENCES spaces (community_id, id) ON DELETE CASCADE,
    FOREIGN KEY (community_id, profile_id) REFERENCES profiles (community_id, id) ON DELETE CASCADE
  )`,
  `CREATE INDEX space_follows_profile_idx ON space_follows (community_id, profile_id)`
)
