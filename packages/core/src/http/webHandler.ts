import { HttpApiBuilder, HttpApiSwagger, HttpMiddleware, HttpServer } from "@effect/platform"
import { Context, Effect, Layer, ManagedRuntime } from "effect"
import { AccessCatalogLive } from "../commerce/catalogue/AccessCatalogLive"
import { DownsellOffers } from "../commerce/catalogue/DownsellOffers"
import { DownsellOffersHttp, PlansHttp, PricingTiersHttp, ProductsHttp } from "../commerce/catalogue/Http"
import { Plans } from "../commerce/catalogue/Plans"
import { Products } from "../commerce/catalogue/Products"
import { StockLive } from "../commerce/catalogue/StockLive"
import { Tiers } from "../commerce/catalogue/Tiers"
import { Checkout } from "../commerce/checkout/Checkout"
import { CheckoutHttp, CheckoutWebhooksHttp, PurchasesHttp } from "../commerce/checkout/Http"
import { Settlement } from "../commerce/checkout/Settlement"
import { CouponRedemptionLive } from "../commerce/coupons/CouponRedemptionLive"
import { Coupons } from "../commerce/coupons/Coupons"
import { CouponsHttp } from "../commerce/coupons/Http"
import { Communities } from "../communities/Communities"
import { CommunitiesHttp } from "../communities/Http"
import { MembershipsLive } from "../communities/MembershipsLive"
import { Profiles } from "../communities/Profiles"
import { ProfilesHttp } from "../communities/ProfilesHttp"
import { CommunitiesRepo } from "../communities/Repo"
import { Courses } from "../courses/Courses"
import { Curriculum } from "../courses/Curriculum"
import { CoursesHttp } from "../courses/Http"
import { Learning } from "../courses/Learning"
import { AppError } from "../domain/AppError"
import { Messages } from "../domain/Messages"
import { Events } from "../events/Events"
import { EventsHttp } from "../events/Http"
import { Feed } from "../feed/Feed"
import { FeedHttp } from "../feed/Http"
import { IdentityHttp } from "../identity/Http"
import { Identity } from "../identity/Identity"
import { SellingAccounts } from "../money/accounts/Accounts"
import { BusinessInformationHttp, PayoutSettingsHttp, SellingReviewHttp } from "../money/accounts/Http"
import { SellingStatusLive } from "../money/accounts/SellingStatusLive"
import { Fees } from "../money/ledger/Fees"
import { FeeOverridesHttp, FeesHttp, LedgerHttp } from "../money/ledger/Http"
import { Ledger } from "../money/ledger/Ledger"
import { LedgerPostingLive } from "../money/ledger/LedgerPostingLive"
import { PricingLive } from "../money/ledger/PricingLive"
import { Ids } from "../platform/Ids"
import { Mailer } from "../platform/Mailer"
import { Options, type RodaOptions } from "../platform/Options"
import { Passwords } from "../platform/Passwords"
import { type PaymentGateway, sandboxGateway } from "../platform/PaymentGateway"
import { Tokens } from "../platform/Tokens"
import { SearchHttp } from "../search/Http"
import { Search } from "../search/Search"
import { Comments } from "../social/Comments"
import { ContentPosts } from "../social/ContentPosts"
import { ContentHttp, StatusHttp } from "../social/Http"
import { SocialItems } from "../social/items"
import { Reactions } from "../social/Reactions"
import { StatusPosts } from "../social/StatusPosts"
import { DatabaseLive, type DatabaseOptions, ping } from "../sql/Database"
import { AccessLive } from "../structure/AccessLive"
import { EntitlementsLive } from "../structure/EntitlementsLive"
import { SectionsHttp, SpacesHttp } from "../structure/Http"
import { Sections } from "../structure/Sections"
import { Spaces } from "../structure/Spaces"
import { RodaApi } from "./Api"
import { ClientAddress } from "./ClientAddress"
import { envelopeMiddleware } from "./Envelope"
import { errorBody } from "./errorBody"
import { AuthenticatedLive } from "./middleware/Authentication"
import { MemberScopeLive, PublicScopeLive } from "./middleware/live"
import { admit } from "./requestGate"
import { makeRequestTransaction } from "./requestTransaction"

