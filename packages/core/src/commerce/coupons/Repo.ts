import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { CommunityId } from "../../domain/Ids"
import { type CouponStatus, type Duration, durations, type StoredStatus } from "./Policy"

/** The terms and counters of a coupon, as stored. */
export type CouponFields = {
  readonly code: string
  readonly name: string | null
  readonly percentOff: number | null
  readonly amountOff: number | null
  readonly currency: string | null
  readonly duration: Duration
  readonly durationMonths: number | null
  readonly maxRedemptions: number | null
  readonly expiresAt: Date | null
}

const CouponRow = Schema.Struct({
  id: Schema.String,
  communityId: CommunityId,
  code: Schema.String,
  name: Schema.NullOr(Schema.String),
  percentOff: Schema.NullOr(Schema.Number),
  amountOff: Schema.NullOr(Schema.Number),
  currency: Schema.NullOr(Schema.String),
  duration: Schema.Literal(...durations),
  durationMonths: Schema.NullOr(Schema.Number),
  maxRedemptions: Schema.NullOr(Schema.Number),
  expiresAt: Schema.NullOr(Schema.DateFromSelf),
  status: Schema.Literal("active", "inactive"),
  timesRedeemed: Schema.Number,
  timesReserved: Schema.Number,
  /** Product ids the coupon is limited to, in the order given; empty means every product. */
  applicableProducts: Schema.Array(Schema.String),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type CouponRow = typeof CouponRow.Type
const IdRow = Schema.Struct({ id: Schema.String })
const ProductPriceRow = Schema.Struct({ id: Schema.String, price: Schema.Number, currency: Schema.String })

export type NewCouponRow = CouponFields & {
  readonly id: string
  readonly communityId: CommunityId
  readonly status: StoredStatus
  readonly createdAt: Date
  readonly updatedAt: Date
}

export interface CouponFilter {
  readonly status?: CouponStatus | undefined
  /** The instant `expired` is decided at. */
  readonly now: Date
  readonly after?: string | undefined
  readonly limit: number
}

const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

/** SQL for coupons and the products they are limited to. */
export class CouponsRepo extends Effect.Service<CouponsRepo>()("@roda/core/CouponsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decodeCoupons = Schema.decodeUnknown(Schema.Array(CouponRow))
    const decodeIds = Schema.decodeUnknown(Schema.Array(IdRow))
    const decodeProducts = Schema.decodeUnknown(Schema.Array(ProductPriceRow))
    const select = sql`SELECT c.id, c.community_id, c.code, c.name, c.percent_off, c.amount_off, c.currency,
      c.duration, c.duration_months, c.max_redemptions, c.times_redeemed, c.times_reserved, c.expires_at,
      c.status, c.created_at, c.updated_at,
      COALESCE((SELECT array_agg(cp.product_id::text ORDER BY cp.position) FROM coupon_products cp
        WHERE cp.community_id = c.community_id AND cp.coupon_id = c.id), '{}'::text[]) AS applicable_products
      FROM coupons c`
    const live = (communityId: CommunityId) => sql`c.community_id = ${communityId} AND c.deleted_at IS NULL`
    /** The status shown on the wire, in SQL (the same rule as `effectiveStatus`). */
    const shownStatus = (now: Date) =>
      sql`(CASE WHEN c.expires_at IS NOT NULL AND c.expires_at <= ${now} THEN 'expired'
        WHEN c.max_redemptions IS NOT NULL AND c.times_redeemed >= c.max_redemptions THEN 'exhausted'
        ELSE c.status END)`

    const setProducts = (communityId: CommunityId, couponId: string, productIds: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        yield* sql`DELETE FROM coupon_products WHERE community_id = ${communityId} AND coupon_id = ${couponId}`
        if (productIds.length === 0) return
        yield* sql`INSERT INTO coupon_products ${
          sql.insert(productIds.map((productId, position) => ({ communityId, couponId, productId, position })))
        }`
      }).pipe(Effect.orDie)

    return {
      find: (communityId: CommunityId, id: string) =>
        sql`${select} WHERE ${live(communityId)} AND c.id = ${id}`.pipe(
          Effect.flatMap(decodeCoupons),
          Effect.map(first),
          Effect.orDie
        ),
      findByCode: (communityId: CommunityId, code: string) =>
        sql`${select} WHERE ${live(communityId)} AND c.code = ${code}`.pipe(
          Effect.flatMap(decodeCoupons),
          Effect.map(first),
          Effect.orDie
        ),
      /** Locks the coupon row (edits and status moves against concurrent reservations); false when gone. */
      lock: (communityId: CommunityId, id: string) =>
        sql`SELECT id FROM coupons
          WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL FOR UPDATE`.pipe(
          Effect.flatMap(decodeIds),
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      /** Fails with the SqlError of a unique violation when the code is taken in the community. */
      insert: (row: NewCouponRow) => sql`INSERT INTO coupons ${sql.insert(row)}`.pipe(Effect.asVoid),
      /** Fails with the SqlError of a unique violation when the new code is taken. */
      update: (communityId: CommunityId, id: string, changes: Partial<CouponFields>, now: Date) =>
        sql`UPDATE coupons SET ${sql.update({ ...changes, updatedAt: now })}
          WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL`.pipe(Effect.asVoid),
      setProducts,
      setStatus: (communityId: CommunityId, id: string, status: StoredStatus, now: Date) =>
        sql`UPDATE coupons SET status = ${status}, updated_at = ${now}
          WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      softDelete: (communityId: CommunityId, id: string, now: Date) =>
        sql`UPDATE coupons SET deleted_at = ${now}, updated_at = ${now}
          WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      /** Newest first (keyset: the last id), optionally only one shown status. */
      list: (communityId: CommunityId, filter: CouponFilter) => {
        const conditions = [
          live(communityId),
          ...(filter.status ? [sql`${shownStatus(filter.now)} = ${filter.status}`] : []),
          ...(filter.after ? [sql`c.id < ${filter.after}`] : [])
        ]
        return sql`${select} WHERE ${sql.and(conditions)}
          ORDER BY c.id DESC LIMIT ${filter.limit + 1}`.pipe(Effect.flatMap(decodeCoupons), Effect.orDie)
      },
      /** Which of `ids` are products of the community that are not deleted. */
      existingProducts: (communityId: CommunityId, ids: ReadonlyArray<string>) =>
        ids.length === 0
          ? Effect.succeed([] as ReadonlyArray<string>)
          : sql`SELECT id FROM product_summaries
              WHERE community_id = ${communityId} AND deleted_at IS NULL AND ${sql.in("id", ids)}`.pipe(
            Effect.flatMap(decodeIds),
            Effect.map((rows) => rows.map((row) => row.id)),
            Effect.orDie
          ),
      /** A product of the community that is not deleted: its price and currency. */
      product: (communityId: CommunityId, id: string) =>
        sql`SELECT id, price, currency FROM product_summaries
          WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL`.pipe(
          Effect.flatMap(decodeProducts),
          Effect.map(first),
          Effect.orDie
        )
    }
  })
}) {}
