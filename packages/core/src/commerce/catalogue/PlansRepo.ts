import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { CommunityId, SpaceId } from "../../domain/Ids"
import { ProductRow } from "./ProductsRepo"

const PlanRow = Schema.Struct({
  id: Schema.String,
  communityId: CommunityId,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  position: Schema.Number,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type PlanRow = typeof PlanRow.Type

const LinkKind = Schema.Literal("option", "add_on")
export type LinkKind = typeof LinkKind.Type

const LinkRow = Schema.Struct({
  groupId: Schema.String,
  productId: Schema.String,
  kind: LinkKind,
  position: Schema.Number
})
export type LinkRow = typeof LinkRow.Type

/** A product linked to a plan other than the one being edited. */
const ForeignLink = Schema.Struct({ productId: Schema.String, kind: LinkKind, planName: Schema.String })
export type ForeignLink = typeof ForeignLink.Type

const PlanProductRow = Schema.Struct({ ...ProductRow.fields, kind: LinkKind, linkPosition: Schema.Number })
const CountRow = Schema.Struct({ count: Schema.Number })
const IdRow = Schema.Struct({ id: Schema.String })
const SpaceRow = Schema.Struct({ id: SpaceId, title: Schema.String })
const TierRow = Schema.Struct({ id: Schema.String, name: Schema.String })

const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

/** SQL for plans (subscription groups) and their product links. */
export class PlansRepo extends Effect.Service<PlansRepo>()("@roda/core/PlansRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decodePlans = Schema.decodeUnknown(Schema.Array(PlanRow))
    const decodeLinks = Schema.decodeUnknown(Schema.Array(LinkRow))
    const decodeForeignLinks = Schema.decodeUnknown(Schema.Array(ForeignLink))
    const decodePlanProducts = Schema.decodeUnknown(Schema.Array(PlanProductRow))
    const decodeCount = Schema.decodeUnknown(Schema.Array(CountRow))
    const decodeIds = Schema.decodeUnknown(Schema.Array(IdRow))
    const decodeSpaces = Schema.decodeUnknown(Schema.Array(SpaceRow))
    const decodeTiers = Schema.decodeUnknown(Schema.Array(TierRow))
    const select = sql`SELECT id, community_id, name, description, position, created_at, updated_at
      FROM subscription_groups`
    const positions = (ids: ReadonlyArray<string>) => sql.csv(ids.map((id, index) => sql`(${id}::uuid, ${index}::int)`))

    return {
      /**
       * Serialises the plan changes of one community (positions, and the rule that a product is either
       * an option or an add-on) until the transaction ends: an advisory lock on the community's plans,
       * the catalogue's own, so no other feature's row is locked (two communities sharing a hash only
       * wait for each other).
       */
      lockCommunity: (communityId: CommunityId) =>
        sql`SELECT pg_advisory_xact_lock(hashtextextended(${"subscription_groups:" + communityId}, 0))`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      find: (communityId: CommunityId, id: string) =>
        sql`${select} WHERE community_id = ${communityId} AND id = ${id}`.pipe(
          Effect.flatMap(decodePlans),
          Effect.map(first),
          Effect.orDie
        ),
      count: (communityId: CommunityId) =>
        sql`SELECT count(*)::int AS count FROM subscription_groups
          WHERE community_id = ${communityId}`.pipe(
          Effect.flatMap(decodeCount),
          Effect.map((rows) => rows[0]?.count ?? 0),
          Effect.orDie
        ),
      insert: (
        row: {
          id: string
          communityId: CommunityId
          name: string
          description: string | null
          position: number
          at: Date
        }
      ) =>
        sql`INSERT INTO subscription_groups (id, community_id, name, description, position, created_at, updated_at)
          VALUES (${row.id}, ${row.communityId}, ${row.name}, ${row.description}, ${row.position}, ${row.at},
            ${row.at})`.pipe(Effect.asVoid, Effect.orDie),
      update: (communityId: CommunityId, id: string, fields: { name: string; description: string | null }, at: Date) =>
        sql`UPDATE subscription_groups SET name = ${fields.name}, description = ${fields.description},
          updated_at = ${at} WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      /** Fails with the SqlError of a foreign-key violation while something else refers to the plan. */
      remove: (communityId: CommunityId, id: string) =>
        sql`DELETE FROM subscription_groups WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid),
      /** Positions 0, 1, 2… in the current order (after a removal). */
      compact: (communityId: CommunityId) =>
        sql`UPDATE subscription_groups g SET position = o.rank
          FROM (SELECT id, (row_number() OVER (ORDER BY position, id) - 1)::int AS rank
            FROM subscription_groups WHERE community_id = ${communityId}) o
          WHERE g.community_id = ${communityId} AND g.id = o.id AND g.position <> o.rank`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      ids: (communityId: CommunityId) =>
        sql`SELECT id FROM subscription_groups WHERE community_id = ${communityId}
          ORDER BY position, id`.pipe(
          Effect.flatMap(decodeIds),
          Effect.map((rows) => rows.map((row) => row.id)),
          Effect.orDie
        ),
      setPositions: (communityId: CommunityId, ids: ReadonlyArray<string>, at: Date) =>
        sql`UPDATE subscription_groups SET position = v.position, updated_at = ${at}
          FROM (VALUES ${positions(ids)}) AS v(id, position)
          WHERE subscription_groups.community_id = ${communityId} AND subscription_groups.id = v.id`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      /** In order (position, then id); keyset `[position, id]`. */
      list: (
        communityId: CommunityId,
        page: { readonly limit: number; readonly after?: readonly [number, string] | undefined }
      ) =>
        sql`${select} WHERE community_id = ${communityId}
          ${page.after ? sql`AND (position, id) > (${page.after[0]}, ${page.after[1]})` : sql``}
          ORDER BY position, id LIMIT ${page.limit + 1}`.pipe(Effect.flatMap(decodePlans), Effect.orDie),
      /** The product links of these plans, options first, in order. */
      links: (communityId: CommunityId, groupIds: ReadonlyArray<string>) =>
        groupIds.length === 0
          ? Effect.succeed([] as ReadonlyArray<LinkRow>)
          : sql`SELECT group_id, product_id, kind, position FROM subscription_group_products
              WHERE community_id = ${communityId} AND ${sql.in("group_id", groupIds)}
              ORDER BY group_id, kind DESC, position`.pipe(Effect.flatMap(decodeLinks), Effect.orDie),
      /** Links of these products to plans other than `exceptGroupId`. */
      foreignLinks: (communityId: CommunityId, productIds: ReadonlyArray<string>, exceptGroupId: string | null) =>
        productIds.length === 0
          ? Effect.succeed([] as ReadonlyArray<ForeignLink>)
          : sql`SELECT gp.product_id, gp.kind, g.name AS plan_name FROM subscription_group_products gp
              JOIN subscription_groups g ON g.community_id = gp.community_id AND g.id = gp.group_id
              WHERE gp.community_id = ${communityId} AND ${sql.in("gp.product_id", productIds)}
              ${exceptGroupId === null ? sql`` : sql`AND gp.group_id <> ${exceptGroupId}`}
              ORDER BY g.position, g.id`.pipe(Effect.flatMap(decodeForeignLinks), Effect.orDie),
      replaceLinks: (
        communityId: CommunityId,
        groupId: string,
        kind: "option" | "add_on",
        productIds: ReadonlyArray<string>
      ) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM subscription_group_products
            WHERE community_id = ${communityId} AND group_id = ${groupId} AND kind = ${kind}`
          if (productIds.length === 0) return
          const rows = productIds.map((productId, position) => ({ communityId, groupId, productId, kind, position }))
          yield* sql`INSERT INTO subscription_group_products ${sql.insert(rows)}`
        }).pipe(Effect.orDie),
      /** The plan's products with their link, options first, each in order. */
      products: (communityId: CommunityId, groupId: string) =>
        sql`SELECT p.id, p.community_id, p.type,
            p.title, p.description, p.price, p.currency, p.billing_interval, p.commitment_months,
            p.allowed_payment_methods, p.has_stock, p.stock_quantity, p.status, p.published_at, p.created_at,
            p.updated_at, gp.kind, gp.position AS link_position
          FROM subscription_group_products gp
          JOIN products p ON p.community_id = gp.community_id AND p.id = gp.product_id
          WHERE gp.community_id = ${communityId} AND gp.group_id = ${groupId} AND p.deleted_at IS NULL
          ORDER BY gp.kind DESC, gp.position`.pipe(Effect.flatMap(decodePlanProducts), Effect.orDie),
      /** A space whose access grants list the plan, if any. */
      grantingSpace: (communityId: CommunityId, groupId: string) =>
        sql`SELECT id, title FROM space_grants
          WHERE community_id = ${communityId} AND ${groupId}::uuid = ANY (access_subscription_group_ids)
          ORDER BY position, id LIMIT 1`.pipe(Effect.flatMap(decodeSpaces), Effect.map(first), Effect.orDie),
      /** A pricing tier showing the plan, if any. */
      showingTier: (communityId: CommunityId, groupId: string) =>
        sql`SELECT id, name FROM pricing_tiers
          WHERE community_id = ${communityId} AND subscription_group_id = ${groupId}
          ORDER BY position, id LIMIT 1`.pipe(Effect.flatMap(decodeTiers), Effect.map(first), Effect.orDie)
    }
  })
}) {}
