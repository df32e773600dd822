/**
 * An `@effect/sql` client for PGlite, the embedded PostgreSQL.
 *
 * Values come back as PGlite parses them: json/jsonb parsed, timestamp and
 * timestamptz as `Date`, numeric as `string`, and int8/bigint (including
 * `count(*)`) as `number` when it is a safe integer, `bigint` otherwise.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import * as Statement from "@effect/sql/Statement"
import type { Extensions } from "@electric-sql/pglite"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { makeConnection, statementFailed } from "./internal/connection"
import { open } from "./internal/open"
import { makeSessionLock } from "./internal/sessionLock"

export { pgliteBuild, preload } from "./internal/runtime"

export interface PgliteClientConfig {
  /** A folder (created if missing); `undefined` or `"memory"` keeps the database in memory. */
  readonly dataDir?: string | undefined
  /** PGlite extensions to load, e.g. `{ pg_trgm }` from `@electric-sql/pglite/contrib/pg_trgm` (main thread only). */
  readonly extensions?: Extensions | undefined
  /** PGlite's contrib extensions by name, e.g. `["pg_trgm", "unaccent"]`; on either thread. */
  readonly contrib?: ReadonlyArray<string> | undefined
  /**
   * Where PostgreSQL runs: on this thread (the default), or in a worker thread of its own, so that a
   * server's requests and the database use two cores. Statements and answers then cross as messages.
   */
  readonly thread?: "main" | "worker" | undefined
  /**
   * A data directory to start from, as `pglite.dumpDataDir("none")` gave it (a template: a database
   * with its migrations applied, say). Only for a new database.
   */
  readonly loadDataDir?: Blob | undefined
  readonly transformResultNames?: (s: string) => string
  readonly transformQueryNames?: (s: string) => string
}

export interface PgliteClient extends SqlClient.SqlClient {
  readonly config: PgliteClientConfig
  /** The data directory as an uncompressed tar, to start another database from (`loadDataDir`). */
  readonly dumpDataDir: Effect.Effect<Blob, SqlError>
  /** Passes a value as a json parameter, like `PgClient.json`. */
  readonly json: (value: unknown) => Statement.Fragment
}

export const PgliteClient = Context.GenericTag<PgliteClient>("@roda/sql-pglite/PgliteClient")

const json = Statement.custom<PgClient.PgCustom>("PgJson")

export const make = (
  config: PgliteClientConfig
): Effect.Effect<PgliteClient, SqlError, Scope.Scope | Reactivity.Reactivity> =>
  Effect.gen(function*() {
    const engine = yield* open(config.dataDir, config)

    // PGlite has a single session: a transaction (or `reserve`) holds it for its scope; a statement
    // outside one is handed to the engine, which runs statements in the order given, when no
    // transaction holds the session or waits ahead of it.
    const session = makeSessionLock()
    const shared = makeConnection(engine, (begin) => session.start(begin, statementFailed))
    // Statements inside a transaction already hold the session.
    const reserved = makeConnection(engine, (begin) => Effect.tryPromise({ try: begin, catch: statementFailed }))
    const reserve = Effect.uninterruptibleMask((restore) =>
      session.acquire(restore).pipe(
        Effect.zipRight(Effect.addFinalizer(() => session.release)),
        Effect.as(reserved)
      )
    )

    const client = yield* SqlClient.make({
      acquirer: Effect.succeed(shared),
      transactionAcquirer: reserve,
      compiler: PgClient.makeCompiler(config.transformQueryNames),
      spanAttributes: [["db.system.name", "postgresql"]],
      transformRows: config.transformResultNames
        ? Statement.defaultTransforms(config.transformResultNames).array
        : undefined
    })

    const dumpDataDir = session.withSession(Effect.tryPromise({
      try: () => engine.dumpDataDir(),
      catch: (cause) => new SqlError({ cause, message: "PgliteClient: failed to dump the data directory" })
    }))
    return Object.assign(client, { config, dumpDataDir, json })
  })

export const layer = (
  config: PgliteClientConfig
): Layer.Layer<PgliteClient | SqlClient.SqlClient, SqlError> =>
  Layer.scopedContext(
    Effect.map(make(config), (client) =>
      Context.make(PgliteClient, client).pipe(
        Context.add(SqlClient.SqlClient, client)
      ))
  ).pipe(Layer.provide(Reactivity.layer))
