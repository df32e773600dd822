import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { CommunityId, SpaceId } from "../../domain/Ids"
import { PaymentMethod } from "../../domain/Money"
import {
  type BillingInterval,
  billingIntervals,
  type ProductStatus,
  productStatuses,
  type ProductType,
  productTypes
} from "./Policy"

/** The editable columns of a product. A type alias (not an interface), so that it is a `Record`. */
export type ProductFields = {
  readonly title: string
  readonly description: string | null
  readonly price: number
  readonly currency: string
  readonly billingInterval: BillingInterval | null
  readonly commitmentMonths: number | null
  readonly allowedPaymentMethods: ReadonlyArray<PaymentMethod>
  readonly hasStock: boolean
  readonly stockQuantity: number | null
}

export const ProductRow = Schema.Struct({
  id: Schema.String,
  communityId: CommunityId,
  type: Schema.Literal(...productTypes),
  title: Schema.String,
  description: Schema.NullOr(Schema.String),
  price: Schema.Number,
  currency: Schema.String,
  billingInterval: Schema.NullOr(Schema.Literal(...billingIntervals)),
  commitmentMonths: Schema.NullOr(Schema.Number),
  allowedPaymentMethods: Schema.Array(PaymentMethod),
  hasStock: Schema.Boolean,
  stockQuantity: Schema.NullOr(Schema.Number),
  status: Schema.Literal(...productStatuses),
  publishedAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type ProductRow = typeof ProductRow.Type
const IdRow = Schema.Struct({ id: Schema.String })
const PlanRow = Schema.Struct({ id: Schema.String, name: Schema.String })
const SpaceRow = Schema.Struct({ id: SpaceId, title: Schema.String })

export interface ProductFilter {
  readonly type?: ProductType | undefined
  readonly status?: ProductStatus | undefined
  readonly after?: string | undefined
  readonly limit: number
}

const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

/** SQL for products (removed ones have `deleted_at` and are never read here). */
export class ProductsRepo extends Effect.Service<ProductsRepo>()("@roda/core/ProductsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decodeProducts = Schema.decodeUnknown(Schema.Array(ProductRow))
    const decodeIds = Schema.decodeUnknown(Schema.Array(IdRow))
    const decodePlans = Schema.decodeUnknown(Schema.Array(PlanRow))
    const decodeSpaces = Schema.decodeUnknown(Schema.Array(SpaceRow))
    const select = sql`SELECT id, community_id, type, title, description, price, currency, billing_interval,
      commitment_months, allowed_payment_methods, has_stock, stock_quantity, status, published_at, created_at,
      updated_at FROM products`
    const live = (communityId: CommunityId) => sql`community_id = ${communityId} AND deleted_at IS NULL`
    const methods = (value: ReadonlyArray<PaymentMethod>) => sql`${`{${value.join(",")}}`}::text[]`

    return {
      /** Takes one unit when the product keeps stock; false when none is left (never below zero). */
      takeStock: (communityId: CommunityId, productId: string) =>
        sql`UPDATE products SET stock_quantity = stock_quantity - 1, updated_at = now()
          WHERE community_id = ${communityId} AND id = ${productId} AND stock_quantity >= 1
          RETURNING id`.pipe(Effect.flatMap(decodeIds), Effect.map((rows) => rows.length === 1), Effect.orDie),
      /** Gives one unit back to a product that keeps stock. */
      returnStock: (communityId: CommunityId, productId: string) =>
        sql`UPDATE products SET stock_quantity = stock_quantity + 1, updated_at = now()
          WHERE community_id = ${communityId} AND id = ${productId} AND has_stock`.pipe(Effect.asVoid, Effect.orDie),
      find: (communityId: CommunityId, id: string) =>
        sql`${select} WHERE ${live(communityId)} AND id = ${id}`.pipe(
          Effect.flatMap(decodeProducts),
          Effect.map(first),
          Effect.orDie
        ),
      /** Locks the product row for a change (publish, edit, removal, a plan listing it). */
      lock: (communityId: CommunityId, id: string) =>
        sql`${select} WHERE ${live(communityId)} AND id = ${id} FOR UPDATE`.pipe(
          Effect.flatMap(decodeProducts),
          Effect.map(first),
          Effect.orDie
        ),
      /** Locks the live products among `ids` (in id order, so concurrent calls never deadlock). */
      lockMany: (communityId: CommunityId, ids: ReadonlyArray<string>) =>
        ids.length === 0
          ? Effect.succeed([] as ReadonlyArray<ProductRow>)
          : sql`${select} WHERE ${live(communityId)} AND ${sql.in("id", ids)} ORDER BY id FOR UPDATE`
            .pipe(Effect.flatMap(decodeProducts), Effect.orDie),
      insert: (row: ProductFields & { id: string; communityId: CommunityId; type: ProductType; at: Date }) =>
        sql`INSERT INTO products (id, community_id, type, title, description, price, currency, billing_interval,
            commitment_months, allowed_payment_methods, has_stock, stock_quantity, status, created_at, updated_at)
          VALUES (${row.id}, ${row.communityId}, ${row.type}, ${row.title}, ${row.description}, ${row.price},
            ${row.currency}, ${row.billingInterval}, ${row.commitmentMonths}, ${methods(row.allowedPaymentMethods)},
            ${row.hasStock}, ${row.stockQuantity}, 'DRAFT', ${row.at}, ${row.at})`.pipe(Effect.asVoid, Effect.orDie),
      update: (
        communityId: CommunityId,
        id: string,
        fields: ProductFields,
        status: { readonly status: ProductStatus; readonly publishedAt: Date | null },
        at: Date
      ) =>
        sql`UPDATE products SET title = ${fields.title}, description = ${fields.description}, price = ${fields.price},
            currency = ${fields.currency}, billing_interval = ${fields.billingInterval},
            commitment_months = ${fields.commitmentMonths},
            allowed_payment_methods = ${methods(fields.allowedPaymentMethods)}, has_stock = ${fields.hasStock},
            stock_quantity = ${fields.stockQuantity}, status = ${status.status}, published_at = ${status.publishedAt},
            updated_at = ${at}
          WHERE ${live(communityId)} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      softDelete: (communityId: CommunityId, id: string, at: Date) =>
        sql`UPDATE products SET deleted_at = ${at}, updated_at = ${at} WHERE ${live(communityId)} AND id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      /** Newest first (ids are UUIDv7); keyset on the id. */
      list: (communityId: CommunityId, filter: ProductFilter) => {
        const conditions = [
          live(communityId),
          ...(filter.type ? [sql`type = ${filter.type}`] : []),
          ...(filter.status ? [sql`status = ${filter.status}`] : []),
          ...(filter.after ? [sql`id < ${filter.after}`] : [])
        ]
        return sql`${select} WHERE ${sql.and(conditions)} ORDER BY id DESC LIMIT ${filter.limit + 1}`
          .pipe(Effect.flatMap(decodeProducts), Effect.orDie)
      },
      /** The plan whose billing option the product is, if any. */
      optionOf: (communityId: CommunityId, productId: string) =>
        sql`SELECT g.id, g.name FROM subscription_group_products gp
          JOIN subscription_groups g ON g.community_id = gp.community_id AND g.id = gp.group_id
          WHERE gp.community_id = ${communityId} AND gp.product_id = ${productId} AND gp.kind = 'option'
          LIMIT 1`.pipe(Effect.flatMap(decodePlans), Effect.map(first), Effect.orDie),
      /** A plan that has the product as add-on, if any. */
      addOnOf: (communityId: CommunityId, productId: string) =>
        sql`SELECT g.id, g.name FROM subscription_group_products gp
          JOIN subscription_groups g ON g.community_id = gp.community_id AND g.id = gp.group_id
          WHERE gp.community_id = ${communityId} AND gp.product_id = ${productId} AND gp.kind = 'add_on'
          ORDER BY g.position, g.id LIMIT 1`.pipe(Effect.flatMap(decodePlans), Effect.map(first), Effect.orDie),
      /** Drops the product from every plan's add-ons. */
      dropAddOn: (communityId: CommunityId, productId: string) =>
        sql`DELETE FROM subscription_group_products
          WHERE community_id = ${communityId} AND product_id = ${productId} AND kind = 'add_on'`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      /** A space whose access grants list the product, if any. */
      grantingSpace: (communityId: CommunityId, productId: string) =>
        sql`SELECT id, title FROM space_grants
          WHERE community_id = ${communityId} AND ${productId}::uuid = ANY (access_product_ids)
          ORDER BY position, id LIMIT 1`.pipe(Effect.flatMap(decodeSpaces), Effect.map(first), Effect.orDie)
    }
  })
}) {}
