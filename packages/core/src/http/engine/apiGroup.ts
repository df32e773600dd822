import { HttpApiBuilder, HttpApiMiddleware, HttpRouter } from "@effect/platform"
import type { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Chunk, Context, Effect, FiberRef, Option } from "effect"
import { identity } from "effect/Function"
import { pipeArguments } from "effect/Pipeable"
import { registerConstantRoute } from "./constantRoute"
import { registerDirectRoute, type RouteEntries } from "./directRoute"
import { endpointEffect } from "./endpointRoute"
import { constantAnswerOf } from "./PlainJson"

type AnyEffect = Effect.Effect<any, any, any>
type Item = HttpApiBuilder.Handlers.Item<unknown, unknown>
type AnyHandlers = HttpApiBuilder.Handlers<unknown, unknown, unknown, HttpApiEndpoint.HttpApiEndpoint.Any>

const handlersWith = (group: HttpApiGroup.HttpApiGroup.AnyWithProps, items: Chunk.Chunk<Item>): AnyHandlers => {
  const add = (name: string, handler: unknown, withFullRequest: boolean, options?: { uninterruptible?: boolean }) =>
    handlersWith(
      group,
      Chunk.append(items, {
        endpoint: group.endpoints[name],
        handler,
        withFullRequest,
        uninterruptible: options?.uninterruptible ?? false
      } as Item)
    )
  return {
    [HttpApiBuilder.HandlersTypeId]: { _Endpoints: identity },
    group,
    handlers: items,
    handle: (name: string, handler: unknown, options?: { uninterruptible?: boolean }) =>
      add(name, handler, false, options),
    handleRaw: (name: string, handler: unknown, options?: { uninterruptible?: boolean }) =>
      add(name, handler, true, options),
    pipe() {
      // eslint-disable-next-line prefer-rest-params -- `pipeArguments` takes the arguments object
      return pipeArguments(this, arguments)
    }
  } as unknown as AnyHandlers
}

/**
 * Changes the request fiber's context for the rest of the request, in one step: `group`'s services
 * (when given) under the request's, then `entries`. Each request has a fiber of its own, and what
 * the code around a handler reads (the request, the route) is never replaced here, so the restore of
 * `Effect.provide` (an acquire/use/release and a second context change) buys nothing. The maps are
 * copied with `forEach`, which makes no entry arrays as `Context.merge`'s iteration does.
 */
const enter = (group: Context.Context<never> | undefined, entries: RouteEntries) =>
  FiberRef.update(FiberRef.currentContext, (current) => {
    const services = new Map<string, unknown>()
    const copy = (service: unknown, key: string) => services.set(key, service)
    group?.unsafeMap.forEach(copy)
    current.unsafeMap.forEach(copy)
    for (const [key, service] of entries) services.set(key, service)
    return Context.unsafeMake(services)
  })

interface Middleware {
  readonly tag: HttpApiMiddleware.TagClassAny
  readonly effect: AnyEffect
}

/**
 * A security middleware: each scheme's credential decoded then checked, the next scheme tried on
 * failure. A check that declares no parameter reads the request itself (Roda's do), so its credential
 * is not decoded: a bearer's is a `Redacted`, whose value lives in a global WeakMap, and an entry
 * per request in that table lengthened every young-generation collection.
 */
const securityEffect = (
  tag: HttpApiMiddleware.TagClassSecurityAny,
  implementation: Record<string, (credential?: unknown) => AnyEffect>
) => {
  let effect: AnyEffect | undefined
  for (const [name, security] of Object.entries(tag.security)) {
    const checkOf = implementation[name]!
    const check = checkOf.length === 0
      ? Effect.suspend(() => checkOf())
      : Effect.flatMap(HttpApiBuilder.securityDecode(security), checkOf)
    effect = effect === undefined ? check : Effect.catchAll(effect, () => check)
  }
  return effect ?? Effect.void
}

const middlewareOf = (tag: HttpApiMiddleware.TagClassAny, context: Context.Context<never>): Middleware => {
  const implementation = Context.unsafeGet(context, tag as unknown as Context.Tag<unknown, unknown>)
  return {
    tag,
    effect: HttpApiMiddleware.isSecurity(tag)
      ? securityEffect(tag, implementation as Record<string, (credential?: unknown) => AnyEffect>)
      : implementation as AnyEffect
  }
}

