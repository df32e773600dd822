import { type SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { SqlError } from "@effect/sql/SqlError"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { unaccent } from "@electric-sql/pglite/contrib/unaccent"
import { PgliteClient } from "@roda/sql-pglite"
import { Effect, Layer, Redacted, String as Str } from "effect"
import { existsSync } from "node:fs"
import { join } from "node:path"
import pg from "pg"
import { connectFailure } from "../../src/sql/connectError"
import { type DatabaseOptions, DEFAULT_STATEMENT_TIMEOUT_MS } from "../../src/sql/Database"
import { migrate } from "../../src/sql/migrate"
import { lockDataDir } from "../dataDirLock"
import { folderClient } from "./folderClient"
import { GuardedPool } from "./guardedPool"
import { makeStatementNames, namingClient } from "./namedStatements"
import { loadTemplate, saveTemplate, templateKey } from "./template"
import { templateFile } from "./templateFiles"
import { timestamptzParser } from "./timestamps"

/**
 * A name conversion remembered per name: it runs on every column of every row read, over a few
 * hundred distinct names; unremembered, a 20-row feed page converted 300 names afresh (66 KB of
 * garbage per request).
 */
const remembered = (convert: (name: string) => string) => {
  const known = new Map<string, string>()
  return (name: string) => {
    let converted = known.get(name)
    if (converted === undefined) {
      converted = convert(name)
      if (known.size < 10_000) known.set(name, converted)
    }
    return converted
  }
}

const names = { transformQueryNames: remembered(Str.camelToSnake), transformResultNames: remembered(Str.snakeToCamel) }

const INT8_OID = 20

/**
 * bigint (int8) columns, money included, come back as numbers on PostgreSQL as they do on PGlite:
 * a `number` when it is a safe integer, a `bigint` beyond (node-postgres would give a string).
 */
const int8AsNumber = (value: string): number | bigint => {
  const number = Number(value)
  return Number.isSafeInteger(number) ? number : BigInt(value)
}

const TIMESTAMPTZ_OID = 1184
const timestamptz = timestamptzParser(pg.types.getTypeParser(TIMESTAMPTZ_OID, "text"))

const pgTypes = {
  getTypeParser: (oid: number, format?: "text" | "binary") => {
    if (format !== "binary") {
      if (oid === INT8_OID) return int8AsNumber
      if (oid === TIMESTAMPTZ_OID) return timestamptz
    }
    return pg.types.getTypeParser(oid, format)
  }
}

/**
 * How long a PostgreSQL connection may sit idle before the pool closes it. node-postgres closes one
 * after 10 s by default: a burst of requests after a quiet spell then opened every connection again
 * on fresh server processes that had to prepare every named statement anew, and its p99 doubled
 * (bench/README.md). Five minutes keeps them through the pauses of bursty traffic.
 */
export const POOL_IDLE_MS = 5 * 60_000

/**
 * The pool's options: its connections name (prepare) hot statements, live through quiet spells, and
 * carry `statement_timeout` (a startup parameter of each connection, so PostgreSQL itself cancels a
 * statement that runs longer, error 57014). They run without JIT compilation (`jit=off`, unless the
 * URL's own `options` say otherwise): PostgreSQL compiles a statement whose estimated cost passes a
 * threshold, and at the size of a real community the reports' statements spent 0.5-2.8 s compiling
 * for runs of a fraction of that (bench/scale).
 */
export const poolOptions = (
  url: Redacted.Redacted<string>,
  statementTimeoutMs: number = DEFAULT_STATEMENT_TIMEOUT_MS,
  poolMax?: number
): pg.PoolConfig => ({
  connectionString: Redacted.value(url),
  ...(poolMax === undefined ? {} : { max: poolMax }),
  application_name: "roda",
  statement_timeout: statementTimeoutMs,
  options: "-c jit=off",
  idleTimeoutMillis: POOL_IDLE_MS,
  types: pgTypes,
  Client: namingClient(makeStatementNames())
})

/**
 * The SqlClient on PostgreSQL through node-postgres, with a `GuardedPool` made from `config` (see
 * `poolOptions`), ended with the layer: an interrupted statement cannot cancel another request's.
 */
export const postgresClient = (config: pg.PoolConfig): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, SqlError> =>
  PgClient.layerFromPool({
    acquire: Effect.acquireRelease(
      Effect.tryPromise({
        try: async () => {
          const pool = new GuardedPool(config)
          pool.on("error", () => undefined)
          await pool.query("SELECT 1")
          return pool
        },
        catch: (cause) =>
          new SqlError({ cause, message: connectFailure(Redacted.make(config.connectionString ?? ""), cause) })
      }),
      (pool) => Effect.promise(() => pool.end()).pipe(Effect.interruptible, Effect.timeoutOption(1000))
    ),
    types: pgTypes,
    ...names
  })

/**
 * The embedded database in `folder` held by this process for the scope (`dataDirLock.ts`): dies with
 * `DataDirInUse` when another process holds it.
 */
export const holdDataDir = (folder: string) =>
  Effect.acquireRelease(Effect.sync(() => lockDataDir(folder)), (release) => Effect.sync(release))

/**
 * The SqlClient for the chosen database, with every migration applied: PostgreSQL through
 * node-postgres, or PGlite in a folder or in memory. The Node platform's `database`.
 */
export const DatabaseLive = (options: DatabaseOptions): Layer.Layer<SqlClient.SqlClient> => {
  if (options._tag === "Embedded") {
    return options.dataDir === "memory"
      ? memoryDatabase(options.snapshotDir)
      : folderDatabase(options.dataDir, options.snapshotDir)
  }
  return Layer.effectDiscard(migrate).pipe(
    Layer.provideMerge(postgresClient(poolOptions(options.url, options.statementTimeoutMs, options.poolMax))),
    Layer.orDie
  ) as Layer.Layer<SqlClient.SqlClient>
}

/**
 * A database in a folder, in a worker thread (a server's requests and its database then use two
 * cores). A new folder starts from the migrated template: unpacked from its file when there is one
 * (the server may have started that already, see `prestart.ts`), else loaded from a dump. The layer
 * is there at once: the rest of Roda is built while the folder opens and migrates (`prepare`), and
 * its statements wait for that (or fail with the reason it could not be done). The folder is this
 * process's alone while it is open (`dataDirLock.ts`).
 */
const folderDatabase = (dataDir: string, snapshotDir: string | undefined) =>
  Layer.unwrapScoped(Effect.gen(function*() {
    yield* holdDataDir(dataDir)
    const fresh = !existsSync(join(dataDir, "PG_VERSION"))
    if (fresh) PgliteClient.preload()
    const key = templateKey()
    const file = yield* Effect.promise(() => templateFile(key, snapshotDir))
    const template = fresh && file === undefined ? yield* loadTemplate(key, snapshotDir) : undefined
    return PgliteClient.layer({
      ...folderClient(dataDir, file),
      ...names,
      ...(template ? { loadDataDir: template } : {}),
      prepare: migrate
    })
  })).pipe(Layer.orDie) as Layer.Layer<SqlClient.SqlClient>

/** An in-memory database started from the migrated template (see `template.ts`), or made and kept as it. */
const memoryDatabase = (snapshotDir: string | undefined): Layer.Layer<SqlClient.SqlClient> =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const key = templateKey()
    const template = yield* loadTemplate(key, snapshotDir)
    // The extensions themselves (not their names): a program that bundled PGlite is told at once that
    // their archives are not beside it.
    const client = PgliteClient.layer({
      extensions: { pg_trgm, unaccent },
      ...names,
      ...(template ? { loadDataDir: template } : {})
    })
    const ready = template ? migrate : Effect.zipRight(migrate, saveTemplate(key, snapshotDir))
    return Layer.effectDiscard(ready).pipe(Layer.provideMerge(client), Layer.orDie)
  })) as Layer.Layer<SqlClient.SqlClient>
