import { type HttpApi, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { RodaApi } from "@roda/core/api"
import type { Effect } from "effect"
import { rodaBaseUrl, type RodaClientOptions, rodaHeaders } from "./headers"

export { AppError, RodaApi } from "@roda/core/api"
export type { ErrorLocation, FieldError, Text } from "@roda/core/api"
export type { RodaClientOptions, RodaCredentials } from "./headers"
export { rodaHeaders } from "./headers"

/**
 * The typed Effect client of Roda's API (`HttpApiClient` over the contract): one method per
 * operation, grouped as the contract groups them (`client.sections.create({ payload })`), each
 * succeeding with the decoded answer and failing with the errors the operation declares (`AppError`,
 * its `status`, message and `errors[]`), an `HttpClientError` or a `ParseError`.
 *
 * Needs an `HttpClient` (e.g. `FetchHttpClient.layer` from `@effect/platform`).
 */
export const makeRodaClient = (
  options: RodaClientOptions
): Effect.Effect<RodaClient, never, HttpClient.HttpClient> => {
  const headers = rodaHeaders(options)
  return HttpApiClient.make(RodaApi, {
    baseUrl: rodaBaseUrl(options.baseUrl),
    transformClient: HttpClient.mapRequest(HttpClientRequest.setHeaders(headers))
  })
}

/** The client's type, named (its expansion is too long for a declaration file). */
export type RodaClient = typeof RodaApi extends HttpApi.HttpApi<infer _Id, infer Groups, infer E, infer R>
  ? HttpApiClient.Client<Groups, E, R>
  : never
