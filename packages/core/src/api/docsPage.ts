import { HttpApi, HttpApiBuilder, HttpBody, HttpServerRequest, HttpServerResponse, OpenApi } from "@effect/platform"
import { Effect, Layer } from "effect"

const PATH = "/api/docs"

/**
 * Sets Scalar's `servers` from the URL the page was loaded at (`…/api/docs` without `/api/docs`):
 * the document's relative server (`..`) is resolved by Scalar against the origin alone, so "Test
 * request" would drop the prefix a host mounts Roda under. Roda never sees that prefix (hosts strip
 * it), so only the browser can tell.
 */
const serverFromLocation = `<script>
      (function () {
        var element = document.getElementById('api-reference')
        var configuration = JSON.parse(element.dataset.configuration || '{}')
        var base = window.location.origin + window.location.pathname.replace(/\\/api\\/docs\\/?$/, '')
        configuration.servers = [{ url: base, description: 'Where this page is served, without /api/docs' }]
        element.dataset.configuration = JSON.stringify(configuration)
      })()
    </script>`

/** Where the script goes: right after the script that sets Scalar's configuration, before Scalar's own. */
const CONFIGURATION = "dataset.configuration = JSON.stringify("

const withServerFromLocation = (html: string) => {
  const configuration = html.indexOf(CONFIGURATION)
  const end = configuration === -1 ? -1 : html.indexOf("</script>", configuration)
  if (end === -1) return html
  const at = end + "</script>".length
  return `${html.slice(0, at)}\n    ${serverFromLocation}${html.slice(at)}`
}

const pageRequest = (url: string) => url === PATH || url.startsWith(`${PATH}?`) || url.startsWith(`${PATH}#`)

const serversMiddleware = HttpApiBuilder.middleware((app) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    request.method !== "GET" || !pageRequest(request.url)
      ? app
      : Effect.map(app, (response) =>
        response.status === 200 && response.body._tag === "Uint8Array"
          ? HttpServerResponse.setBody(
            response,
            HttpBody.text(withServerFromLocation(new TextDecoder().decode(response.body.body)), "text/html")
          )
          : response))
)

const scalar = {
  path: PATH,
  scalar: {
    layout: "modern",
    showSidebar: true,
    hideSearch: false,
    hideModels: false,
    withDefaultFonts: false,
    defaultOpenAllTags: false
  }
} as const

/**
 * Scalar's page, made on its first request: it embeds the whole OpenAPI document, whose making
 * (schemas, examples, polish) would otherwise be part of every start. Effect builds it when its
 * route is registered, so the route is registered in a router of its own, built once on demand.
 * Scalar's module (a 3.3 MB script in a string) is loaded then too, not parsed and kept by every start.
 */
const scalarPage = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const api = yield* HttpApi.Api
    const page = yield* Effect.cached(
      Effect.promise(() => import("@effect/platform/HttpApiScalar")).pipe(
        Effect.flatMap((HttpApiScalar) =>
          HttpApiBuilder.Router.router.pipe(
            Effect.provide(
              HttpApiScalar.layer(scalar).pipe(
                Layer.provideMerge(HttpApiBuilder.Router.Live),
                Layer.provide(Layer.succeed(HttpApi.Api, api))
              )
            )
          )
        )
      )
    )
    yield* router.get(PATH, Effect.flatten(page))
  })
)

/** The OpenAPI document (`/api/openapi.json`), made on its first request, for the same reason. */
export const openApiDocument = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const { api } = yield* HttpApi.Api
    const document = yield* Effect.cached(
      Effect.suspend(() => HttpServerResponse.json(OpenApi.fromApi(api))).pipe(Effect.orDie)
    )
    yield* router.get("/api/openapi.json", document)
  })
)

/**
 * The docs page (`/api/docs`): Scalar's API reference with a sidebar, search (also `/` or ⌘K) and deep
 * links (`#tag/…`, `#tag/…/…` per operation). Scalar's script is inlined in the page by
 * `HttpApiScalar.layer`, and its default fonts (fetched from a CDN) are off, so the page works offline.
 */
export const docsPage = Layer.merge(scalarPage, serversMiddleware)
