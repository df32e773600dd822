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
import type { SqlError } from "@effect/sql/SqlError"
import * as Statement from "@effect/sql/Statement"
import type { Extensions, PGlite } from "@electric-sql/pglite"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { identity } from "effect/Function"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { makeConnection } from "./internal/connection"
import { open } from "./internal/open"
import { makeSessionLock } from "./internal/sessionLock"

export { pgliteBuild, preload } from "./internal/open"

export interface PgliteClientConfig {
  /** A folder (created if missing); `undefined` or `"memory"` keeps the database in memory. */
  readonly dataDir?: string | undefined
  /** PGlite extensions to load, e.g. `{ pg_trgm }` from `@electric-sql/pglite/contrib/pg_trgm`. */
  readonly extensions?: Extensions | undefined
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
  readonly pglite: PGlite
  /** Passes a value as a json parameter, like `PgClient.json`. */
  readonly json: (value: unknown) => Statement.Fragment
}

export const PgliteClient = Context.GenericTag<PgliteClient>("@roda/sql-pglite/PgliteClient")

const json = Statement.custom<PgClient.PgCustom>("PgJson")

export const make = (
  config: PgliteClientConfig
): Effect.Effect<PgliteClient, SqlError, Scope.Scope | Reactivity.Reactivity> =>
  Effect.gen(function*() {
    const pglite = yield* open(config.dataDir, { extensions: config.extensions, loadDataDir: config.loadDataDir })

    // PGlite has a single session: a statement outside a transaction holds it
    // for its own duration, a transaction (or `reserve`) for its scope.
    const session = makeSessionLock()
    const shared = makeConnection(pglite, session.withSession)
    // Statements inside a transaction already hold the session.
    const reserved = makeConnection(pglite, identity)
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

    return Object.assign(client, { config, pglite, json })
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
