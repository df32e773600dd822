// The server, once `main.ts` has started opening its embedded database.
import { NodeRuntime } from "@effect/platform-node"
import { Cause, Effect, Layer } from "effect"
import { loadConfigWith } from "./config"
import { serve } from "./server"

/**
 * Why the server stopped: a line per problem of its environment (each naming its variable and the
 * fix), or the one reason it could not use its database.
 */
const reason = (cause: Cause.Cause<unknown>) => {
  const error = Cause.squash(cause)
  return error instanceof Error ? error.message : String(error)
}

/** Runs until SIGTERM or SIGINT, then shuts down gracefully. */
const main = Effect.flatMap(loadConfigWith({ connect: true, missingDataDir: "create" }), serve).pipe(
  Effect.zipRight(Effect.never),
  Effect.scoped,
  Effect.tapErrorCause((cause) =>
    Cause.isInterruptedOnly(cause)
      ? Effect.void
      : Effect.sync(() => process.stderr.write(`Roda could not start:\n${reason(cause)}\n`))
  )
)

NodeRuntime.runMain(main.pipe(Effect.provide(Layer.empty)), { disableErrorReporting: true })
