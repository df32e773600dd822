import { PGlite } from "@electric-sql/pglite"
import { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { mkdir } from "node:fs/promises"

const create = async (dataDir: string | undefined): Promise<PGlite> => {
  if (dataDir === undefined || dataDir === "memory") {
    return PGlite.create()
  }
  // A `scheme://` location (memory://, idb://) is PGlite's business; a folder
  // may need parents, as PGlite only creates the last path segment.
  if (!dataDir.includes("://")) {
    await mkdir(dataDir, { recursive: true })
  }
  return PGlite.create(dataDir)
}

/** Opens a PGlite instance that is closed when the scope ends. */
export const open = (dataDir: string | undefined): Effect.Effect<PGlite, SqlError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () => create(dataDir),
      catch: (cause) => new SqlError({ cause, message: "PgliteClient: failed to open the database" })
    }),
    (pglite) =>
      pglite.closed ? Effect.void : Effect.tryPromise(() => pglite.close()).pipe(Effect.ignoreLogged)
  )
