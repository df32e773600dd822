import { HttpApiBuilder, HttpApiMiddleware, HttpRouter } from "@effect/platform"
import type { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Chunk, Context, Effect, FiberRef } from "effect"
import { identity } from "effect/Function"
import { pipeArguments } from "effect/Pipeable"
import { endpointEffect } from "./endpointRoute"

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
 * Changes the request fiber's context for the rest of the request. Each request has a fiber of its
 * own, and what the code around a handler reads (the request, the route) is never replaced here, so
 * the restore of `Effect.provide` (an acquire/use/release and a second context change, the largest
 * share of a static route's framework cost) buys nothing.
 */
const updateContext = (f: (context: Context.Context<never>) => Context.Context<never>) =>
  FiberRef.update(FiberRef.currentContext, f)

interface Middleware {
  readonly tag: HttpApiMiddleware.TagClassAny
  readonly effect: AnyEffect
}

/** A security middleware: each scheme's credential decoded then checked, the next scheme tried on failure. */
const securityEffect = (
  tag: HttpApiMiddleware.TagClassSecurityAny,
  implementation: Record<string, (credential: unknown) => AnyEffect>
) => {
  let effect: AnyEffect | undefined
  for (const [name, security] of Object.entries(tag.security)) {
    const check = Effect.flatMap(HttpApiBuilder.securityDecode(security), implementation[name]!)
    effect = effect === undefined ? check : Effect.catchAll(effect, () => check)
  }
  return effect ?? Effect.void
}

const middlewareOf = (tag: HttpApiMiddleware.TagClassAny, context: Context.Context<never>): Middleware => {
  const implementation = Context.unsafeGet(context, tag as unknown as Context.Tag<unknown, unknown>)
  return {
    tag,
    effect: HttpApiMiddleware.isSecurity(tag)
      ? securityEffect(tag, implementation as Record<string, (credential: unknown) => AnyEffect>)
      : implementation as AnyEffect
  }
}

/** Runs a middleware before `next`, giving `next` the service it provides. */
const withMiddleware = (next: AnyEffect, { effect, tag }: Middleware): AnyEffect => {
  const provides = tag.provides as Context.Tag<unknown, unknown> | undefined
  const provide = provides === undefined
    ? () => next
    : (service: unknown) => Effect.zipRight(updateContext(Context.add(provides, service)), next)
  return tag.optional
    ? Effect.matchEffect(effect, { onFailure: () => next, onSuccess: provide })
    : Effect.flatMap(effect, provide)
}

/**
 * `HttpApiBuilder.group` with the same contract (a layer that adds the group's routes to
 * `HttpApiBuilder.Router`), the same decoding and encoding per endpoint (`endpointEffect`), and the
 * same middleware order (the endpoint's, then the group's, each giving what it provides to the rest).
 * The difference is how the handler gets its services: the platform provides the group's layer
 * context around each handler call (a merge, then a provide with its restore); here the merge is set
 * on the request's fiber once, and each middleware's service likewise (see `updateContext`).
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
      const inGroup = updateContext((context) => Context.merge(groupContext, context))
      const routes = Chunk.map(handlers.handlers, (item) => {
        const endpoint = item.endpoint as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
        const answer = endpointEffect(endpoint, item.handler as (parts: unknown) => AnyEffect, item.withFullRequest)
        // As the platform: one entry per tag, the group's wrapped first, so the endpoint's runs first.
        const tags = new Map([...group.middlewares, ...endpoint.middlewares].map((tag) => [tag.key, tag]))
        const middleware = Array.from(tags.values(), (tag) => middlewareOf(tag, groupContext))
        const handler = middleware.reduce(withMiddleware, Effect.zipRight(inGroup, answer))
        return HttpRouter.makeRoute(endpoint.method, endpoint.path, handler, { uninterruptible: item.uninterruptible })
      })
      yield* router.concat(HttpRouter.fromIterable(routes))
    })
  )) as unknown as typeof HttpApiBuilder.group
