import { type SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { databaseConnectFailure, type DatabaseOptions } from "@roda/core"
import { holdDataDir } from "@roda/core/node"
import { PgliteClient } from "@roda/sql-pglite"
import { Effect, Layer, type Redacted, String as Str } from "effect"

const names = { transformQueryNames: Str.camelToSnake, transformResultNames: Str.snakeToCamel }

/** PgClient's own timeout fails with a bare "Connection timed out": the same cause as the socket's. */
const causeOf = (error: { readonly cause?: unknown }) =>
  error.cause instanceof Error && !("code" in error.cause) && /timed out/i.test(error.cause.message)
    ? { code: "ETIMEDOUT" }
    : error.cause

/**
 * PostgreSQL, failing as the server does when it cannot connect: one line with the redacted target
 * and the cause (refused, unknown host, timeout, unknown database, authentication), not the driver's
 * "PgClient: Failed to connect" for all of them.
 */
const postgres = (url: Redacted.Redacted<string>) =>
  PgClient.layer({ url, ...names }).pipe(
    Layer.mapError((error) => new Error(databaseConnectFailure(url, causeOf(error))))
  )

/**
 * A client of the configured database WITHOUT applying migrations (core's `DatabaseLive` applies
 * them as it opens): `roda migrate` reads the state first, then applies them itself.
 */
export const rawDatabase = (options: DatabaseOptions): Layer.Layer<SqlClient.SqlClient> =>
  (options._tag === "Postgres"
    ? postgres(options.url)
    : options.dataDir === "memory"
    ? embedded(undefined)
    : Layer.unwrapScoped(Effect.as(holdDataDir(options.dataDir), embedded(options.dataDir)))).pipe(
      Layer.orDie
    ) as Layer.Layer<SqlClient.SqlClient>

/** PGlite in `dataDir` (held by this process, as core's database layer holds it) or in memory. */
const embedded = (dataDir: string | undefined) =>
  PgliteClient.layer({ ...(dataDir === undefined ? {} : { dataDir }), contrib: ["pg_trgm", "unaccent"], ...names })
