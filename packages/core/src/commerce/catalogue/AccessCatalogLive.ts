import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { AccessCatalog } from "../../structure/Access"

const decodeKnown = Schema.decodeUnknown(
  Schema.Array(Schema.Struct({ id: Schema.String, kind: Schema.Literal("plan", "product") }))
)

/**
 * Structure's `AccessCatalog` port, answered by the catalogue that owns plans and products.
 * The access grants that exist in a community: its plans (subscription groups) and its products that
 * are not removed. One query answers for every grant of a space; plans are checked before products.
 */
export const AccessCatalogLive = Layer.effect(
  AccessCatalog,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const existing = (communityId: string, planIds: ReadonlyArray<string>, productIds: ReadonlyArray<string>) => {
      const plans = planIds.length === 0
        ? sql`SELECT NULL::uuid AS id, 'plan' AS kind WHERE false`
        : sql`SELECT id, 'plan' AS kind FROM subscription_groups
            WHERE community_id = ${communityId} AND ${sql.in("id", planIds)}`
      const products = productIds.length === 0
        ? sql`SELECT NULL::uuid AS id, 'product' AS kind WHERE false`
        : sql`SELECT id, 'product' AS kind FROM products
            WHERE community_id = ${communityId} AND deleted_at IS NULL AND ${sql.in("id", productIds)}`
      return sql`${plans} UNION ALL ${products}`.pipe(Effect.flatMap(decodeKnown), Effect.orDie)
    }
    return {
      firstUnknown: (communityId, grants) =>
        Effect.gen(function*() {
          const { productIds, subscriptionGroupIds } = grants
          if (subscriptionGroupIds.length === 0 && productIds.length === 0) return Option.none()
          const rows = yield* existing(communityId, subscriptionGroupIds, productIds)
          const found = new Set(rows.map((row) => `${row.kind}:${row.id}`))
          return Option.fromNullable(
            subscriptionGroupIds.find((id) => !found.has(`plan:${id}`)) ??
              productIds.find((id) => !found.has(`product:${id}`))
          )
        })
    }
  })
)