const originOf = (value: string) => URL.canParse(value) ? new URL(value).origin : value

/**
 * CORS: only the configured origins (default: the origin of `publicBaseUrl`) are answered, each
 * reflected with `Vary: Origin`; never `*`. The request headers a browser client may send are named.
 */
const corsOptions = (options: RodaOptions) => {
  const allowed = new Set((options.corsOrigins ?? [options.publicBaseUrl]).map(originOf))
  return {
    allowedOrigins: (origin: string) => allowed.has(origin),
    allowedHeaders: [
      "authorization",
      "content-type",
      "accept-language",
      "x-communityid",
      "x-profileid",
      "idempotency-key"
    ],
    exposedHeaders: ["retry-after", "idempotent-replayed"]
  }
}

export interface RodaConfig {
  readonly database: DatabaseOptions
  readonly options: RodaOptions
  /**
   * The payment provider; when absent, the sandbox (no network), whose webhooks are verified with
   * `options.sandboxWebhookSecret`.
   */
  readonly paymentGateway?: Layer.Layer<PaymentGateway, never, Ids> | undefined
  /**
   * Open a server span (`http.server <method>`, with the request's headers as attributes) for every
   * request. Off by default: nothing exports traces yet, and the span costs on every request.
   */
  readonly tracing?: boolean | undefined
}

/** Database, ports and use-case services: everything but HTTP. */
export const servicesLayer = (config: RodaConfig) => {
  const base = Layer.mergeAll(
    Ids.layer,
    Passwords.layer,
    Layer.succeed(Options, config.options),
    DatabaseLive(config.database)
  )
  const platform = Layer.mergeAll(Tokens.layer, Mailer.layer).pipe(Layer.provideMerge(base))
  // Sections, spaces and the access decision; commerce replaces the default AccessCatalog.
  const structure = Layer.mergeAll(Sections.Default, Spaces.Default, AccessLive, EntitlementsLive).pipe(
    Layer.provideMerge(AccessCatalogLive),
    Layer.provideMerge(config.paymentGateway ?? sandboxGateway({ webhookSecret: config.options.sandboxWebhookSecret })),
    Layer.provideMerge(SellingStatusLive),
    Layer.provideMerge(CouponRedemptionLive),
    Layer.provideMerge(PricingLive),
    Layer.provideMerge(LedgerPostingLive),
    Layer.provideMerge(platform)
  )
  const features = Layer.mergeAll(
    Identity.Default,
    Communities.Default,
    Profiles.Default,
    CommunitiesRepo.Default,
    MembershipsLive,
    Courses.Default,
    Curriculum.Default,
    Learning.Default,
    Events.Default,
    Feed.Default,
    Search.Default,
    SocialItems.Default,
    Reactions.Default,
    Comments.Default,
    StatusPosts.Default,
    ContentPosts.Default,
    SellingAccounts.Default,
    Fees.Default,
    Coupons.Default,
    Ledger.Default,
    Products.Default,
    Plans.Default,
    DownsellOffers.Default,
    Tiers.Default,
    StockLive
  ).pipe(Layer.provideMerge(structure))
  // Checkout builds on the features above (profiles for buyers, coupons, pricing, the ledger).
  return Checkout.Default.pipe(Layer.provideMerge(Settlement.Default), Layer.provideMerge(features))
}

