import { HttpApiBuilder, HttpApp, HttpMiddleware, HttpServer } from "@effect/platform"
import type { HttpRouter, HttpServerRequest } from "@effect/platform"
import { Context, Effect, Either, Layer, Logger, ManagedRuntime, Runtime, type Scope } from "effect"
import { docsPage, openApiDocument } from "../api/docsPage"
import { RodaApi } from "../api/RodaApi"
import { AppError } from "../domain/AppError"
import { Messages } from "../domain/Messages"
import { ClientAddress } from "../http/ClientAddress"
import { apiHttpApp } from "../http/engine/dispatch"
import type { HeaderLookup } from "../http/proxy/forwarded"
import { resolveClient } from "../http/proxy/resolveClient"
import { parseTrustProxy } from "../http/proxy/trustProxy"
import { Options } from "../platform/Options"
import { ping } from "../sql/Database"
import { type AnswerAtOnce, makeAnswerAtOnce, withAnswersAtOnce } from "./answerAtOnce"
import type { RodaConfig } from "./config"
import { contractsLayer } from "./contracts"
import { corsMiddleware } from "./cors"
import { docsSwitch } from "./docsSwitch"
import { envelopeMiddleware } from "./Envelope"
import { errorBody } from "./errorBody"
import { featureHandlers, featureServices } from "./features"
import { makeInFlight } from "./inFlight"
import { AuthenticatedLive } from "./middleware/Authentication"
import { DeferredMemberScopeLive, DeferredPublicScopeLive, MemberScopeLive, PublicScopeLive } from "./middleware/live"
import { platformLayer } from "./platform"
import { admit, gate } from "./requestGate"
import { makeRequestTransaction } from "./requestTransaction"
import { schedulerLayer } from "./scheduler"
import { startFailure } from "./startFailure"
import { validateConfig } from "./validateConfig"

export type { RodaConfig } from "./config"

const tracingOn = (config: RodaConfig) => config.tracing === true || config.tracer !== undefined

/** Database, ports and the contracts between features: what every feature builds on. */
export const infrastructureLayer = (config: RodaConfig) =>
  contractsLayer.pipe(
    Layer.provideMerge(platformLayer(config)),
    Layer.provideMerge(telemetryLayer(config)),
    Layer.provideMerge(loggerLayer(config)),
    Layer.provideMerge(schedulerLayer)
  )

const servicesOn = <A, E, R>(infrastructure: Layer.Layer<A, E, R>) =>
  featureServices.pipe(Layer.provideMerge(infrastructure))

/** Database, ports, contracts and every feature's use-case services: everything but HTTP. */
export const servicesLayer = (config: RodaConfig) => servicesOn(infrastructureLayer(config))

/** `config.logger` in place of Effect's default logger, for every runtime. */
const loggerLayer = (config: RodaConfig): Layer.Layer<never> =>
  config.logger === undefined ? Layer.empty : Logger.replace(Logger.defaultLogger, config.logger)

/**
 * The configured tracer, installed once for every runtime (services, web handler, HttpApp). With
 * tracing off, spans are switched off altogether: `Effect.fn` and every SQL statement would
 * otherwise open one that nothing reads.
 */
const telemetryLayer = (config: RodaConfig) => {
  if (!tracingOn(config)) return Layer.setTracerEnabled(false)
  return config.tracer === undefined ? Layer.empty : Layer.unwrapScoped(Effect.map(config.tracer, Layer.setTracer))
}

/**
 * The HttpApi with its handlers, middleware, the OpenAPI document and the docs page, built on
 * `infrastructure` (`infrastructureLayer`) alone: each feature's handlers get their own services
 * (`http/Feature.ts`) and reach the others only through contracts. That is also what each request
 * pays for: every handler call merges its group's build context into the request's, a copy as large
 * as that context (about 40 services instead of 80).
 */
export const apiLayer = <A, E, R>(infrastructure: Layer.Layer<A, E, R>) => {
  const middleware = Layer.mergeAll(
    AuthenticatedLive,
    MemberScopeLive,
    DeferredMemberScopeLive,
    PublicScopeLive,
    DeferredPublicScopeLive
  )
  const envelope = envelopeMiddleware(RodaApi)
  const api = HttpApiBuilder.api(RodaApi).pipe(Layer.provide(featureHandlers), Layer.provide(middleware))
  return Layer.mergeAll(
    openApiDocument,
    docsPage,
    docsSwitch,
    HttpApiBuilder.middleware(Effect.gen(function*() {
      const cors = corsMiddleware(yield* Options)
      const inTransaction = yield* makeRequestTransaction
      return (app) => cors(envelope(inTransaction(app)))
    })),
    HttpServer.layerContext
  ).pipe(Layer.provideMerge(api), Layer.provideMerge(infrastructure))
}

/**
 * The web handler always wraps the app in `HttpMiddleware.tracer`; unless tracing is on, its
 * predicate is set to skip every request (scoped, so the handler's runtime keeps it).
 */
const tracingLayer = (enabled: boolean) =>
  enabled ? Layer.empty : Layer.locallyScoped(HttpMiddleware.currentTracerDisabledWhen, () => true)

export interface RequestInfo {
  /**
   * The address of the peer that sent the request (the socket's). It is the client's unless
   * `options.trustProxy` trusts it as a proxy: then the client is read from its `Forwarded` or
   * `X-Forwarded-For` header. A host that already resolved the client itself (Express's `req.ip`
   * with its own `trust proxy`) passes that, and leaves `trustProxy` unset.
   */
  readonly clientAddress?: string | undefined
}

