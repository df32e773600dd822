import { ddl } from "./ddl"

/**
 * The events report leaves out hidden events (moderation): found from this index, the few hidden ones
 * of a community, instead of reading all of its events (20,000 at `bench/scale`) to find them.
 */
export default ddl(
  `CREATE INDEX events_hidden_idx ON events (community_id, id) WHERE hidden_at IS NOT NULL`
)
