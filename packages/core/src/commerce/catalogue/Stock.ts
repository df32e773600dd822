import { Context, type Effect } from "effect"
import type { CommunityId } from "../../domain/Ids"

/**
 * The stock of products that keep one (`hasStock`). The catalogue owns `products.stock_quantity`;
 * checkout takes and returns units through this contract, inside its own transaction (`StockLive`
 * runs on the context's SqlClient, so a take is one conditional UPDATE of that transaction).
 */
export class Stock extends Context.Tag("@roda/core/Stock")<Stock, {
  /** Takes one unit; false when none is left (never below zero). */
  readonly take: (communityId: CommunityId, productId: string) => Effect.Effect<boolean>
  /** Gives back one unit (a pending charge expired); nothing for a product that keeps no stock. */
  readonly giveBack: (communityId: CommunityId, productId: string) => Effect.Effect<void>
}>() {}
