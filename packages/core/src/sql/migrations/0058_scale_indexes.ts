import { ddl } from "./ddl"

const TITLE_AND_NAME_SEARCHES = [
  "content_posts_title_trgm_idx",
  "lessons_title_trgm_idx",
  "events_title_trgm_idx",
  "courses_title_trgm_idx",
  "spaces_title_trgm_idx",
  "profiles_full_name_trgm_idx",
  "accounts_email_trgm_idx"
]

/**
 * Lists and lookups measured at the size of a real community (issue 58, `bench/scale`); each change
 * here served one that sorted or scanned tens of thousands of rows there.
 * - `certificates_community_idx`: the staff's certificate list, in (created_at, id) order (50,000
 *   certificates were sorted for each page).
 * - `profiles_member_name_idx`: autocomplete walks a community's active members in the answer's order
 *   and stops after the limit (100,000 profiles were sorted); `accounts_email_prefix_idx`: the staff's
 *   e-mail prefix (a B-tree on `lower(email)` serves `LIKE 'prefix%'` only with `text_pattern_ops`
 *   outside the C collation).
 * - `profiles_active_joined_idx`: the members report's running total, from the index alone.
 * - `profiles_tags_*`: the tag counts read only tagged profiles, from the index (a tenth of members;
 *   at most 10 tags in the covering one, so an entry stays within a B-tree page; the rest apart), and
 *   the planner knows how many have many tags.
 * - The trigram indexes of the searches keep no pending list (`fastupdate = off`): with it, every search
 *   read through up to 4 MB of recent, unsorted entries per index (40 ms for a word no lesson has);
 *   an insert now updates the index at once, a few short titles.
 */
export default ddl(
  `CREATE INDEX certificates_community_idx ON certificates (community_id, created_at, id)`,
  `CREATE INDEX profiles_member_name_idx ON profiles (community_id, full_name, id)
    WHERE removed_at IS NULL AND status = 'active'`,
  `CREATE INDEX profiles_active_joined_idx ON profiles (community_id, created_at) WHERE status = 'active'`,
  `CREATE INDEX accounts_email_prefix_idx ON accounts (lower(email) text_pattern_ops)`,
  `CREATE INDEX profiles_tags_few_idx ON profiles (community_id) INCLUDE (tags)
    WHERE cardinality(tags) BETWEEN 1 AND 10 AND removed_at IS NULL AND status = 'active'`,
  `CREATE INDEX profiles_tags_many_idx ON profiles (community_id)
    WHERE cardinality(tags) > 10 AND removed_at IS NULL AND status = 'active'`,
  `CREATE STATISTICS profiles_tags_cardinality_stats ON (cardinality(tags)) FROM profiles`,
  ...TITLE_AND_NAME_SEARCHES.flatMap((index) => [
    `ALTER INDEX ${index} SET (fastupdate = off)`,
    `SELECT gin_clean_pending_list('${index}'::regclass)`
  ])
)
