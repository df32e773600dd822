import { ddl } from "./ddl"

/**
 * Held content (platform.md "Moderation", issue 56): a post or comment written while the community's
 * `moderation` settings hold it (a new member's first `holdFirstPosts`, or a blocked word) waits for
 * approval. `held_at` marks it; it is written with `hidden_at` equal to `held_at`, so every read that
 * leaves out hidden content (feed, search, counts, notifications) leaves it out too, and its author and
 * staff still read it. Approval clears both (`hidden_at` only when a moderator did not hide it since);
 * rejection sets `deleted_at` and keeps `held_at` for the log. `community_moderation` publishes the
 * settings to the posting statements (normalized blocked words: see domain/words.ts).
 */
export default ddl(
  `ALTER TABLE status_posts ADD COLUMN held_at timestamptz`,
  `ALTER TABLE content_posts ADD COLUMN held_at timestamptz`,
  `ALTER TABLE comments ADD COLUMN held_at timestamptz`,
  `CREATE INDEX status_posts_held_idx ON status_posts (community_id, held_at DESC, id DESC)
    WHERE held_at IS NOT NULL AND deleted_at IS NULL`,
  `CREATE INDEX content_posts_held_idx ON content_posts (community_id, held_at DESC, id DESC)
    WHERE held_at IS NOT NULL AND deleted_at IS NULL`,
  `CREATE INDEX comments_held_idx ON comments (community_id, held_at DESC, id DESC)
    WHERE held_at IS NOT NULL AND deleted_at IS NULL`,
  `CREATE VIEW community_moderation AS
    SELECT id, coalesce((settings->'moderation'->>'holdFirstPosts')::int, 0) AS hold_first_posts,
      coalesce(settings->'moderation'->'blockedWords', '[]'::jsonb) AS blocked_words
    FROM communities`
)
