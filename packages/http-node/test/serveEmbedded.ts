import { defaultOptions, RATE_LIMITS_OFF, secret } from "@roda/core"
import { Effect, Exit, Scope } from "effect"
import { serve } from "../src/server"

export type Served = Effect.Effect.Success<ReturnType<typeof serve>>

/**
 * The Node server on an in-memory embedded database, quiet but for errors, allowing the browser
 * origin `corsOrigin`; `close` stops it.
 */
export const serveEmbedded = async (corsOrigin: string) => {
  const scope = Effect.runSync(Scope.make())
  const served = await Effect.runPromise(
    serve({
      port: 0,
      host: "127.0.0.1",
      database: { _tag: "Embedded", dataDir: "memory" },
      options: defaultOptions({
        jwtSecret: secret("a-test-secret-that-is-long-enough-123"),
        corsOrigins: [corsOrigin],
        rateLimits: RATE_LIMITS_OFF
      }),
      log: { format: "json", level: "error" }
    }, { logSink: () => undefined }).pipe(Scope.extend(scope))
  )
  return {
    ...served,
    base: `http://127.0.0.1:${served.port}`,
    close: () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
}
