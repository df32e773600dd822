import { Command } from "@effect/cli"
import { loadConfigWith, serve } from "@roda/http-node"
import { Effect } from "effect"

/** The Node server of `@roda/http-node` (same environment), until SIGTERM or SIGINT. */
export const serveCommand = Command.make(
  "serve",
  {},
  () =>
    Effect.flatMap(loadConfigWith({ connect: true, missingDataDir: "create" }), (config) => serve(config)).pipe(
      Effect.zipRight(Effect.never),
      Effect.scoped
    )
).pipe(
  Command.withDescription(
    "Run the HTTP server (PORT, HOST, DATABASE_URL, DATA_DIR, …: the environment of the server)"
  )
)
