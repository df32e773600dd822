import { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { createDatabase, type CreateOptions } from "./create"
import { type Engine, inThread } from "./engine"
import { sharedRuntime } from "./runtime"
import { inWorker } from "./workerEngine"

export interface OpenOptions extends CreateOptions {
  readonly thread?: "main" | "worker" | undefined
}

const start = async (dataDir: string | undefined, options: OpenOptions): Promise<Engine> => {
  if (options.thread !== "worker") return inThread(await createDatabase(dataDir, options, await sharedRuntime()))
  if (options.extensions !== undefined && Object.keys(options.extensions).length > 0) {
    throw new Error("a worker thread loads its extensions itself: name them in `contrib`")
  }
  return inWorker(dataDir, { contrib: options.contrib ?? [], loadDataDir: options.loadDataDir })
}

/** Opens PGlite (on this thread or in a worker) and closes it when the scope ends. */
export const open = (
  dataDir: string | undefined,
  options: OpenOptions = {}
): Effect.Effect<Engine, SqlError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () => start(dataDir, options),
      catch: (cause) =>
        new SqlError({
          cause,
          message: `PgliteClient: failed to open the database${cause instanceof Error ? `: ${cause.message}` : ""}`
        })
    }),
    (engine) => Effect.tryPromise(() => engine.close()).pipe(Effect.ignoreLogged)
  )
