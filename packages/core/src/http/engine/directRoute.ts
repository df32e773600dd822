import type { HttpRouter } from "@effect/platform"
import type { Effect } from "effect"

/** Context entries (a tag's key and its service) that a dispatcher adds for one request. */
export type RouteEntries = ReadonlyArray<readonly [string, unknown]>

/**
 * A route's effect taking what the dispatcher found (its `RouteContext` and `ParsedSearchParams`)
 * as entries to add, so that the route sets them with its own services in one context change
 * instead of the dispatcher setting them first.
 */
export type DirectRoute = (entries: RouteEntries) => Effect.Effect<unknown, unknown, unknown>

const directRoutes = new WeakMap<HttpRouter.Route<unknown, unknown>, DirectRoute>()

/** Records that `route` (as made, not prefixed) also answers through `direct`. */
export const registerDirectRoute = (route: HttpRouter.Route<unknown, unknown>, direct: DirectRoute) => {
  directRoutes.set(route, direct)
}

/** The direct form of `route`, if the group that made it gave one (`apiGroup` does). */
export const directRouteOf = (route: HttpRouter.Route<unknown, unknown>): DirectRoute | undefined =>
  directRoutes.get(route)
