import { FetchHttpClient } from "@effect/platform"
import { Layer } from "effect"
import type { Roda } from "../../src/index"

/**
 * A `fetch` that hands each request to Roda's web handler: the clients of `@roda/client` over an
 * instance in the test's process, no socket in between (the handler is what every backend mounts).
 */
export const handlerFetch = (roda: Pick<Roda, "handler">, clientAddress = "127.0.0.1"): typeof fetch => (input, init) =>
  roda.handler(new Request(input, init), { clientAddress })

/** `HttpClient` for the Effect client, over `handlerFetch`. */
export const handlerHttpClient = (roda: Pick<Roda, "handler">, clientAddress?: string) =>
  FetchHttpClient.layer.pipe(Layer.provide(Layer.succeed(FetchHttpClient.Fetch, handlerFetch(roda, clientAddress))))
