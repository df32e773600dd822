import { ddl } from "./ddl"

/**
 * Calls for papers, first half (issue 14): the configuration of a call4papers space, calls (soft
 * delete: `deleted_at`, so a removed call's slug is free again), their tracks (soft delete, so
 * submissions keep the track they were filed under), event dates (the days of the event), owners and
 * track reviewers. Owners and reviewers are invitations whose `status` moves `pending -> accepted |
 * declined`; an accepted owner has organiser rights on that call, an accepted reviewer reviews the
 * submissions of that track. Every table carries `community_id` and is reached by it first.
 */
export default ddl(
  `CREATE TABLE call4papers_spaces (
    community_id uuid NOT NULL REFERENCES communities (id),
    space_id uuid NOT NULL,
    mode text NOT NULL DEFAULT 'organisers' CHECK (mode IN ('organisers', 'members')),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (community_id, space_id),
    FOREIGN KEY (community_id, space_id) REFERENCES spaces (community_id, id)
  )`,
  `CREATE TABLE call4papers_calls (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id),
    space_id uuid NOT NULL,
    title text NOT NULL,
    slug text NOT NULL,
    description text,
    status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'closed')),
    opens_at timestamptz,
    closes_at timestamptz,
    community_voting boolean NOT NULL DEFAULT false,
    anonymous_reviews boolean NOT NULL DEFAULT false,
    created_by_profile_id uuid NOT NULL,
    published_at timestamptz,
    closed_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CHECK (opens_at IS NULL OR closes_at IS NULL OR opens_at < closes_at),
    FOREIGN KEY (community_id, space_id) REFERENCES spaces (community_id, id),
    FOREIGN KEY (community_id, created_by_profile_id) REFERENCES profiles (community_id, id)
  )`,
  `CREATE UNIQUE INDEX call4papers_calls_community_id_key ON call4papers_calls (community_id, id)`,
  `CREATE UNIQUE INDEX call4papers_calls_space_slug_key ON call4papers_calls (community_id, space_id, slug)
    WHERE deleted_at IS NULL`,
  `CREATE INDEX call4papers_calls_space_idx ON call4papers_calls (community_id, space_id, created_at DESC, id DESC)
    WHERE deleted_at IS NULL`,
  `CREATE TABLE call4papers_tracks (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL,
    call_id uuid NOT NULL,
    name text NOT NULL,
    description text,
    color text,
    position integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    FOREIGN KEY (community_id, call_id) REFERENCES call4papers_calls (community_id, id)
  )`,
  `CREATE UNIQUE INDEX call4papers_tracks_community_id_key ON call4papers_tracks (community_id, id)`,
  `CREATE UNIQUE INDEX call4papers_tracks_name_key ON call4papers_tracks (community_id, call_id, lower(name))
    WHERE deleted_at IS NULL`,
  `CREATE INDEX call4papers_tracks_call_idx ON call4papers_tracks (community_id, call_id, position, id)
    WHERE deleted_at IS NULL`,
  `CREATE TABLE call4papers_event_dates (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL,
    call_id uuid NOT NULL,
    date date NOT NULL,
    label text,
    start_time time,
    end_time time,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK (start_time IS NULL OR end_time IS NULL OR start_time < end_time),
    FOREIGN KEY (community_id, call_id) REFERENCES call4papers_calls (community_id, id)
  )`,
  `CREATE UNIQUE INDEX call4papers_event_dates_day_key ON call4papers_event_dates (community_id, call_id, date)`,
  `CREATE TABLE call4papers_owners (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL,
    call_id uuid NOT NULL,
    profile_id uuid NOT NULL,
    status text NOT NULL CHECK (status IN ('pending', 'accepted', 'declined')),
    invited_by_profile_id uuid,
    invited_at timestamptz NOT NULL,
    responded_at timestamptz,
    FOREIGN KEY (community_id, call_id) REFERENCES call4papers_calls (community_id, id),
    FOREIGN KEY (community_id, profile_id) REFERENCES profiles (community_id, id)
  )`,
  `CREATE UNIQUE INDEX call4papers_owners_profile_key ON call4papers_owners (community_id, call_id, profile_id)`,
  `CREATE INDEX call4papers_owners_call_idx ON call4papers_owners (community_id, call_id, invited_at, id)`,
  `CREATE INDEX call4papers_owners_invitee_idx ON call4papers_owners (community_id, profile_id, status, invited_at, id)`,
  `CREATE TABLE call4papers_track_reviewers (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL,
    call_id uuid NOT NULL,
    track_id uuid NOT NULL,
    profile_id uuid NOT NULL,
    status text NOT NULL CHECK (status IN ('pending', 'accepted', 'declined')),
    invited_by_profile_id uuid,
    invited_at timestamptz NOT NULL,
    responded_at timestamptz,
    FOREIGN KEY (community_id, call_id) REFERENCES call4papers_calls (community_id, id),
    FOREIGN KEY (community_id, track_id) REFERENCES call4papers_tracks (community_id, id),
    FOREIGN KEY (community_id, profile_id) REFERENCES profiles (community_id, id)
  )`,
  `CREATE UNIQUE INDEX call4papers_track_reviewers_profile_key
    ON call4papers_track_reviewers (community_id, track_id, profile_id)`,
  `CREATE INDEX call4papers_track_reviewers_track_idx
    ON call4papers_track_reviewers (community_id, track_id, invited_at, id)`,
  `CREATE INDEX call4papers_track_reviewers_call_profile_idx
    ON call4papers_track_reviewers (community_id, call_id, profile_id, status)`,
  `CREATE INDEX call4papers_track_reviewers_invitee_idx
    ON call4papers_track_reviewers (community_id, profile_id, status, invited_at, id)`
)
