import { SqlError } from "@effect/sql/SqlError"
import { type Extensions, PGlite } from "@electric-sql/pglite"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { mkdir } from "node:fs/promises"

const create = async (dataDir: string | undefined, extensions: Extensions): Promise<PGlite> => {
  if (dataDir === undefined || dataDir === "memory") {
    return PGlite.create({ extensions })
  }
  // A `scheme://` location (memory://, idb://) is PGlite's business; a folder
  // may need parents, as PGlite only creates the last path segment.
  if (!dataDir.includes("://")) {
    await mkdir(dataDir, { recursive: true })
  }
  return PGlite.create({ dataDir, extensions })
}

/** Opens a PGlite instance that is closed when the scope ends. */
export const open = (
  dataDir: string | undefined,
  extensions: Extensions = {}
): Effect.Effect<PGlite, SqlError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () => create(dataDir, extensions),
      catch: (cause) => new SqlError({ cause, message: "PgliteClient: failed to open the database" })
    }),
    (pglite) => pglite.closed ? Effect.void : Effect.tryPromise(() => pglite.close()).pipe(Effect.ignoreLogged)
  )
