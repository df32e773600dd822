import { ddl } from "./ddl"

const TITLE = `roda_unaccent(lower(title))`

/** The large title tables of the search, and the rows the search reads. */
const TABLES = [
  { table: "content_posts", where: "WHERE deleted_at IS NULL" },
  { table: "lessons", where: "" },
  { table: "events", where: "WHERE deleted_at IS NULL" },
  { table: "courses", where: "" }
]

/**
 * Title search at the size of a real community (issue 58, `bench/scale`): a word most titles contain
 * (every post title of a community that writes "Artigo …") made the search read and rank every match,
 * 1 to 3.5 s, and anyone may search public content. A GIN index can only hand over all its matches at
 * once (a bitmap: 100-300 ms for a word in 400,000 titles before one row is read); a GiST trigram
 * index is read in index order and the search stops after a few candidates (search/Repo.ts), so the
 * GIN indexes of these tables are replaced by GiST ones. Their signature is 512 bytes: with the default
 * 12 bytes every inner page of 400,000 titles holds every trigram, so a word no title has walked the
 * whole index (27 ms against 0.2 ms). A B-tree in byte order (`COLLATE "C"`) per community hands over
 * the titles starting with the query, the best ranked, in order however many there are. A community has
 * few spaces: theirs are read by id, their GIN index stays.
 */
export default ddl(
  ...TABLES.flatMap(({ table, where }) => [
    `DROP INDEX ${table}_title_trgm_idx`,
    `CREATE INDEX ${table}_title_trgm_gist_idx ON ${table}
      USING gist (${TITLE} gist_trgm_ops (siglen = 512)) ${where}`,
    `CREATE INDEX ${table}_title_prefix_idx ON ${table} (community_id, (${TITLE}) COLLATE "C") ${where}`
  ])
)
