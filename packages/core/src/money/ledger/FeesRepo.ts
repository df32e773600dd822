import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import type { CommunityId } from "../../domain/Ids"
import { PaymentMethod } from "../../domain/Money"

/** A platform operator's fees for one community and payment method. */
const FeeOverrideRow = Schema.Struct({
  paymentMethod: PaymentMethod,
  percentBps: Schema.Number,
  fixed: Schema.Number,
  /** null: the default monthly interest. */
  interestRateBps: Schema.NullOr(Schema.Number),
  updatedAt: Schema.DateFromSelf
})
export type FeeOverrideRow = typeof FeeOverrideRow.Type
const FoundRow = Schema.Struct({ found: Schema.Boolean })

export interface FeeOverrideInput {
  readonly communityId: CommunityId
  readonly paymentMethod: PaymentMethod
  readonly percentBps: number
  readonly fixed: number
  readonly interestRateBps: number | null
  readonly updatedBy: string
  readonly at: Date
}

/** SQL for fee overrides. */
export class FeesRepo extends Effect.Service<FeesRepo>()("@roda/core/FeesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`payment_method, percent_bps, fixed, interest_rate_bps, updated_at`
    const decodeOverrides = Schema.decodeUnknown(Schema.Array(FeeOverrideRow))
    const decodeFound = Schema.decodeUnknown(Schema.Array(FoundRow))

    const overrides = (communityId: CommunityId) =>
      sql`SELECT ${columns} FROM fee_overrides WHERE community_id = ${communityId}`.pipe(
        Effect.flatMap(decodeOverrides),
        Effect.orDie
      )

    const override = (communityId: CommunityId, method: PaymentMethod) =>
      sql`SELECT ${columns} FROM fee_overrides
        WHERE community_id = ${communityId} AND payment_method = ${method}`.pipe(
        Effect.flatMap(decodeOverrides),
        Effect.map((rows) => rows[0]),
        Effect.orDie
      )

    const upsert = (input: FeeOverrideInput) =>
      sql`INSERT INTO fee_overrides (community_id, payment_method, percent_bps, fixed, interest_rate_bps,
          updated_by, created_at, updated_at)
        VALUES (${input.communityId}, ${input.paymentMethod}, ${input.percentBps}, ${input.fixed},
          ${input.interestRateBps}, ${input.updatedBy}, ${input.at}, ${input.at})
        ON CONFLICT (community_id, payment_method) DO UPDATE SET percent_bps = excluded.percent_bps,
          fixed = excluded.fixed, interest_rate_bps = excluded.interest_rate_bps,
          updated_by = excluded.updated_by, updated_at = excluded.updated_at`.pipe(Effect.asVoid, Effect.orDie)

    const remove = (communityId: CommunityId, method: PaymentMethod) =>
      sql`DELETE FROM fee_overrides WHERE community_id = ${communityId} AND payment_method = ${method}`.pipe(
        Effect.asVoid,
        Effect.orDie
      )

    /** Whether the community exists and is not deleted. */
    const communityExists = (communityId: CommunityId) =>
      sql`SELECT EXISTS (
          SELECT 1 FROM community_summaries WHERE id = ${communityId} AND deleted_at IS NULL
        ) AS found`.pipe(Effect.flatMap(decodeFound), Effect.map((rows) => rows[0]?.found === true), Effect.orDie)

    return { overrides, override, upsert, remove, communityExists }
  })
}) {}
