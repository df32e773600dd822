import { ddl } from "./ddl"

/** Each tag on live profiles in `rows`, signed: +1 for rows coming in, -1 for rows going out. */
const liveTags = (rows: "new_rows" | "old_rows", sign: 1 | -1) =>
  `SELECT r.community_id, t.tag, ${sign} AS delta FROM ${rows} r CROSS JOIN LATERAL unnest(r.tags) AS t(tag)
      WHERE r.removed_at IS NULL AND r.status = 'active' AND t.tag IS NOT NULL`

/**
 * Adds a statement's net change per (community, tag), in key order (statements lock count rows in one
 * order, after their profile rows, so transactions of one such statement never deadlock on them), then
 * deletes the counts that reached 0.
 * A count below 0 would mean the counts drifted: refused (not a CHECK, which would test the proposed
 * row, a negative change, before ON CONFLICT adds it).
 */
const applyDeltas = (deltas: string) =>
  `WITH applied AS (
      INSERT INTO profile_tag_counts AS c (community_id, tag, profiles)
      SELECT d.community_id, d.tag, sum(d.delta)::int FROM (${deltas}) d
      GROUP BY d.community_id, d.tag HAVING sum(d.delta) <> 0
      ORDER BY d.community_id, d.tag
      ON CONFLICT (community_id, tag) DO UPDATE SET profiles = c.profiles + EXCLUDED.profiles
      RETURNING c.community_id, c.tag, c.profiles
    )
    SELECT array_agg(community_id) FILTER (WHERE profiles = 0), array_agg(tag) FILTER (WHERE profiles = 0),
        coalesce(bool_or(profiles < 0), false)
      INTO emptied_communities, emptied_tags, below_zero FROM applied;
    IF below_zero THEN
      RAISE EXCEPTION 'profile_tag_counts went below zero' USING ERRCODE = 'check_violation';
    END IF;
    IF emptied_tags IS NOT NULL THEN
      DELETE FROM profile_tag_counts c USING unnest(emptied_communities, emptied_tags) AS e(community_id, tag)
        WHERE c.community_id = e.community_id AND c.tag = e.tag AND c.profiles = 0;
    END IF;`

/**
 * How many live profiles (not removed, `active`) of a community carry each tag (`GET /profiles/tags`),
 * kept exact by triggers on `profiles` in the statement that changes them, whatever code path it is
 * (tags set, renamed or removed; a member removed, banned, erased, accepted or added again): the list
 * reads a few rows instead of unnesting every tagged profile (50 ms for 10,000 at `bench/scale`). A
 * statement's changes are summed per tag first (a rename of 2,000 profiles changes two rows). A count
 * row is locked from the change to its commit, so parallel changes of one tag wait for each other and
 * add up. Existing profiles are counted here, after the triggers exist: creating them locks `profiles`
 * against writes until this migration commits. The partial indexes of 0058 served only that list.
 */
export default ddl(
  `CREATE TABLE profile_tag_counts (
    community_id uuid NOT NULL REFERENCES communities (id),
    tag text NOT NULL,
    profiles integer NOT NULL,
    PRIMARY KEY (community_id, tag)
  )`,
  `CREATE FUNCTION profile_tag_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    emptied_communities uuid[];
    emptied_tags text[];
    below_zero boolean;
  BEGIN
    IF TG_OP = 'INSERT' THEN
      ${applyDeltas(liveTags("new_rows", 1))}
    ELSIF TG_OP = 'UPDATE' THEN
      ${applyDeltas(`${liveTags("new_rows", 1)} UNION ALL ${liveTags("old_rows", -1)}`)}
    ELSIF TG_OP = 'DELETE' THEN
      ${applyDeltas(liveTags("old_rows", -1))}
    ELSE
      DELETE FROM profile_tag_counts;
    END IF;
    RETURN NULL;
  END
  $$`,
  `CREATE TRIGGER profiles_tag_counts_insert AFTER INSERT ON profiles
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION profile_tag_counts_track()`,
  `CREATE TRIGGER profiles_tag_counts_update AFTER UPDATE ON profiles
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
    EXECUTE FUNCTION profile_tag_counts_track()`,
  `CREATE TRIGGER profiles_tag_counts_delete AFTER DELETE ON profiles
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION profile_tag_counts_track()`,
  `CREATE TRIGGER profiles_tag_counts_truncate AFTER TRUNCATE ON profiles
    FOR EACH STATEMENT EXECUTE FUNCTION profile_tag_counts_track()`,
  `INSERT INTO profile_tag_counts (community_id, tag, profiles)
    SELECT p.community_id, t.tag, count(*)::int FROM profiles p CROSS JOIN LATERAL unnest(p.tags) AS t(tag)
    WHERE p.removed_at IS NULL AND p.status = 'active' AND t.tag IS NOT NULL
    GROUP BY p.community_id, t.tag`,
  `DROP INDEX profiles_tags_few_idx`,
  `DROP INDEX profiles_tags_many_idx`,
  `DROP STATISTICS profiles_tags_cardinality_stats`
)
