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
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Runtime from "effect/Runtime"
import type * as Scope from "effect/Scope"
import { makeConnection, statementFailed } from "./internal/connection"
import { type Engine, later } from "./internal/engine"
import { open } from "./internal/open"
import { makeSessionLock, type SessionLock } from "./internal/sessionLock"

export { pgliteBuild, preload } from "./internal/runtime"
export { prestart } from "./prestart"

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
   * A data directory to start from, as `dumpDataDir` gave it (a template: a database with its
   * migrations applied, say). Only for a new database.
   */
  readonly loadDataDir?: Blob | undefined
  /**
   * A tar file of a data folder to start a new `dataDir` folder from (missing or empty): unpacked with
   * native file writes, beside the folder and renamed into place. Much faster than `loadDataDir`.
   */
  readonly unpackFrom?: string | undefined
  /**
   * Run first, on a client of its own (migrations, say). The client is then ready at once, while
   * PostgreSQL opens and `prepare` runs in the background; its statements and transactions wait
   * until `prepare` has succeeded, and fail with its error (or the open's) if it failed.
   */
  readonly prepare?: Effect.Effect<void, unknown, SqlClient.SqlClient> | undefined
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

/**
 * A statement of a transaction whose engine died meanwhile: its session (and the transaction) went
 * with it. A lost connection (SQLSTATE 57P02, crash_shutdown): never run outside the transaction.
 */
const transactionLost = new SqlError({
  cause: Object.assign(new Error("the database restarted: the transaction was lost"), { code: "57P02" }),
  message: "PgliteClient: the database restarted during the transaction"
})

/** A client over `engine`'s single session, guarded by `session` (see `sessionLock.ts`). */
const clientOver = (
  engine: Engine,
  session: SessionLock,
  config: PgliteClientConfig,
  failure: () => SqlError | undefined
) => {
  // A statement outside a transaction is handed to the engine, which runs statements in the order
  // given, when no transaction holds the session or waits ahead of it.
  const shared = makeConnection(engine, (begin) =>
    session.start(() => {
      const failed = failure()
      return failed === undefined ? begin() : Promise.reject(failed)
    }, statementFailed))
  // A transaction (or `reserve`) holds the session for its scope; its statements go straight in,
  // as long as the engine is the one it began on.
  const reservedOn = (generation: number) =>
    makeConnection(engine, (begin) =>
      engine.generation() === generation
        ? Effect.tryPromise({ try: begin, catch: statementFailed })
        : Effect.fail(transactionLost))
  const reserve = Effect.uninterruptibleMask((restore) =>
    session.acquire(restore).pipe(
      Effect.zipRight(Effect.addFinalizer(() => session.release)),
      Effect.zipRight(Effect.suspend(() => {
        const failed = failure()
        return failed === undefined ? Effect.succeed(reservedOn(engine.generation())) : Effect.fail(failed)
      }))
    )
  )
  return SqlClient.make({
    acquirer: Effect.succeed(shared),
    transactionAcquirer: reserve,
    compiler: PgClient.makeCompiler(config.transformQueryNames),
    spanAttributes: [["db.system.name", "postgresql"]],
    transformRows: config.transformResultNames
      ? Statement.defaultTransforms(config.transformResultNames).array
      : undefined
  })
}

const preparationFailed = (cause: unknown) =>
  cause instanceof SqlError ? cause : new SqlError({
    cause,
    message: `PgliteClient: the database could not be prepared${cause instanceof Error ? `: ${cause.message}` : ""}`
  })

export const make = (
  config: PgliteClientConfig
): Effect.Effect<PgliteClient, SqlError, Scope.Scope | Reactivity.Reactivity> =>
  Effect.gen(function*() {
    const opening = yield* open(config.dataDir, config)
    // With `prepare`, the client is there at once and PostgreSQL opens meanwhile; otherwise it opens first.
    const engine = config.prepare === undefined
      ? yield* Effect.tryPromise({ try: () => opening, catch: (cause) => cause as SqlError })
      : later(opening)
    const session = makeSessionLock()
    const runtime = yield* Effect.runtime<never>()
    engine.onDeath(({ error, restarted }) =>
      Runtime.runFork(runtime)(
        restarted
          ? Effect.logWarning(`PGlite's worker thread stopped (${error.message}): started again on the same folder`)
          : Effect.logError(`PGlite's worker thread stopped (${error.message}); it was not started again`)
      )
    )
    let failure: SqlError | undefined
    const client = yield* clientOver(engine, session, config, () => failure)

    if (config.prepare !== undefined) {
      // Everyone else waits behind the session, held until `prepare` is done on a client of its own.
      yield* Effect.uninterruptibleMask(session.acquire)
      const own = yield* clientOver(engine, makeSessionLock(), config, () => undefined)
      yield* config.prepare.pipe(
        Effect.provideService(SqlClient.SqlClient, own),
        Effect.catchAllCause((cause) => Effect.sync(() => failure = preparationFailed(Cause.squash(cause)))),
        Effect.ensuring(session.release),
        Effect.forkScoped
      )
    }

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
