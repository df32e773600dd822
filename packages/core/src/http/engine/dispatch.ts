import {
  HttpApi,
  HttpApiBuilder,
  HttpRouter,
  HttpServerError,
  HttpServerRequest,
  HttpServerRespondable,
  HttpServerResponse
} from "@effect/platform"
import type { HttpApp } from "@effect/platform"
import { Chunk, Context, Effect, FiberRef, Option, Tracer } from "effect"
import * as FindMyWay from "find-my-way-ts"
import { directRouteOf, type RouteEntries } from "./directRoute"

type AnyRoute = HttpRouter.Route<unknown, unknown>

const interruptibleUnless = (
  route: AnyRoute,
  answer: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, unknown>
) => route.uninterruptible ? answer : Effect.interruptible(answer)

const toResponse = (answer: HttpServerRespondable.Respondable) =>
  HttpServerResponse.isServerResponse(answer) ? Effect.succeed(answer) : HttpServerRespondable.toResponse(answer)

/**
 * The routes of `HttpApiBuilder`'s router, dispatched as `HttpRouter.toHttpApp` does (same
 * find-my-way configuration, HEAD answered by GET, `RouteNotFound`, the route's params and search
 * params in the context, `http.route` on the server span), with one difference: the route's context
 * is set on the request's fiber for the rest of the request instead of `Effect.locally` around the
 * handler. Each request has a fiber of its own and nothing after the handler reads what it adds, so
 * the restore (an acquire/use/release, about fifteen interpreter steps per request) bought nothing.
 * A route made by `apiGroup` takes its route context and search params as entries to set with its
 * own services (`directRoute.ts`): one context change per request instead of two.
 * A prefixed route (`HttpRouter.prefixAll`) sees a sliced request, which is restored after it.
 * A router with mounts is left to `HttpRouter.toHttpApp`.
 */
const dispatch = (router: HttpRouter.HttpRouter<unknown, unknown>) =>
  Effect.map(FiberRef.get(HttpRouter.currentRouterConfig), (config) => {
    if (Chunk.isNonEmpty(router.mounts)) return router as HttpApp.Default<unknown, unknown>
    const routes = FindMyWay.make<AnyRoute>(config)
    for (const route of router.routes) {
      if (route.method === "*") routes.all(route.path, route)
      else routes.on(route.method, route.path, route)
    }
    return Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, unknown, unknown>((fiber) => {
      const context = fiber.currentContext
      const request = Context.unsafeGet(context, HttpServerRequest.HttpServerRequest)
      const found = routes.find(request.method, request.url) ??
        (request.method === "HEAD" ? routes.find("GET", request.url) : undefined)
      if (found === undefined) return Effect.fail(new HttpServerError.RouteNotFound({ request }))
      const route = found.handler
      const span = Context.getOption(context, Tracer.ParentSpan)
      if (span._tag === "Some" && span.value._tag === "Span") span.value.attribute("http.route", route.path)
      const routeContext: HttpRouter.RouteContext = {
        [HttpRouter.RouteContextTypeId]: HttpRouter.RouteContextTypeId,
        params: found.params,
        route
      }
      // A prefixed route is a copy that `apiGroup` never registered; the guard only says so.
      const direct = Option.isNone(route.prefix) ? directRouteOf(route) : undefined
      if (direct !== undefined) {
        // The route sets these with its own services, in one context change.
        const entries: RouteEntries = [
          [HttpServerRequest.ParsedSearchParams.key, found.searchParams],
          [HttpRouter.RouteContext.key, routeContext]
        ]
        return interruptibleUnless(
          route,
          Effect.flatMap(
            direct(entries) as Effect.Effect<HttpServerRespondable.Respondable, unknown, unknown>,
            toResponse
          )
        )
      }
      const services = new Map(context.unsafeMap)
      if (Option.isSome(route.prefix)) {
        const prefix = route.prefix.value
        services.set(
          HttpServerRequest.HttpServerRequest.key,
          request.modify({ url: request.url.length <= prefix.length ? "/" : request.url.slice(prefix.length) })
        )
      }
      services.set(HttpServerRequest.ParsedSearchParams.key, found.searchParams)
      services.set(HttpRouter.RouteContext.key, routeContext)
      const run = interruptibleUnless(route, Effect.flatMap(route.handler, toResponse))
      const withRoute = Context.unsafeMake(services)
      // A prefixed route's request is a sliced copy: it must not outlive the handler, since the
      // middleware around the dispatch reads the request (the envelope, the log).
      if (Option.isSome(route.prefix)) return Effect.locally(run, FiberRef.currentContext, withRoute)
      return Effect.zipRight(FiberRef.set(FiberRef.currentContext, withRoute), run)
    })
  })

/**
 * `HttpApiBuilder.httpApp` with `dispatch` for a router: the groups' routes, then the API's
 * middleware (`HttpApiBuilder.middleware`). The API declares no middleware of its own (Roda's are
 * per group), and its error envelope answers every failure, so the framework's fallback encoding of
 * errors by the API's error schemas has nothing left to encode.
 */
export const apiHttpApp: Effect.Effect<
  HttpApp.Default<never, HttpRouter.HttpRouter.DefaultServices>,
  never,
  HttpApiBuilder.Router | HttpApi.Api | HttpApiBuilder.Middleware
> = Effect.gen(function*() {
  const { api } = yield* HttpApi.Api
  if ((api as unknown as HttpApi.HttpApi.AnyWithProps).middlewares.size > 0) {
    return yield* Effect.dieMessage("apiHttpApp: API-level middleware is not supported")
  }
  const app = yield* dispatch(yield* HttpApiBuilder.Router.router)
  const middleware = yield* (yield* HttpApiBuilder.Middleware).retrieve
  return middleware(app) as HttpApp.Default<never, HttpRouter.HttpRouter.DefaultServices>
})
