import { ddl } from "./ddl"

/**
 * Whether a new post or comment waits for approval (social/held.ts `heldWhen`), as one function the
 * posting statements call. Written inline, the check put the author's posts, content and comments
 * (three index scans, planned twice) into every posting statement's plan: PostgreSQL opens every
 * table and index of a plan when it starts it, whether or not the community holds anything, and the
 * post's statement took 4x the database time it took without the check (`POST /api/status`, 1.05 against
 * 0.27 ms; issue 53's bench). PL/pgSQL plans the counting once per connection and runs it only when
 * the community holds first posts.
 */
export default ddl(
  `CREATE FUNCTION social_held(community uuid, author uuid, words text) RETURNS boolean
    LANGUAGE plpgsql STABLE AS $$
    DECLARE
      s record;
    BEGIN
      SELECT m.hold_first_posts, m.blocked_words INTO s FROM community_moderation m WHERE m.id = community;
      IF NOT FOUND THEN
        RETURN false;
      END IF;
      IF s.blocked_words <> '[]'::jsonb AND EXISTS (
        SELECT 1 FROM jsonb_array_elements_text(s.blocked_words) w
        WHERE w.value = ANY (string_to_array(words, ' '))
      ) THEN
        RETURN true;
      END IF;
      IF s.hold_first_posts <= 0 THEN
        RETURN false;
      END IF;
      RETURN s.hold_first_posts > (SELECT count(*) FROM (
        SELECT 1 FROM status_posts WHERE community_id = community AND author_profile_id = author AND held_at IS NULL
        UNION ALL
        SELECT 1 FROM content_posts WHERE community_id = community AND author_profile_id = author AND held_at IS NULL
        UNION ALL
        SELECT 1 FROM comments WHERE community_id = community AND author_profile_id = author AND held_at IS NULL
        LIMIT 20) n);
    END $$`
)
