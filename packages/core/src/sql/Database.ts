import { SqlClient } from "@effect/sql"
import { Effect, type Redacted } from "effect"

/**
 * Where the data lives: a PostgreSQL server, or the embedded PGlite (a folder, or memory). Core
 * only carries it to the platform (`RodaPlatform.database`), which opens it.
 */
export type DatabaseOptions =
  | {
    readonly _tag: "Postgres"
    readonly url: Redacted.Redacted<string>
    /**
     * PostgreSQL's `statement_timeout` on every connection of the pool, in milliseconds (default
     * `DEFAULT_STATEMENT_TIMEOUT_MS`; 0 is none): no statement holds a connection longer. Migrations
     * are exempt (`withoutStatementTimeout`).
     */
    readonly statementTimeoutMs?: number | undefined
    /** The most connections the pool opens (`PGPOOL_MAX`; node-postgres' 10 when absent). */
    readonly poolMax?: number | undefined
  }
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

/** The `statement_timeout` of PostgreSQL connections unless configured (`DATABASE_STATEMENT_TIMEOUT_MS`). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000

/**
 * Runs `effect` in a transaction with no `statement_timeout` (`SET LOCAL`, so the connection goes
 * back to the pool with its own): for work that legitimately runs long, such as migrations.
 */
export const withoutStatementTimeout = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql.withTransaction(Effect.zipRight(sql`SET LOCAL statement_timeout = 0`, effect))
  )

/** Reads the database is reachable (readiness probe). */
export const ping = Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT 1`).pipe(Effect.asVoid)
