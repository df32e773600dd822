import { ddl } from "./ddl"

/** Trigram indexes: substring and word-prefix search on names and e-mails stays indexed. */
export default ddl(
  `CREATE EXTENSION IF NOT EXISTS pg_trgm`,
  `CREATE INDEX profiles_full_name_trgm_idx ON profiles USING gin (full_name gin_trgm_ops)`,
  `CREATE INDEX accounts_email_trgm_idx ON accounts USING gin (email gin_trgm_ops)`
)
