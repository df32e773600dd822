import type { HttpApi, HttpApiEndpoint } from "@effect/platform"
import { Option } from "effect"
import { RodaApi } from "../api/RodaApi"
import { makeOperationOf } from "../api/routes"
import { type Coded, type Forbidden, forbidden } from "../domain/AppError"
import { Messages } from "../domain/Messages"
import { type ApiKeyScope, scopeFor } from "./scopes"

/** The operation a request calls (group, endpoint, method), as the API's router matches it. */
export const operationOf = makeOperationOf(RodaApi)

const groups = (RodaApi as unknown as HttpApi.HttpApi.AnyWithProps).groups

export type ApiKeyRefusal = Coded<Forbidden, "api_key_route_refused" | "api_key_scope_missing">

/** A route keys may not use (403). */
export const routeRefused = (): ApiKeyRefusal => forbidden(Messages.apiKeyRouteRefused)

/**
 * Why a key with `scopes` may not call `endpoint` of `group` (403: a route keys may not use, or the
 * scope it lacks, named); none when it may. The request middleware asks it for every request sent
 * with a key, the MCP server for every tool call (each tool runs one route's service call).
 */
export const apiKeyRefusal = (
  group: string,
  endpoint: string,
  scopes: ReadonlyArray<ApiKeyScope>
): Option.Option<ApiKeyRefusal> => {
  const method = (groups[group]?.endpoints[endpoint] as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps | undefined)
    ?.method
  const scope = method === undefined ? undefined : scopeFor(group, endpoint, method)
  if (scope === undefined) return Option.some(routeRefused())
  return scopes.includes(scope) ? Option.none() : Option.some(forbidden(Messages.apiKeyScopeMissing(scope)))
}
