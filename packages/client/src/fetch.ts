import createClient, { type ClientOptions } from "openapi-fetch"
import type { paths } from "../generated/openapi"
import { rodaBaseUrl, type RodaClientOptions, rodaHeaders } from "./headers"

export type { components, operations, paths } from "../generated/openapi"
export type { RodaClientOptions, RodaCredentials } from "./headers"

export type RodaFetchClientOptions = RodaClientOptions & {
  /** The `fetch` to call (default: the global one), e.g. a host's own or a test's. */
  readonly fetch?: ClientOptions["fetch"]
}

/**
 * A plain `fetch` client typed from Roda's OpenAPI document (`openapi-fetch`): paths, parameters,
 * bodies and answers as the document declares them, no Effect needed.
 *
 *     const { data, error, response } = await roda.GET("/api/sections", { params: { query: { limit: 10 } } })
 */
export const createRodaFetchClient = (options: RodaFetchClientOptions) =>
  createClient<paths>({
    baseUrl: rodaBaseUrl(options.baseUrl),
    headers: rodaHeaders(options),
    ...(options.fetch ? { fetch: options.fetch } : {})
  })

export type RodaFetchClient = ReturnType<typeof createRodaFetchClient>
