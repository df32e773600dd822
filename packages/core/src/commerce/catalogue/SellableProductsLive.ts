import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { PaymentMethod } from "../../domain/Money"
import { billingIntervals, productStatuses, productTypes } from "./Policy"
import { SellableProducts } from "./SellableProducts"

const SellableRow = Schema.Struct({
  id: Schema.String,
  type: Schema.Literal(...productTypes),
  title: Schema.String,
  price: Schema.Number,
  currency: Schema.String,
  billingInterval: Schema.NullOr(Schema.Literal(...billingIntervals)),
  allowedPaymentMethods: Schema.Array(PaymentMethod),
  hasStock: Schema.Boolean,
  stockQuantity: Schema.NullOr(Schema.Number),
  status: Schema.Literal(...productStatuses)
})
const decodeProducts = Schema.decodeUnknown(Schema.Array(SellableRow))
const decodeGroups = Schema.decodeUnknown(Schema.Array(Schema.Struct({ groupId: Schema.String })))

/** `SellableProducts` over the catalogue's tables. */
export const SellableProductsLive = Layer.effect(
  SellableProducts,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`p.id, p.type, p.title, p.price, p.currency, p.billing_interval, p.allowed_payment_methods,
      p.has_stock, p.stock_quantity, p.status`
    return {
      product: (communityId, productId, includeDeleted = false) =>
        sql`SELECT ${columns} FROM products p
          WHERE p.community_id = ${communityId} AND p.id = ${productId}
            ${includeDeleted ? sql`` : sql`AND p.deleted_at IS NULL`}`.pipe(
          Effect.flatMap(decodeProducts),
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        ),
      planProducts: (communityId, planId, kind, productIds) =>
        productIds.length === 0 ? Effect.succeed([]) : sql`
          SELECT ${columns} FROM products p
          JOIN subscription_group_products g ON g.product_id = p.id AND g.community_id = p.community_id
          WHERE g.community_id = ${communityId} AND g.group_id = ${planId} AND g.kind = ${kind}
            AND p.deleted_at IS NULL AND p.id IN ${sql.in(productIds)}`.pipe(
          Effect.flatMap(decodeProducts),
          Effect.orDie
        ),
      plansOffering: (communityId, productId) =>
        sql`SELECT group_id FROM subscription_group_products
          WHERE community_id = ${communityId} AND product_id = ${productId} AND kind = 'option' LIMIT 2`.pipe(
          Effect.flatMap(decodeGroups),
          Effect.map((rows) => rows.map((row) => row.groupId)),
          Effect.orDie
        )
    }
  })
)
