import { loadConfig, serve } from "@roda/http-node"
import { ConfigProvider, Effect, Exit, Layer, Scope } from "effect"

/**
 * The standalone server, as `roda-server` runs it, with its environment given as a map (the
 * binary reads `process.env`). Resolves with its URL and a stop function once it listens.
 */
export const startStandalone = async (env: Record<string, string>) => {
  const scope = Effect.runSync(Scope.make())
  const provider = Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))
  const server = await Effect.runPromise(
    Effect.flatMap(loadConfig, (config) => serve(config, { logSink: () => {} })).pipe(
      Effect.provide(provider),
      Scope.extend(scope)
    )
  )
  return {
    url: `http://127.0.0.1:${server.port}`,
    stop: () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
}
