import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { unaccent } from "@electric-sql/pglite/contrib/unaccent"
import { PgliteClient } from "@roda/sql-pglite"
import { Effect, Layer, type Redacted, String as Str } from "effect"
import { migrate } from "./migrate"

/** Where the data lives: a PostgreSQL server, or the embedded PGlite (a folder, or memory). */
export type DatabaseOptions =
  | { readonly _tag: "Postgres"; readonly url: Redacted.Redacted<string> }
  | { readonly _tag: "Embedded"; readonly dataDir: string | "memory" }

const names = { transformQueryNames: Str.camelToSnake, transformResultNames: Str.snakeToCamel }

/** The SqlClient for the chosen database, with every migration applied. */
export const DatabaseLive = (options: DatabaseOptions): Layer.Layer<SqlClient.SqlClient> => {
  const client = options._tag === "Postgres"
    ? PgClient.layer({ url: options.url, ...names })
    : PgliteClient.layer({
      dataDir: options.dataDir === "memory" ? undefined : options.dataDir,
      extensions: { pg_trgm, unaccent },
      ...names
    })
  return Layer.effectDiscard(migrate).pipe(
    Layer.provideMerge(client),
    Layer.orDie
  ) as Layer.Layer<SqlClient.SqlClient>
}

/** Reads the database is reachable (readiness probe). */
export const ping = Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT 1`).pipe(Effect.asVoid)