/**
 * Roda as an Effect `HttpApp` with the runtime to run it: for adapters that serve it directly (the
 * Node server does, through `@effect/platform-node`), without building a web `Request` and
 * `Response` per request. It answers exactly as `handler` does (same gate, middleware and routes);
 * the adapter tracks its requests in flight itself (`dispose` waits only for `handler`'s).
 */
export interface RodaHttpApp {
  readonly app: HttpApp.Default<
    never,
    HttpServerRequest.HttpServerRequest | Scope.Scope | HttpRouter.HttpRouter.DefaultServices
  >
  readonly runtime: Runtime.Runtime<HttpRouter.HttpRouter.DefaultServices>
  /**
   * The answers `app` would give that need no fiber (a constant route's, `answerAtOnce.ts`): an
   * adapter may write them at once and run `app` only when this gives none.
   */
  readonly answerAtOnce: AnswerAtOnce
  /**
   * The client of a request from `peer` with these headers (`options.trustProxy`): the adapter puts
   * it in the request's context as `ClientAddress`, and may log it.
   */
  readonly clientAddress: (peer: string | undefined, header: HeaderLookup) => string | undefined
}

export interface Roda {
  /** A web-standard handler: mount it in any backend that speaks `Request`/`Response`. */
  readonly handler: (request: Request, info?: RequestInfo) => Promise<Response>
  /** The same API as an Effect HttpApp (built on first call). */
  readonly httpApp: () => Promise<RodaHttpApp>
  /**
   * Resolves when the database answers (readiness), opening and migrating it first: await it before
   * serving, so that the first request is not the one that migrates. Rejects with a `RodaStartError`
   * saying why the database cannot be used (refused connection, unknown database, a bundled PGlite).
   */
  readonly ready: () => Promise<void>
  /**
   * Refuses new requests (503), waits for those in flight (at most `graceMs`, default 10 s; abort a
   * request's signal to interrupt it), then closes the database.
   */
  readonly dispose: (graceMs?: number) => Promise<void>
  /** The runtime of the services (database, ports, use cases) the handler uses. */
  readonly runtime: ManagedRuntime.ManagedRuntime<Layer.Layer.Success<ReturnType<typeof servicesLayer>>, never>
}

/** How long dispose waits for the requests in flight before closing the database anyway. */
const DISPOSE_GRACE_MS = 10_000

/** The answer to a request that arrives once Roda is being disposed: 503, retry elsewhere or later. */
const unavailable = (request: Request) =>
  Response.json(
    errorBody(
      new AppError({ status: 503, text: Messages.serviceUnavailable }),
      request.headers.get("accept-language") ?? undefined
    ),
    { status: 503, headers: { "retry-after": "1", connection: "close" } }
  )

/** Builds Roda: migrations run on first use, then every request goes through the same HttpApi. */
export const makeRoda = (given: RodaConfig): Roda => {
  validateConfig(given)
  const config: RodaConfig = { ...given, publicUrl: given.publicUrl ?? "record" }
  const trustRule = Either.getOrThrow(parseTrustProxy(config.options.trustProxy))
  const clientAddress = (peer: string | undefined, header: HeaderLookup) =>
    resolveClient(trustRule, peer, header).address
  const memoMap = Effect.runSync(Layer.makeMemoMap)
  const infrastructure = infrastructureLayer(config)
  const runtime = ManagedRuntime.make(servicesOn(infrastructure), memoMap)
  // One API layer for both paths: built once through the shared memo map (so is the infrastructure).
  const api = apiLayer(infrastructure)
  const web = HttpApp.toWebHandlerLayerWith(
    Layer.mergeAll(api, tracingLayer(tracingOn(config)), HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer),
    {
      memoMap,
      toHandler: (runtime) => Effect.provide(Effect.zipWith(apiHttpApp, makeAnswerAtOnce, withAnswersAtOnce), runtime)
    }
  )
  const direct = ManagedRuntime.make(
    Layer.mergeAll(
      api,
      HttpApiBuilder.Router.Live,
      HttpApiBuilder.Middleware.layer,
      tracingLayer(tracingOn(config))
    ),
    memoMap
  )
  let served: Promise<RodaHttpApp> | undefined
  const httpApp = () =>
    served ??= direct.runtime().then((runtime) =>
      Runtime.runPromise(runtime)(
        Effect.zipWith(apiHttpApp, makeAnswerAtOnce, (app, answerAtOnce) => ({
          app: gate(app),
          runtime,
          answerAtOnce,
          clientAddress
        }))
      )
    )
  // The requests being handled, so that dispose closes the database only after them.
  const inFlight = makeInFlight()
  let disposing = false
  const run = async (request: Request, info?: RequestInfo) => {
    const admitted = await admit(request)
    if (admitted.refused !== undefined) return admitted.refused
    // The client left while its body was read: the fiber would never hear of it.
    if (admitted.request.signal.aborted) return new Response(null, { status: 499 })
    const headers = admitted.request.headers
    const address = clientAddress(info?.clientAddress, (name) => headers.get(name))
    const context = address ? Context.make(ClientAddress, address) : undefined
    return web.handler(admitted.request, context)
  }
  /** Aborting `request.signal` (the client left) interrupts the request's fiber. */
  const handler = (request: Request, info?: RequestInfo) => {
    if (disposing) return Promise.resolve(unavailable(request))
    const answer = run(request, info)
    inFlight.track(answer)
    return answer
  }
  return {
    handler,
    httpApp,
    runtime,
    ready: () => runtime.runPromise(ping).catch((error: unknown) => Promise.reject(startFailure(error))),
    dispose: async (graceMs = DISPOSE_GRACE_MS) => {
      disposing = true
      await inFlight.settled(graceMs)
      await web.dispose()
      await direct.dispose()
      await runtime.dispose()
    }
  }
}
