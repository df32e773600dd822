import type { HttpApi, HttpApiEndpoint } from "@effect/platform"
import * as FindMyWay from "find-my-way-ts"
import { RodaApi } from "./RodaApi"

/**
 * The route template a request matches (`/api/courses/:slug`), for logs and metrics that must not
 * count every id as a path of its own. Same matcher as the API's router; unknown paths give
 * `undefined`.
 */
export const makeRouteOf = (api: HttpApi.HttpApi.Any) => {
  const router = FindMyWay.make<string>()
  for (const group of Object.values((api as HttpApi.HttpApi.AnyWithProps).groups)) {
    for (const endpoint of Object.values(group.endpoints) as Array<HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>) {
      router.on(endpoint.method, endpoint.path as FindMyWay.PathInput, endpoint.path)
    }
  }
  return (method: string, path: string): string | undefined => router.find(method, path)?.handler
}

/**
 * The route template of a request (`GET`, `/api/courses/abc` → `/api/courses/:slug`), if any. Not in
 * RodaApi.ts: the contract entry (`@roda/core/api`) leaves the router out of a client's bundle.
 */
export const routeOf = makeRouteOf(RodaApi)

/** What a request calls: its group, endpoint and method, as the API's router matches it. */
export interface Operation {
  readonly group: string
  readonly endpoint: string
  readonly method: string
}

/** `makeRouteOf`, answering the operation rather than its path template. */
export const makeOperationOf = (api: HttpApi.HttpApi.Any) => {
  const router = FindMyWay.make<Operation>()
  for (const group of Object.values((api as HttpApi.HttpApi.AnyWithProps).groups)) {
    for (const endpoint of Object.values(group.endpoints) as Array<HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>) {
      router.on(endpoint.method, endpoint.path as FindMyWay.PathInput, {
        group: group.identifier,
        endpoint: endpoint.name,
        method: endpoint.method
      })
    }
  }
  return (method: string, url: string): Operation | undefined => {
    const query = url.indexOf("?")
    return router.find(method, query === -1 ? url : url.slice(0, query))?.handler
  }
}
