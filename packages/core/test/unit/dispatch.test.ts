import {
  HttpApi,
  HttpApiBuilder,
  HttpRouter,
  HttpServer,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { apiHttpApp } from "../../src/http/engine/dispatch"

const echoUrl = Effect.map(HttpServerRequest.HttpServerRequest, (request) => HttpServerResponse.text(request.url))

const routes = HttpRouter.empty.pipe(
  HttpRouter.get("/plain", echoUrl),
  HttpRouter.concat(HttpRouter.empty.pipe(HttpRouter.get("/seen", echoUrl), HttpRouter.prefixAll("/p")))
)

const ApiLive = HttpApiBuilder.api(HttpApi.make("dispatch-test")).pipe(
  Layer.provideMerge(HttpApiBuilder.Router.use((router) => router.concat(routes))),
  Layer.provideMerge(HttpApiBuilder.Router.Live),
  Layer.provideMerge(HttpApiBuilder.Middleware.layer)
)

/** Runs `url` through the dispatch, and reads the request the code around it sees afterwards. */
const call = (url: string) =>
  Effect.gen(function*() {
    const app = yield* apiHttpApp
    const request = HttpServerRequest.fromWeb(new Request(`http://roda.test${url}`))
    const after = Effect.flatMap(app, (response) =>
      Effect.map(HttpServerRequest.HttpServerRequest, (seen) => ({ response, urlAfter: seen.url })))
    const { response, urlAfter } = yield* after.pipe(
      Effect.provideService(HttpServerRequest.HttpServerRequest, request),
      Effect.scoped
    )
    return {
      body: yield* Effect.promise(() =>
        HttpServerResponse.toWeb(response).text()
      ),
      urlAfter
    }
  }).pipe(Effect.provide(ApiLive), Effect.provide(HttpServer.layerContext), Effect.runPromise)

describe("apiHttpApp dispatch", () => {
  it("gives a prefixed route the sliced request, and the code around it the whole one afterwards", async () => {
    expect(await call("/p/seen")).toEqual({ body: "/seen", urlAfter: "/p/seen" })
  })

  it("answers a route without a prefix with the request as it came", async () => {
    expect(await call("/plain?x=1")).toEqual({ body: "/plain?x=1", urlAfter: "/plain?x=1" })
  })
})
