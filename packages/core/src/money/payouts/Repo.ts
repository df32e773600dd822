import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { CommunityId, ProfileId } from "../../domain/Ids"
import { type PayoutStatus, payoutStatuses } from "./Policy"

/** A payout as its statements read it: amounts as text (bigint), made numbers by `decode`. */
const RawRow = Schema.Struct({
  id: Schema.String,
  communityId: CommunityId,
  currency: Schema.String,
  amount: Schema.String,
  fee: Schema.String,
  status: Schema.Literal(...payoutStatuses),
  method: Schema.NullOr(Schema.String),
  /** Where the money went: the approved settings' destination when the payout went in transit. */
  destination: Schema.NullOr(Schema.String),
  requestedBy: ProfileId,
  failureReason: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  inTransitAt: Schema.NullOr(Schema.DateFromSelf),
  paidAt: Schema.NullOr(Schema.DateFromSelf),
  failedAt: Schema.NullOr(Schema.DateFromSelf),
  canceledAt: Schema.NullOr(Schema.DateFromSelf),
  updatedAt: Schema.DateFromSelf
})
type Raw = typeof RawRow.Type
export type PayoutRow = Omit<Raw, "amount" | "fee"> & { readonly amount: number; readonly fee: number }
const IdRow = Schema.Struct({ id: Schema.String })

/** A type alias (not an interface), so that it is a `Record` for `sql.insert`. */
export type NewPayout = {
  readonly id: string
  readonly communityId: CommunityId
  readonly currency: string
  readonly amount: number
  readonly fee: number
  readonly status: "pending"
  readonly method: string | null
  readonly requestedBy: string
  readonly createdAt: Date
  readonly updatedAt: Date
}

export interface PayoutFilter {
  readonly status?: PayoutStatus | undefined
  readonly before?: string | undefined
  readonly limit: number
}

const columns =
  `id, community_id, currency, amount::text AS amount, fee::text AS fee, status, method, destination, requested_by,
  failure_reason, created_at, in_transit_at, paid_at, failed_at, canceled_at, updated_at`

const decode = (row: Raw): PayoutRow => ({ ...row, amount: Number(row.amount), fee: Number(row.fee) })

/** SQL of payouts (its own table only). */
export class PayoutsRepo extends Effect.Service<PayoutsRepo>()("@roda/core/PayoutsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const cols = sql.unsafe(columns)
    const decodeRows = Schema.decodeUnknown(Schema.Array(RawRow))
    const decodeIds = Schema.decodeUnknown(Schema.Array(IdRow))

    /** Inserts unless the community has an open payout (partial unique index); whether it was inserted. */
    const insert = (row: NewPayout) =>
      sql`INSERT INTO payouts ${sql.insert(row)}
        ON CONFLICT (community_id) WHERE status IN ('pending', 'in_transit') DO NOTHING RETURNING id`.pipe(
        Effect.flatMap(decodeIds),
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )

    const open = (communityId: CommunityId) =>
      sql`SELECT id FROM payouts
        WHERE community_id = ${communityId} AND status IN ('pending', 'in_transit') LIMIT 1`.pipe(
        Effect.flatMap(decodeIds),
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )

    const byId = (communityId: CommunityId, id: string, lock = false) =>
      sql`SELECT ${cols} FROM payouts WHERE community_id = ${communityId} AND id = ${id}
        ${lock ? sql`FOR UPDATE` : sql``}`.pipe(
        Effect.flatMap(decodeRows),
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), decode)),
        Effect.orDie
      )

    const list = (communityId: CommunityId, filter: PayoutFilter) =>
      sql`SELECT ${cols} FROM payouts WHERE community_id = ${communityId}
        ${filter.status ? sql`AND status = ${filter.status}` : sql``}
        ${filter.before ? sql`AND id < ${filter.before}` : sql``}
        ORDER BY id DESC LIMIT ${filter.limit + 1}`.pipe(
        Effect.flatMap(decodeRows),
        Effect.map((rows) => rows.map(decode)),
        Effect.orDie
      )

    /** Every community's payouts (platform operators). */
    const listAll = (filter: PayoutFilter) =>
      sql`SELECT ${cols} FROM payouts WHERE true
        ${filter.status ? sql`AND status = ${filter.status}` : sql``}
        ${filter.before ? sql`AND id < ${filter.before}` : sql``}
        ORDER BY id DESC LIMIT ${filter.limit + 1}`.pipe(
        Effect.flatMap(decodeRows),
        Effect.map((rows) => rows.map(decode)),
        Effect.orDie
      )

    /**
     * Moves the payout to `to`, stamping the time of that state (a failure's reason, and where the
     * money goes when it goes in transit).
     */
    const move = (
      communityId: CommunityId,
      id: string,
      to: PayoutStatus,
      at: Date,
      detail: { readonly reason: string | null; readonly destination: string | null }
    ) => {
      const stamp = to === "in_transit"
        ? sql`in_transit_at = ${at}, destination = ${detail.destination},`
        : to === "paid"
        ? sql`paid_at = ${at},`
        : to === "failed"
        ? sql`failed_at = ${at}, failure_reason = ${detail.reason},`
        : to === "canceled"
        ? sql`canceled_at = ${at},`
        : sql``
      return sql`UPDATE payouts SET status = ${to}, ${stamp} updated_at = ${at}
        WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie)
    }

    const communityExists = (communityId: CommunityId) =>
      sql`SELECT id FROM community_summaries WHERE id = ${communityId}`.pipe(
        Effect.flatMap(decodeIds),
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )

    return { insert, open, byId, list, listAll, move, communityExists }
  })
}) {}