/**
 * One request of a route: its middleware in the order they run, then one context change (the
 * group's services, the dispatcher's `entries`, the service each middleware provided), then the
 * answer. A middleware that follows one that provided a service gets that service set first, since
 * it may read it (as under the platform's nested provides).
 */
const routeRun = (middleware: ReadonlyArray<Middleware>, group: Context.Context<never>, answer: AnyEffect) => {
  const from = (i: number, entries: RouteEntries, provided: boolean): AnyEffect => {
    if (i === middleware.length) return Effect.zipRight(enter(group, entries), answer)
    if (provided) return Effect.zipRight(enter(undefined, entries), from(i, [], false))
    const { effect, tag } = middleware[i]!
    const provides = tag.provides as Context.Tag<unknown, unknown> | undefined
    const skip = () => from(i + 1, entries, false)
    const next = provides === undefined
      ? skip
      : (service: unknown) => from(i + 1, [...entries, [provides.key, service]], true)
    return tag.optional
      ? Effect.matchEffect(effect, { onFailure: skip, onSuccess: next })
      : Effect.flatMap(effect, next)
  }
  return (entries: RouteEntries) => from(0, entries, false)
}

/** An endpoint that declares no path, query, header or body schema: nothing of the request is decoded. */
const takesNoInput = (endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps) =>
  Option.isNone(endpoint.pathSchema) && Option.isNone(endpoint.urlParamsSchema) &&
  Option.isNone(endpoint.headersSchema) && Option.isNone(endpoint.payloadSchema)

/**
 * `HttpApiBuilder.group` with the same contract (a layer that adds the group's routes to
 * `HttpApiBuilder.Router`), the same decoding and encoding per endpoint (`endpointEffect`), and the
 * same middleware order (the endpoint's, then the group's, each giving what it provides to the rest).
 * The difference is how the handler gets its services: the platform provides the group's layer
 * context around each handler call (a merge, then a provide with its restore) and each middleware's
 * service around the rest; here they are set on the request's fiber once, after the middleware ran
 * (`routeRun`). Each route also has a direct form (`directRoute.ts`) for Roda's dispatcher, which
 * hands over the route's own context entries to be set in that same change: a middleware then sees
 * the request but not yet `RouteContext` (none of Roda's reads it).
 */
export const apiGroup: typeof HttpApiBuilder.group = ((
  api: { readonly groups: Record<string, HttpApiGroup.HttpApiGroup.AnyWithProps> },
  groupName: string,
  build: (handlers: AnyHandlers) => AnyHandlers | Effect.Effect<AnyHandlers, unknown, unknown>
) =>
  HttpApiBuilder.Router.use((router) =>
    Effect.gen(function*() {
      const groupContext = yield* Effect.context<never>()
      const group = api.groups[groupName]!
      const built = build(handlersWith(group, Chunk.empty()))
      const handlers = Effect.isEffect(built) ? yield* built : built
      const routes = Chunk.map(handlers.handlers, (item) => {
        const endpoint = item.endpoint as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
        const answer = endpointEffect(endpoint, item.handler as (parts: unknown) => AnyEffect, item.withFullRequest)
        // As the platform: one entry per tag, the group's wrapped first, so the endpoint's runs first
        // (the list is reversed into the order they run).
        const tags = new Map([...group.middlewares, ...endpoint.middlewares].map((tag) => [tag.key, tag]))
        const middleware = Array.from(tags.values(), (tag) => middlewareOf(tag, groupContext)).reverse()
        const run = routeRun(middleware, groupContext, answer)
        // Dispatched by the platform, the route's context is already set: nothing to add.
        const route = HttpRouter.makeRoute(endpoint.method, endpoint.path, run([]), {
          uninterruptible: item.uninterruptible
        })
        registerDirectRoute(route as HttpRouter.Route<unknown, unknown>, run)
        const constant = constantAnswerOf(item.handler)
        if (constant !== undefined && takesNoInput(endpoint)) {
          registerConstantRoute(route as HttpRouter.Route<unknown, unknown>, {
            middleware: middleware.map(({ tag }) => tag.key),
            answer: constant
          })
        }
        return route
      })
      yield* router.concat(HttpRouter.fromIterable(routes))
    })
  )) as unknown as typeof HttpApiBuilder.group
