import {
  HttpApiBuilder,
  type HttpApp,
  type HttpRouter,
  HttpServerRequest,
  type HttpServerResponse
} from "@effect/platform"
import { Effect, Option } from "effect"
import { languageOf } from "../domain/Text"
import { type ConstantRoute, constantRouteOf } from "../http/engine/constantRoute"
import { Options } from "../platform/Options"
import { makeCors } from "./cors"
import { passesWithoutState, type PlainHeaders } from "./middleware/live"

/** What a request is read for before the app runs: its method, URL and headers (lower-case names, as Node's). */
export interface PlainRequest {
  readonly method: string
  readonly url: string
  readonly headers: PlainHeaders
}

/** The app's answer to a request without running it, or undefined when the request must go through the app. */
export type AnswerAtOnce = (request: PlainRequest) => HttpServerResponse.HttpServerResponse | undefined

const firstOf = (value: string | ReadonlyArray<string> | undefined) => typeof value === "string" ? value : value?.[0]

/**
 * The answers the app would give without running it: a `GET` of a constant route (`http/engine/constantRoute.ts`:
 * an answer that depends only on the language, e.g. the catalogue of space modules) whose middleware
 * all let the request through by its headers alone (`passesWithoutState`). What the app's layers
 * around the routes would do to such an answer is done here too: the request gate refuses only a URL
 * with an escaped NUL or a body (left to it), the envelope and the request transaction leave a
 * success of a `GET` alone, and CORS adds its headers (`makeCors`). Everything else, every failure
 * included, goes through the app, so each answer given here is one the app gives (a test compares
 * them, request by request).
 *
 * Such a request then costs what Node's HTTP server costs: no fiber, no interpreter step, no context
 * copy; a third of the CPU of the same answer through the app.
 */
export const makeAnswerAtOnce: Effect.Effect<AnswerAtOnce, never, HttpApiBuilder.Router | Options> = Effect.gen(
  function*() {
    const router = yield* HttpApiBuilder.Router.router
    const cors = makeCors(yield* Options)
    const constants = new Map<string, ConstantRoute>()
    for (const route of router.routes) {
      const constant = constantRouteOf(route as HttpRouter.Route<unknown, unknown>)
      if (
        constant === undefined || route.method !== "GET" || Option.isSome(route.prefix) ||
        /[:*]/.test(route.path) || !constant.middleware.every((key) => passesWithoutState.has(key))
      ) continue
      constants.set(route.path, constant)
    }
    if (constants.size === 0) return () => undefined
    return (request) => {
      if (request.method !== "GET") return undefined
      const { headers, url } = request
      const query = url.indexOf("?")
      const constant = constants.get(query === -1 ? url : url.slice(0, query))
      if (
        constant === undefined || url.includes("%00") || headers["content-length"] !== undefined ||
        headers["transfer-encoding"] !== undefined
      ) return undefined
      for (const key of constant.middleware) {
        if (!passesWithoutState.get(key)!(headers)) return undefined
      }
      return cors.decorate(constant.answer(languageOf(firstOf(headers["accept-language"]))), firstOf(headers["origin"]))
    }
  }
)

/**
 * `app` answering first what `answerAtOnce` gives: for an adapter that runs the app for every
 * request (the web handler), which still saves the app's layers, routing and middleware.
 */
export const withAnswersAtOnce = <E, R>(
  app: HttpApp.Default<E, R>,
  answerAtOnce: AnswerAtOnce
): HttpApp.Default<E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const atOnce = answerAtOnce(request)
    return atOnce === undefined ? app : Effect.succeed(atOnce)
  })