/** The HttpApi with its handlers, middleware, the OpenAPI document and the docs page. */
export const apiLayer = <E, R>(services: Layer.Layer<R, E>) => {
  const groups = Layer.mergeAll(
    IdentityHttp,
    CommunitiesHttp,
    ProfilesHttp,
    SectionsHttp,
    SpacesHttp,
    CoursesHttp,
    EventsHttp,
    FeedHttp,
    SearchHttp,
    StatusHttp,
    ContentHttp,
    BusinessInformationHttp,
    PayoutSettingsHttp,
    SellingReviewHttp,
    FeesHttp,
    CouponsHttp,
    CheckoutHttp,
    CheckoutWebhooksHttp,
    PurchasesHttp,
    FeeOverridesHttp,
    LedgerHttp,
    ProductsHttp,
    PlansHttp,
    DownsellOffersHttp,
    PricingTiersHttp
  )
  const middleware = Layer.mergeAll(AuthenticatedLive, MemberScopeLive, PublicScopeLive)
  const envelope = envelopeMiddleware(RodaApi)
  const api = HttpApiBuilder.api(RodaApi).pipe(Layer.provide(groups), Layer.provide(middleware))
  return Layer.mergeAll(
    HttpApiBuilder.middlewareOpenApi({ path: "/api/openapi.json" }),
    HttpApiSwagger.layer({ path: "/api/docs" }),
    HttpApiBuilder.middleware(Effect.gen(function*() {
      const cors = HttpMiddleware.cors(corsOptions(yield* Options))
      const inTransaction = yield* makeRequestTransaction
      return (app) => cors(envelope(inTransaction(app)))
    })),
    HttpServer.layerContext
  ).pipe(Layer.provideMerge(api), Layer.provideMerge(services))
}

/**
 * The web handler always wraps the app in `HttpMiddleware.tracer`; unless tracing is on, its
 * predicate is set to skip every request (scoped, so the handler's runtime keeps it).
 */
const tracingLayer = (enabled: boolean) =>
  enabled ? Layer.empty : Layer.locallyScoped(HttpMiddleware.currentTracerDisabledWhen, () => true)

export interface RequestInfo {
  /** The client's address, for sign-in throttling. */
  readonly clientAddress?: string | undefined
}

export interface Roda {
  /** A web-standard handler: mount it in any backend that speaks `Request`/`Response`. */
  readonly handler: (request: Request, info?: RequestInfo) => Promise<Response>
  /** Resolves when the database answers (readiness). */
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

const settledWithin = async (promises: ReadonlyArray<Promise<unknown>>, ms: number) => {
  let timer: ReturnType<typeof setTimeout> | undefined
  await Promise.race([
    Promise.allSettled(promises),
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms)
    })
  ])
  clearTimeout(timer)
}

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
export const makeRoda = (config: RodaConfig): Roda => {
  const memoMap = Effect.runSync(Layer.makeMemoMap)
  const services = servicesLayer(config)
  const runtime = ManagedRuntime.make(services, memoMap)
  const web = HttpApiBuilder.toWebHandler(Layer.merge(apiLayer(services), tracingLayer(config.tracing === true)), {
    memoMap
  })
  // The requests being handled, so that dispose closes the database only after them.
  const inFlight = new Set<Promise<Response>>()
  let disposing = false
  const run = async (request: Request, info?: RequestInfo) => {
    const admitted = await admit(request)
    if (admitted instanceof Response) return admitted
    // The client left while its body was read: the fiber would never hear of it.
    if (admitted.signal.aborted) return new Response(null, { status: 499 })
    const context = info?.clientAddress ? Context.make(ClientAddress, info.clientAddress) : undefined
    return web.handler(admitted, context)
  }
  /** Aborting `request.signal` (the client left) interrupts the request's fiber. */
  const handler = (request: Request, info?: RequestInfo) => {
    if (disposing) return Promise.resolve(unavailable(request))
    const answer = run(request, info)
    inFlight.add(answer)
    const forget = () => inFlight.delete(answer)
    answer.then(forget, forget)
    return answer
  }
  return {
    handler,
    runtime,
    ready: () => runtime.runPromise(ping),
    dispose: async (graceMs = DISPOSE_GRACE_MS) => {
      disposing = true
      await settledWithin([...inFlight], graceMs)
      await web.dispose()
      await runtime.dispose()
    }
  }
}
