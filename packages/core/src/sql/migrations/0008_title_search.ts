import { ddl } from "./ddl"

/**
 * Title search (spaces, courses, lessons, events, content posts) and the feed's course order.
 * `roda_unaccent` is `unaccent` with its dictionary fixed, so it is IMMUTABLE and may appear in an
 * index expression; every searched title is indexed as `roda_unaccent(lower(title))` with trigrams,
 * which serves `LIKE '%…%'` and word similarity (`<%`). The same on PostgreSQL and PGlite.
 */
export default ddl(
  `CREATE EXTENSION IF NOT EXISTS unaccent`,
  `CREATE OR REPLACE FUNCTION roda_unaccent(text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$`,
  `CREATE INDEX spaces_title_trgm_idx ON spaces USING gin (roda_unaccent(lower(title)) gin_trgm_ops)`,
  `CREATE INDEX courses_title_trgm_idx ON courses USING gin (roda_unaccent(lower(title)) gin_trgm_ops)`,
  `CREATE INDEX lessons_title_trgm_idx ON lessons USING gin (roda_unaccent(lower(title)) gin_trgm_ops)`,
  `CREATE INDEX events_title_trgm_idx ON events USING gin (roda_unaccent(lower(title)) gin_trgm_ops)`,
  `CREATE INDEX content_posts_title_trgm_idx ON content_posts USING gin (roda_unaccent(lower(title)) gin_trgm_ops)
    WHERE deleted_at IS NULL`,
  `CREATE INDEX courses_feed_idx ON courses (community_id, published_at DESC, id DESC) WHERE status = 'published'`
)
