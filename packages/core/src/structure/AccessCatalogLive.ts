import { Effect, Layer, Option } from "effect"
import { AccessCatalog } from "./Access"

/**
 * The default catalogue, until commerce (plans and products) answers for real: no grant exists, so
 * any access grant on a space is refused with 400.
 */
export const AccessCatalogLive = Layer.succeed(AccessCatalog, {
  firstUnknown: (_communityId, grants) =>
    Effect.succeed(Option.fromNullable([...grants.subscriptionGroupIds, ...grants.productIds][0]))
})
