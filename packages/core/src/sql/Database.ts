import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { SqlError } from "@effect/sql/SqlError"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { unaccent } from "@electric-sql/pglite/contrib/unaccent"
import { PgliteClient } from "@roda/sql-pglite"
import { Effect, Layer, Redacted, String as Str } from "effect"
import { existsSync } from "node:fs"
import { join } from "node:path"
import pg from "pg"
import { connectFailure } from "./connectError"
import { migrate } from "./migrate"
import { makeStatementNames, namingClient } from "./namedStatements"
import { loadTemplate, saveTemplate, templateKey } from "./template"

/** Where the data lives: a PostgreSQL server, or the embedded PGlite (a folder, or memory). */
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

const names = { transformQueryNames: Str.camelToSnake, transformResultNames: Str.snakeToCamel }

const INT8_OID = 20

/**
 * bigint (int8) columns, money included, come back as numbers on PostgreSQL as they do on PGlite:
 * a `number` when it is a safe integer, a `bigint` beyond (node-postgres would give a string).
 */
const int8AsNumber = (value: string): number | bigint => {
  const number = Number(value)
  return Number.isSafeInteger(number) ? number : BigInt(value)
}

const pgTypes = {
  getTypeParser: (oid: number, format?: "text" | "binary") =>
    oid === INT8_OID && format !== "binary" ? int8AsNumber : pg.types.getTypeParser(oid, format)
}

/** A pool whose connections name (prepare) hot statements; ended with the layer. */
const namingPool = (url: Redacted.Redacted<string>) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const pool = new pg.Pool({
          connectionString: Redacted.value(url),
          application_name: "roda",
          types: pgTypes,
          Client: namingClient(makeStatementNames())
        })
        pool.on("error", () => undefined)
        await pool.query("SELECT 1")
        return pool
      },
      catch: (cause) => new SqlError({ cause, message: connectFailure(url, cause) })
    }),
    (pool) => Effect.promise(() => pool.end()).pipe(Effect.interruptible, Effect.timeoutOption(1000))
  )

/** The SqlClient for the chosen database, with every migration applied. */
export const DatabaseLive = (options: DatabaseOptions): Layer.Layer<SqlClient.SqlClient> => {
  if (options._tag === "Embedded" && options.dataDir === "memory") return memoryDatabase(options.snapshotDir)
  const client = options._tag === "Postgres"
    ? PgClient.layerFromPool({ acquire: namingPool(options.url), types: pgTypes, ...names })
    : folderDatabase(options.dataDir, options.snapshotDir)
  return Layer.effectDiscard(migrate).pipe(
    Layer.provideMerge(client),
    Layer.orDie
  ) as Layer.Layer<SqlClient.SqlClient>
}

const extensions = { pg_trgm, unaccent }

/** A database in a folder; a new folder starts from the migrated template when there is one. */
const folderDatabase = (dataDir: string, snapshotDir: string | undefined) =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const fresh = !existsSync(join(dataDir, "PG_VERSION"))
    const template = fresh ? yield* loadTemplate(templateKey(), snapshotDir) : undefined
    return PgliteClient.layer({ dataDir, extensions, ...names, ...(template ? { loadDataDir: template } : {}) })
  }))

/** An in-memory database started from the migrated template (see `template.ts`), or made and kept as it. */
const memoryDatabase = (snapshotDir: string | undefined): Layer.Layer<SqlClient.SqlClient> =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const key = templateKey()
    const template = yield* loadTemplate(key, snapshotDir)
    const client = PgliteClient.layer({ extensions, ...names, ...(template ? { loadDataDir: template } : {}) })
    const ready = template ? migrate : Effect.zipRight(migrate, saveTemplate(key, snapshotDir))
    return Layer.effectDiscard(ready).pipe(Layer.provideMerge(client), Layer.orDie)
  })) as Layer.Layer<SqlClient.SqlClient>

/** Reads the database is reachable (readiness probe). */
export const ping = Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT 1`).pipe(Effect.asVoid)
