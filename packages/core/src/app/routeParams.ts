import type { HttpApi, HttpApiEndpoint } from "@effect/platform"
import { Option, Schema } from "effect"
import type { ErrorLocation } from "../domain/AppError"

interface RouteShape {
  readonly method: string
  readonly pattern: RegExp
  readonly pathParams: ReadonlySet<string>
  readonly pathValid: (params: Record<string, string>) => boolean
  readonly payloadParams: ReadonlySet<string>
  readonly queryParams: ReadonlySet<string>
  readonly headerParams: ReadonlySet<string>
}

const keysOf = (schema: Option.Option<Schema.Schema.Any>): ReadonlySet<string> =>
  new Set(Option.match(schema, {
    onNone: () => [],
    onSome: (s) => ("fields" in s ? Object.keys((s as unknown as { fields: object }).fields) : [])
  }))

const patternOf = (path: string) =>
  new RegExp(
    "^" + path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:([A-Za-z0-9_]+)/g, "(?<$1>[^/]+)") + "/?$"
  )

const safeDecode = (value: string) => {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

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
        pathValid: Option.match(endpoint.pathSchema, {
          onNone: () => () => true,
          onSome: (schema) => (params) =>
            Option.isSome(Schema.decodeUnknownOption(schema as Schema.Schema<unknown, unknown>)(params))
        }),
        payloadParams: keysOf(endpoint.payloadSchema),
        queryParams: keysOf(endpoint.urlParamsSchema),
        headerParams: keysOf(endpoint.headersSchema)
      })
    }
  }
  return (method: string, path: string, param: string): ErrorLocation => {
    const route = routes.find((r) => r.method === method && r.pattern.test(path))
    if (route?.pathParams.has(param)) {
      // A name in both the path and the body (e.g. `type`): the body is to blame when the path decodes.
      if (!route.payloadParams.has(param)) return "params"
      const params = Object.fromEntries(
        Object.entries(route.pattern.exec(path)?.groups ?? {}).map(([key, value]) => [key, safeDecode(value)])
      )
      return route.pathValid(params) ? "body" : "params"
    }
    if (route?.queryParams.has(param)) return "query"
    if (route?.headerParams.has(param)) return "headers"
    return method === "GET" || method === "DELETE" ? "query" : "body"
  }
}
