import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { type CommunityId, ProfileId } from "../../domain/Ids"
import { type RedemptionStatus, redemptionStatuses } from "./Policy"

const Status = Schema.Literal(...redemptionStatuses)
const RedemptionRow = Schema.Struct({
  id: Schema.String,
  couponId: Schema.String,
  chargeId: Schema.String,
  profileId: Schema.NullOr(ProfileId),
  amount: Schema.NullOr(Schema.Number),
  discount: Schema.NullOr(Schema.Number),
  currency: Schema.NullOr(Schema.String),
  status: Status,
  reservedAt: Schema.DateFromSelf,
  redeemedAt: Schema.NullOr(Schema.DateFromSelf),
  releasedAt: Schema.NullOr(Schema.DateFromSelf)
})
export type RedemptionRow = typeof RedemptionRow.Type
const CouponIdRow = Schema.Struct({ couponId: Schema.String })
const ChargeRedemptionRow = Schema.Struct({ couponId: Schema.String, status: Status })

export type NewRedemption = {
  readonly id: string
  readonly communityId: CommunityId
  readonly couponId: string
  readonly chargeId: string
  readonly profileId: ProfileId | null
  readonly amount: number | null
  readonly discount: number | null
  readonly currency: string | null
}

export interface UsageFilter {
  readonly status?: RedemptionStatus | undefined
  readonly after?: string | undefined
  readonly limit: number
}

const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

/**
 * SQL for coupon uses. The counters on `coupons` only move through the conditional updates here,
 * each in the same transaction as the redemption row it accounts for.
 */
export class RedemptionRepo extends Effect.Service<RedemptionRepo>()("@roda/core/CouponRedemptionRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decodeRedemptions = Schema.decodeUnknown(Schema.Array(RedemptionRow))
    const decodeCouponIds = Schema.decodeUnknown(Schema.Array(CouponIdRow))
    const decodeChargeRedemptions = Schema.decodeUnknown(Schema.Array(ChargeRedemptionRow))
    const available = (now: Date) =>
      sql`deleted_at IS NULL AND status = 'active' AND (expires_at IS NULL OR expires_at > ${now})
        AND (max_redemptions IS NULL OR times_redeemed + times_reserved < max_redemptions)`
    const changed = <A>(effect: Effect.Effect<ReadonlyArray<A>, unknown>) =>
      effect.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie)

    return {
      /** Holds one use if one is left (a single conditional UPDATE); false otherwise. */
      holdUse: (communityId: CommunityId, couponId: string, now: Date) =>
        changed(sql`UPDATE coupons SET times_reserved = times_reserved + 1
          WHERE community_id = ${communityId} AND id = ${couponId} AND ${available(now)} RETURNING id`),
      /** Gives back a use held by `holdUse`. */
      dropHold: (communityId: CommunityId, couponId: string) =>
        sql`UPDATE coupons SET times_reserved = times_reserved - 1
          WHERE community_id = ${communityId} AND id = ${couponId}`.pipe(Effect.asVoid, Effect.orDie),
      /** Gives back a counted use (its charge was refunded). */
      uncount: (communityId: CommunityId, couponId: string) =>
        sql`UPDATE coupons SET times_redeemed = times_redeemed - 1
          WHERE community_id = ${communityId} AND id = ${couponId} AND times_redeemed > 0`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      /** A held use becomes a counted one. */
      countHeld: (communityId: CommunityId, couponId: string, now: Date) =>
        sql`UPDATE coupons SET times_reserved = times_reserved - 1, times_redeemed = times_redeemed + 1,
          updated_at = ${now} WHERE community_id = ${communityId} AND id = ${couponId}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      /** Counts a use that was not held (a charge paid after its reservation was released), if one is left. */
      countUnheld: (communityId: CommunityId, couponId: string, now: Date) =>
        changed(sql`UPDATE coupons SET times_redeemed = times_redeemed + 1, updated_at = ${now}
          WHERE community_id = ${communityId} AND id = ${couponId}
            AND (max_redemptions IS NULL OR times_redeemed + times_reserved < max_redemptions) RETURNING id`),
      /** The reservation row of a charge; false when the charge already has one. */
      insert: (row: NewRedemption, now: Date) =>
        changed(
          sql`INSERT INTO coupon_redemptions ${
            sql.insert({ ...row, status: "reserved", reservedAt: now, updatedAt: now })
          } ON CONFLICT (community_id, charge_id) DO NOTHING RETURNING id`
        ),
      /** Moves the charge's redemption `from -> to`; the coupon id when it moved. */
      move: (communityId: CommunityId, chargeId: string, from: RedemptionStatus, to: RedemptionStatus, now: Date) => {
        const stamp = to === "redeemed"
          ? sql`redeemed_at = ${now},`
          : to === "released"
          ? sql`released_at = ${now},`
          : sql``
        return sql`UPDATE coupon_redemptions SET status = ${to}, ${stamp} updated_at = ${now}
          WHERE community_id = ${communityId} AND charge_id = ${chargeId} AND status = ${from}
          RETURNING coupon_id`.pipe(
          Effect.flatMap(decodeCouponIds),
          Effect.map((rows) => Option.map(first(rows), (row) => row.couponId)),
          Effect.orDie
        )
      },
      /** The redemption of a charge, if it has one. */
      forCharge: (communityId: CommunityId, chargeId: string) =>
        sql`SELECT coupon_id, status FROM coupon_redemptions
          WHERE community_id = ${communityId} AND charge_id = ${chargeId}`.pipe(
          Effect.flatMap(decodeChargeRedemptions),
          Effect.map(first),
          Effect.orDie
        ),
      /** Uses of a coupon, newest first (keyset: the last id). */
      usage: (communityId: CommunityId, couponId: string, filter: UsageFilter) => {
        const conditions = [
          sql`community_id = ${communityId}`,
          sql`coupon_id = ${couponId}`,
          ...(filter.status ? [sql`status = ${filter.status}`] : []),
          ...(filter.after ? [sql`id < ${filter.after}`] : [])
        ]
        return sql`SELECT id, coupon_id, charge_id, profile_id, amount, discount, currency, status,
            reserved_at, redeemed_at, released_at
          FROM coupon_redemptions WHERE ${sql.and(conditions)} ORDER BY id DESC LIMIT ${filter.limit + 1}`.pipe(
          Effect.flatMap(decodeRedemptions),
          Effect.orDie
        )
      }
    }
  })
}) {}
