import { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type { Engine } from "./engine"
import { startEngine, type StartOptions, takePrestarted } from "./start"

const start = async (dataDir: string | undefined, options: StartOptions): Promise<Engine> =>
  (await takePrestarted(dataDir, options)) ?? startEngine(dataDir, options)

/**
 * Starts opening PGlite (on this thread or in a worker), closed when the scope ends; the promise
 * rejects with an SqlError saying why it could not open.
 */
export const open = (
  dataDir: string | undefined,
  options: StartOptions = {}
): Effect.Effect<Promise<Engine>, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const opening = start(dataDir, options).catch((cause) =>
        Promise.reject(
          new SqlError({
            cause,
            message: `PgliteClient: failed to open the database${cause instanceof Error ? `: ${cause.message}` : ""}`
          })
        )
      )
      opening.catch(() => undefined) // reported by whoever uses it
      return opening
    }),
    (opening) => Effect.promise(() => opening.then((engine) => engine.close(), () => undefined))
  )
