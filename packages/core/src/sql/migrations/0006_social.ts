import { ddl } from "./ddl"

/**
 * Status posts, content posts, and what people do to any feed item: comments, reactions, pins and
 * mentions. `item_type` names the item's table: status, content, course, event (and comment for
 * reactions on comments).
 */
export default ddl(
  `CREATE TABLE status_posts (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id),
    author_profile_id uuid NOT NULL,
    body text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    FOREIGN KEY (community_id, author_profile_id) REFERENCES profiles (community_id, id)
  )`,
  `CREATE UNIQUE INDEX status_posts_community_id_key ON status_posts (community_id, id)`,
  `CREATE INDEX status_posts_feed_idx ON status_posts (community_id, created_at DESC, id DESC) WHERE deleted_at IS NULL`,
  `CREATE TABLE content_posts (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id),
    space_id uuid NOT NULL,
    author_profile_id uuid NOT NULL,
    title text NOT NULL,
    body text NOT NULL,
    attachments jsonb NOT NULL DEFAULT '[]'::jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    FOREIGN KEY (community_id, space_id) REFERENCES spaces (community_id, id),
    FOREIGN KEY (community_id, author_profile_id) REFERENCES profiles (community_id, id)
  )`,
  `CREATE UNIQUE INDEX content_posts_community_id_key ON content_posts (community_id, id)`,
  `CREATE INDEX content_posts_feed_idx ON content_posts (community_id, created_at DESC, id DESC) WHERE deleted_at IS NULL`,
  `CREATE INDEX content_posts_space_idx ON content_posts (community_id, space_id, created_at DESC, id DESC)
    WHERE deleted_at IS NULL`,
  `CREATE TABLE comments (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id),
    item_type text NOT NULL CHECK (item_type IN ('status', 'content', 'course', 'event')),
    item_id uuid NOT NULL,
    parent_id uuid,
    author_profile_id uuid NOT NULL,
    body text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    FOREIGN KEY (community_id, author_profile_id) REFERENCES profiles (community_id, id)
  )`,
  `CREATE UNIQUE INDEX comments_community_id_key ON comments (community_id, id)`,
  `CREATE INDEX comments_item_idx ON comments (community_id, item_type, item_id, id) WHERE deleted_at IS NULL`,
  `CREATE INDEX comments_recent_idx ON comments (community_id, created_at) WHERE deleted_at IS NULL`,
  `CREATE TABLE reactions (
    community_id uuid NOT NULL REFERENCES communities (id),
    item_type text NOT NULL CHECK (item_type IN ('status', 'content', 'course', 'event', 'comment')),
    item_id uuid NOT NULL,
    profile_id uuid NOT NULL,
    type text NOT NULL CHECK (type IN ('like', 'love', 'celebrate', 'insightful', 'funny')),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (community_id, item_type, item_id, profile_id),
    FOREIGN KEY (community_id, profile_id) REFERENCES profiles (community_id, id)
  )`,
  `CREATE INDEX reactions_recent_idx ON reactions (community_id, created_at)`,
  `CREATE INDEX reactions_profile_idx ON reactions (community_id, profile_id)`,
  `CREATE TABLE pins (
    community_id uuid NOT NULL REFERENCES communities (id),
    item_type text NOT NULL CHECK (item_type IN ('status', 'content', 'course', 'event')),
    item_id uuid NOT NULL,
    pinned_by uuid NOT NULL,
    pinned_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (community_id, item_type, item_id)
  )`,
  `CREATE TABLE mentions (
    community_id uuid NOT NULL REFERENCES communities (id),
    item_type text NOT NULL CHECK (item_type IN ('status', 'content', 'comment')),
    item_id uuid NOT NULL,
    profile_id uuid NOT NULL,
    PRIMARY KEY (community_id, item_type, item_id, profile_id),
    FOREIGN KEY (community_id, profile_id) REFERENCES profiles (community_id, id)
  )`,
  `CREATE INDEX mentions_profile_idx ON mentions (community_id, profile_id)`
)
