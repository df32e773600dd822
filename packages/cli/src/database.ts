import { type SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { unaccent } from "@electric-sql/pglite/contrib/unaccent"
import type { DatabaseOptions } from "@roda/core"
import { PgliteClient } from "@roda/sql-pglite"
import { Layer, String as Str } from "effect"

const names = { transformQueryNames: Str.camelToSnake, transformResultNames: Str.snakeToCamel }

/**
 * A client of the configured database WITHOUT applying migrations (core's `DatabaseLive` applies
 * them as it opens): `roda migrate` reads the state first, then applies them itself.
 */
export const rawDatabase = (options: DatabaseOptions): Layer.Layer<SqlClient.SqlClient> =>
  (options._tag === "Postgres"
    ? PgClient.layer({ url: options.url, ...names })
    : PgliteClient.layer({
      ...(options.dataDir === "memory" ? {} : { dataDir: options.dataDir }),
      extensions: { pg_trgm, unaccent },
      ...names
    })).pipe(Layer.orDie) as Layer.Layer<SqlClient.SqlClient>
