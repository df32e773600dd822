import { ddl } from "./ddl"

/**
 * Events and their participants. An event lives in a space of its community (composite foreign key);
 * removal is soft (`deleted_at`), so a removed event's slug is free again (partial unique index) and
 * participants' rows stay. `events_created_idx` serves the feed's newest-first reads. Participants are
 * one row per (event, profile) whose `status` moves between going, waitlisted and cancelled; the
 * waitlist is served in `(joined_at, join_seq)` order (`join_seq` is taken from a sequence under the
 * event's row lock, so ties in time keep the order in which people asked).
 */
export default ddl(
  `CREATE TABLE events (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id),
    space_id uuid NOT NULL,
    host_profile_id uuid NOT NULL,
    title text NOT NULL,
    slug text NOT NULL,
    description text,
    type text NOT NULL CHECK (type IN ('online', 'in_person')),
    start_time timestamptz NOT NULL,
    end_time timestamptz NOT NULL,
    timezone text,
    capacity integer CHECK (capacity >= 1),
    category_id text,
    join_url text,
    street text,
    number text,
    complement text,
    neighbourhood text,
    city text,
    state text,
    postal_code text,
    country text,
    stream_status text NOT NULL DEFAULT 'idle' CHECK (stream_status IN ('idle', 'live', 'ended')),
    stream_started_at timestamptz,
    stream_ended_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CHECK (start_time < end_time),
    FOREIGN KEY (community_id, space_id) REFERENCES spaces (community_id, id),
    FOREIGN KEY (community_id, host_profile_id) REFERENCES profiles (community_id, id)
  )`,
  `CREATE UNIQUE INDEX events_community_id_key ON events (community_id, id)`,
  `CREATE UNIQUE INDEX events_community_slug_key ON events (community_id, slug) WHERE deleted_at IS NULL`,
  `CREATE INDEX events_created_idx ON events (community_id, created_at DESC, id DESC)`,
  `CREATE INDEX events_start_idx ON events (community_id, start_time, id) WHERE deleted_at IS NULL`,
  `CREATE INDEX events_space_idx ON events (community_id, space_id, start_time, id)`,
  `CREATE SEQUENCE event_participants_join_seq AS bigint`,
  `CREATE TABLE event_participants (
    community_id uuid NOT NULL,
    event_id uuid NOT NULL,
    profile_id uuid NOT NULL,
    status text NOT NULL CHECK (status IN ('going', 'waitlisted', 'cancelled')),
    checked_in_at timestamptz,
    joined_at timestamptz NOT NULL,
    join_seq bigint NOT NULL DEFAULT nextval('event_participants_join_seq'),
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (community_id, event_id, profile_id),
    FOREIGN KEY (community_id, event_id) REFERENCES events (community_id, id) ON DELETE CASCADE,
    FOREIGN KEY (community_id, profile_id) REFERENCES profiles (community_id, id)
  )`,
  `CREATE INDEX event_participants_order_idx
    ON event_participants (community_id, event_id, status, joined_at, join_seq)`,
  `CREATE INDEX event_participants_list_idx ON event_participants (community_id, event_id, joined_at, join_seq)`,
  `CREATE INDEX event_participants_profile_idx ON event_participants (community_id, profile_id)`
)
