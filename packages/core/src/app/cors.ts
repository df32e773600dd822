import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { HttpApp } from "@effect/platform"
import { Effect } from "effect"
import type { RodaOptions } from "../platform/Options"

const originOf = (value: string) => URL.canParse(value) ? new URL(value).origin : value

const ALLOWED_METHODS = "GET, HEAD, PUT, PATCH, POST, DELETE"

/** The request headers a browser client may send. */
const ALLOWED_HEADERS = [
  "authorization",
  "content-type",
  "accept-language",
  "x-communityid",
  "x-profileid",
  "idempotency-key"
].join(",")

/** The answer headers a browser client may read (named on every answer, as `HttpMiddleware.cors` did). */
const EXPOSE_HEADERS = ["retry-after", "idempotent-replayed", "ratelimit-policy", "ratelimit"].join(",")
const EXPOSE = { "access-control-expose-headers": EXPOSE_HEADERS }

/**
 * CORS: only the configured origins (default: the origin of `publicBaseUrl`) are answered, each
 * reflected with `Vary: Origin`; never `*`. `preflight` is the answer to an `OPTIONS` request (any
 * path); `decorate` adds the headers to any other answer.
 */
export const makeCors = (options: RodaOptions) => {
  const allowed = new Set((options.corsOrigins ?? [options.publicBaseUrl]).map(originOf))
  const isAllowed = (origin: string | undefined): origin is string => origin !== undefined && allowed.has(origin)
  const allowedHeaders = (origin: string) => ({ "access-control-allow-origin": origin, vary: "Origin", ...EXPOSE })
  const preflight = (origin: string | undefined) =>
    HttpServerResponse.empty({
      status: 204,
      headers: {
        ...(isAllowed(origin) ? allowedHeaders(origin) : EXPOSE),
        "access-control-allow-methods": ALLOWED_METHODS,
        "access-control-allow-headers": ALLOWED_HEADERS
      }
    })
  const decorate = (response: HttpServerResponse.HttpServerResponse, origin: string | undefined) =>
    isAllowed(origin)
      ? HttpServerResponse.setHeaders(response, allowedHeaders(origin))
      // One header set is an eighth of the cost of `setHeaders`, which spreads and re-reads every header.
      : HttpServerResponse.setHeader(response, "access-control-expose-headers", EXPOSE_HEADERS)
  return { preflight, decorate }
}

/**
 * `makeCors` as the app's middleware: a preflight is answered 204 here. The headers are set on the
 * answer itself rather than through a pre-response handler (as `HttpMiddleware.cors` does): that
 * would set a fiber ref on every request, copying the fiber's refs.
 */
export const corsMiddleware = (options: RodaOptions) => {
  const { decorate, preflight } = makeCors(options)
  return <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const origin = request.headers["origin"]
      if (request.method === "OPTIONS") return Effect.succeed(preflight(origin))
      return Effect.map(app, (response) => decorate(response, origin))
    })
}
