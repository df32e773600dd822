import type { HttpApi, HttpApiEndpoint } from "@effect/platform"
import { Option, type Schema } from "effect"
import type { ErrorLocation } from "../domain/AppError"

interface RouteShape {
  readonly method: string
  readonly pattern: RegExp
  readonly pathParams: ReadonlySet<string>
  readonly queryParams: ReadonlySet<string>
  readonly headerParams: ReadonlySet<string>
}

const keysOf = (schema: Option.Option<Schema.Schema.Any>): ReadonlySet<string> =>
  new Set(Option.match(schema, {
    onNone: () => [],
    onSome: (s) => ("fields" in s ? Object.keys((s as unknown as { fields: object }).fields) : [])
  }))

const patternOf = (path: string) =>
  new RegExp("^" + path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z0-9_]+/g, "[^/]+") + "/?$")

/**
 * Where a parameter of a request came from, so schema failures can name `errors[].location`:
 * the framework's decode error only gives the parameter's name.
 */
export const makeLocator = (api: HttpApi.HttpApi.Any) => {
  const routes: Array<RouteShape> = []
  for (const group of Object.values((api as HttpApi.HttpApi.AnyWithProps).groups)) {
    for (const endpoint of Object.values(group.endpoints) as Array<HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>) {
      routes.push({
        method: endpoint.method,
        pattern: patternOf(endpoint.path),
        pathParams: keysOf(endpoint.pathSchema),
        queryParams: keysOf(endpoint.urlParamsSchema),
        headerParams: keysOf(endpoint.headersSchema)
      })
    }
  }
  return (method: string, path: string, param: string): ErrorLocation => {
    const route = routes.find((r) => r.method === method && r.pattern.test(path))
    if (route?.pathParams.has(param)) return "params"
    if (route?.queryParams.has(param)) return "query"
    if (route?.headerParams.has(param)) return "headers"
    return method === "GET" || method === "DELETE" ? "query" : "body"
  }
}
