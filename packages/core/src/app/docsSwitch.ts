import { HttpApiBuilder, type HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, type Layer } from "effect"
import { AppError } from "../domain/AppError"
import { Messages } from "../domain/Messages"
import { Options } from "../platform/Options"
import { errorBody } from "./errorBody"

/** The OpenAPI document and the docs page. */
const DOCS = /^\/api\/(?:openapi\.json|docs)(?:[/?]|$)/

/** With `options.docs: false`, the document and the docs page answer 404 like any unknown route. */
export const docsSwitch: Layer.Layer<never, never, Options> = HttpApiBuilder.middleware(Effect.gen(function*() {
  const { docs } = yield* Options
  const off = (app: HttpApp.Default): HttpApp.Default =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      DOCS.test(request.url)
        ? HttpServerResponse.json(
          errorBody(new AppError({ status: 404, text: Messages.routeNotFound }), request.headers["accept-language"]),
          { status: 404 }
        ).pipe(Effect.orDie)
        : app)
  const on = (app: HttpApp.Default): HttpApp.Default => app
  return docs === false ? off : on
}))
