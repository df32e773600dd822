import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { CommunityId } from "../../domain/Ids"
import { PaymentMethod } from "../../domain/Money"
import { billingIntervals } from "./Policy"

/** The editable columns of a pricing tier. */
export type TierFields = {
  readonly name: string
  readonly description: string | null
  readonly benefits: ReadonlyArray<string>
  readonly highlight: boolean
  readonly position: number
  readonly subscriptionGroupId: string
}

const TierRow = Schema.Struct({
  id: Schema.String,
  communityId: CommunityId,
  subscriptionGroupId: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  benefits: Schema.Array(Schema.String),
  highlight: Schema.Boolean,
  position: Schema.Number,
  planName: Schema.String,
  planDescription: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type TierRow = typeof TierRow.Type

const TierOptionRow = Schema.Struct({
  groupId: Schema.String,
  productId: Schema.String,
  title: Schema.String,
  description: Schema.NullOr(Schema.String),
  price: Schema.Number,
  currency: Schema.String,
  billingInterval: Schema.Literal(...billingIntervals),
  commitmentMonths: Schema.NullOr(Schema.Number),
  allowedPaymentMethods: Schema.Array(PaymentMethod)
})
export type TierOptionRow = typeof TierOptionRow.Type
const NextRow = Schema.Struct({ next: Schema.Number })

/** SQL for the pricing page's tiers. */
export class TiersRepo extends Effect.Service<TiersRepo>()("@roda/core/TiersRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decodeTiers = Schema.decodeUnknown(Schema.Array(TierRow))
    const decodeOptions = Schema.decodeUnknown(Schema.Array(TierOptionRow))
    const decodeNext = Schema.decodeUnknown(Schema.Array(NextRow))
    const select = sql`SELECT t.id, t.community_id, t.subscription_group_id, t.name, t.description, t.benefits,
      t.highlight, t.position, t.created_at, t.updated_at, g.name AS plan_name, g.description AS plan_description
      FROM pricing_tiers t
      JOIN subscription_groups g ON g.community_id = t.community_id AND g.id = t.subscription_group_id`
    // A JSON array becomes text[] in SQL: no array-literal quoting to get wrong.
    const benefits = (value: ReadonlyArray<string>) =>
      sql`ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(value)}::jsonb))::text[]`

    return {
      find: (communityId: CommunityId, id: string) =>
        sql`${select} WHERE t.community_id = ${communityId} AND t.id = ${id}`.pipe(
          Effect.flatMap(decodeTiers),
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        ),
      /** By position, then id; keyset `[position, id]`. */
      list: (
        communityId: CommunityId,
        page: { readonly limit: number; readonly after?: readonly [number, string] | undefined }
      ) =>
        sql`${select} WHERE t.community_id = ${communityId}
          ${page.after ? sql`AND (t.position, t.id) > (${page.after[0]}, ${page.after[1]})` : sql``}
          ORDER BY t.position, t.id LIMIT ${page.limit + 1}`.pipe(Effect.flatMap(decodeTiers), Effect.orDie),
      nextPosition: (communityId: CommunityId) =>
        sql`SELECT coalesce(max(position) + 1, 0)::int AS next FROM pricing_tiers
          WHERE community_id = ${communityId}`.pipe(
          Effect.flatMap(decodeNext),
          Effect.map((rows) => rows[0]?.next ?? 0),
          Effect.orDie
        ),
      /** Fails with the SqlError of a foreign-key violation when the plan was removed meanwhile. */
      insert: (row: TierFields & { id: string; communityId: CommunityId; at: Date }) =>
        sql`INSERT INTO pricing_tiers (id, community_id, subscription_group_id, name, description, benefits,
            highlight, position, created_at, updated_at)
          VALUES (${row.id}, ${row.communityId}, ${row.subscriptionGroupId}, ${row.name}, ${row.description},
            ${benefits(row.benefits)}, ${row.highlight}, ${row.position}, ${row.at}, ${row.at})`.pipe(Effect.asVoid),
      /** Fails with the SqlError of a foreign-key violation when the plan was removed meanwhile. */
      update: (communityId: CommunityId, id: string, fields: TierFields, at: Date) =>
        sql`UPDATE pricing_tiers SET subscription_group_id = ${fields.subscriptionGroupId}, name = ${fields.name},
            description = ${fields.description}, benefits = ${benefits(fields.benefits)},
            highlight = ${fields.highlight}, position = ${fields.position}, updated_at = ${at}
          WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid),
      remove: (communityId: CommunityId, id: string) =>
        sql`DELETE FROM pricing_tiers WHERE community_id = ${communityId} AND id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      /** The ACTIVE billing options of these plans, in each plan's order (one query for a whole page). */
      activeOptions: (communityId: CommunityId, groupIds: ReadonlyArray<string>) =>
        groupIds.length === 0
          ? Effect.succeed([] as ReadonlyArray<TierOptionRow>)
          : sql`SELECT gp.group_id, p.id AS product_id, p.title, p.description, p.price, p.currency,
                p.billing_interval, p.commitment_months, p.allowed_payment_methods
              FROM subscription_group_products gp
              JOIN products p ON p.community_id = gp.community_id AND p.id = gp.product_id
              WHERE gp.community_id = ${communityId} AND ${sql.in("gp.group_id", [...new Set(groupIds)])}
                AND gp.kind = 'option' AND p.status = 'ACTIVE' AND p.deleted_at IS NULL
              ORDER BY gp.group_id, gp.position`.pipe(Effect.flatMap(decodeOptions), Effect.orDie)
    }
  })
}) {}
