import type { HttpRouter, HttpServerResponse } from "@effect/platform"
import type { Language } from "../../domain/Text"

/**
 * A route whose success answer depends on nothing but the request's language (its handler was made
 * by `constantPlainJson`, and its endpoint declares no path, query, header or body schema), with
 * the keys of the middleware that run before it, in that order. An app may answer such a route
 * without running it when every one of those middleware is known to let the request through
 * without reading anything (`app/answerAtOnce.ts`).
 */
export interface ConstantRoute {
  readonly middleware: ReadonlyArray<string>
  readonly answer: (language: Language) => HttpServerResponse.HttpServerResponse
}

const constantRoutes = new WeakMap<HttpRouter.Route<unknown, unknown>, ConstantRoute>()

/** Records that `route` (as made, not prefixed) always succeeds with `constant.answer`. */
export const registerConstantRoute = (route: HttpRouter.Route<unknown, unknown>, constant: ConstantRoute) => {
  constantRoutes.set(route, constant)
}

/** What `route` always answers, if its group said so (`apiGroup` does for constant handlers). */
export const constantRouteOf = (route: HttpRouter.Route<unknown, unknown>): ConstantRoute | undefined =>
  constantRoutes.get(route)
