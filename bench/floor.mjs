// The framework floor for bench/sideBySide.mjs: the static route (`GET /api/spaces/modules`) served by a bare
// Effect `HttpApi` the way Roda serves its own (`makeAppHandler` of @roda/http-node on node:http), with nothing of
// Roda: one group, one endpoint, the `X-CommunityId` header decoded as a UUID, the same success schema shape
// and the same JSON, tracing off as in Roda by default. No middleware, no envelope, no request log. What it
// reaches is the most any route built on `HttpApi` can reach on this machine; Roda's static route is measured
// against it as well as against the raw server.
//
// Env: PORT, MODULES_JSON (file with the catalogue Roda answered).
import { readFileSync } from "node:fs"
import http from "node:http"
import { createRequire } from "node:module"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

// The bench sits outside the workspace packages: Effect is resolved as the Node adapter resolves it.
const adapter = createRequire(
  join(resolve(dirname(fileURLToPath(import.meta.url)), ".."), "packages/http-node/package.json")
)
const load = (name) => import(adapter.resolve(name))
const { Effect, Layer, ManagedRuntime, Schema } = await load("effect")
const { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpMiddleware, HttpServer } = await load(
  "@effect/platform"
)
// The adapter Roda's server uses (the built library: run `pnpm build` first, as `pnpm bench` does).
const { makeAppHandler } = await import(
  join(resolve(dirname(fileURLToPath(import.meta.url)), ".."), "packages/http-node/dist/index.js")
)

const modules = process.env.MODULES_JSON ? JSON.parse(readFileSync(process.env.MODULES_JSON, "utf8")) : []

const Module = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.String,
  available: Schema.Boolean
})
const Category = Schema.Struct({ id: Schema.String, name: Schema.String, modules: Schema.Array(Module) })
const Answer = Schema.Struct({ success: Schema.Literal(true), message: Schema.String, data: Schema.Array(Category) })

const Api = HttpApi.make("floor").add(
  HttpApiGroup.make("spaces").add(
    HttpApiEndpoint.get("modules", "/api/spaces/modules")
      .setHeaders(Schema.Struct({ "x-communityid": Schema.UUID }))
      .addSuccess(Answer)
  )
)
const Spaces = HttpApiBuilder.group(
  Api,
  "spaces",
  (handlers) =>
    handlers.handle(
      "modules",
      () => Effect.succeed({ success: true, message: "Módulos de espaço disponíveis.", data: modules })
    )
)
const runtime = ManagedRuntime.make(
  Layer.mergeAll(
    HttpApiBuilder.api(Api).pipe(Layer.provide(Spaces)),
    HttpServer.layerContext,
    HttpApiBuilder.Router.Live,
    HttpApiBuilder.Middleware.layer,
    // Tracing off, as in Roda without OTEL_EXPORTER_OTLP_ENDPOINT: no span per request or per effect.
    Layer.setTracerEnabled(false),
    Layer.locallyScoped(HttpMiddleware.currentTracerDisabledWhen, () => true)
  )
)
const app = await runtime.runPromise(HttpApiBuilder.httpApp)
const handler = makeAppHandler(app, await runtime.runtime())

http.createServer((req, res) => {
  if (req.url === "/healthz") {
    res.writeHead(200, { "content-type": "application/json" })
    res.end(JSON.stringify({ status: "ok" }))
  } else handler(req, res)
}).listen(Number(process.env.PORT ?? 4303), "127.0.0.1")
