import { ddl } from "./ddl"

/**
 * Settings of the installation itself, one row per name, shared by every process on the database
 * (not a tenant table: no community). `public_base_url` is the URL the server runs with, recorded at
 * its start for the processes that serve nothing themselves (`platform/PublicUrl.ts`).
 */
export default ddl(
  `CREATE TABLE instance_settings (
    name text PRIMARY KEY,
    value text NOT NULL,
    updated_at timestamptz NOT NULL
  )`
)
