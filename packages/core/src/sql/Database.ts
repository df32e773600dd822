import { SqlClient } from "@effect/sql"
import { Effect, type Redacted } from "effect"

/**
 * Where the data lives: a PostgreSQL server, or the embedded PGlite (a folder, or memory). Core
 * only carries it to the platform (`RodaPlatform.database`), which opens it.
 */
export type DatabaseOptions =
  | { readonly _tag: "Postgres"; readonly url: Redacted.Redacted<string> }
  | {
    readonly _tag: "Embedded"
    readonly dataDir: string | "memory"
    /**
     * A folder where the migrated template is kept between processes (the test suites pass one):
     * in-memory databases and new data folders start from it. Without it, each process makes its
     * template once, and a new folder uses the template shipped with the built package, if any.
     */
    readonly snapshotDir?: string | undefined
  }

/** Reads the database is reachable (readiness probe). */
export const ping = Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT 1`).pipe(Effect.asVoid)
