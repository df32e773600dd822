import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Effect, Schema } from "effect"
import { CommunityId } from "../../domain/Ids"
import type { DisputeStatus } from "./disputeStates"

/** A gateway dispute of a charge, as stored. A type alias (not an interface): a `Record` for `sql.insert`. */
export type DisputeRow = {
  readonly gateway: string
  readonly disputeId: string
  readonly communityId: CommunityId
  readonly chargeId: string
  readonly status: DisputeStatus
  readonly currency: string
  readonly amount: number
  /** What the dispute holds of the community's available balance (0 once released, or when never held). */
  readonly held: number
  readonly fee: number
  readonly feeCurrency: string | null
  readonly reason: string | null
  readonly openedAt: Date | null
  readonly closedAt: Date | null
  readonly updatedAt: Date
}

/** A dispute as read: amounts as text (bigint), made numbers by `numbers`. */
const StoredRow = Schema.Struct({
  gateway: Schema.String,
  disputeId: Schema.String,
  communityId: CommunityId,
  chargeId: Schema.String,
  status: Schema.Literal("open", "won", "lost"),
  currency: Schema.String,
  amount: Schema.String,
  held: Schema.String,
  fee: Schema.String,
  feeCurrency: Schema.NullOr(Schema.String),
  reason: Schema.NullOr(Schema.String),
  openedAt: Schema.NullOr(Schema.DateFromSelf),
  closedAt: Schema.NullOr(Schema.DateFromSelf),
  updatedAt: Schema.DateFromSelf
})
type Stored = typeof StoredRow.Type
const decodeStored = Schema.decodeUnknown(Schema.Array(StoredRow))

const numbers = (row: Stored): DisputeRow => ({
  ...row,
  amount: Number(row.amount),
  held: Number(row.held),
  fee: Number(row.fee)
})

/** SQL of `disputes`: one row per gateway dispute, changed under its row lock. */
export class DisputesRepo extends Effect.Service<DisputesRepo>()("@roda/core/DisputesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** The dispute, locked until the transaction ends; undefined when none is stored. */
    const lock = (gateway: string, disputeId: string) =>
      sql`SELECT gateway, dispute_id, community_id, charge_id, status, currency, amount::text AS amount,
          held::text AS held, fee::text AS fee, fee_currency, reason, opened_at, closed_at, updated_at
        FROM disputes WHERE gateway = ${gateway} AND dispute_id = ${disputeId} FOR UPDATE`.pipe(
        Effect.flatMap(decodeStored),
        Effect.map((rows) => rows[0] === undefined ? undefined : numbers(rows[0])),
        Effect.orDie
      )

    /**
     * Stores a dispute seen for the first time; false when a concurrent delivery stored it first
     * (the insert waits for that transaction, then the caller locks the row it wrote).
     */
    const insert = (row: DisputeRow) =>
      sql`INSERT INTO disputes ${sql.insert(row)} ON CONFLICT (gateway, dispute_id) DO NOTHING RETURNING dispute_id`
        .pipe(Effect.map((rows) => rows.length > 0), Effect.orDie)

    const update = (row: DisputeRow) =>
      sql`UPDATE disputes SET status = ${row.status}, held = ${row.held}, fee = ${row.fee},
          fee_currency = ${row.feeCurrency}, opened_at = ${row.openedAt}, closed_at = ${row.closedAt},
          updated_at = ${row.updatedAt}
        WHERE gateway = ${row.gateway} AND dispute_id = ${row.disputeId}`.pipe(Effect.asVoid, Effect.orDie)

    /**
     * A dispute's event source for `WebhookEvents.emitWithin`: `view` with the `purchaseId` of the
     * charge's ONE_TIME sale (null for a plan's charge or a renewal billing), read by the event's insert.
     */
    const eventOf = (communityId: CommunityId, chargeId: string, view: Record<string, unknown>) => ({
      from: sql`(SELECT (SELECT id FROM purchases WHERE community_id = ${communityId} AND charge_id = ${chargeId})
        AS purchase_id) sale`,
      data: sql`${JSON.stringify(view)}::jsonb || jsonb_build_object('purchaseId', sale.purchase_id)`
    })

    /** Runs the CTEs of `emitWithin` as a statement of their own (in the caller's transaction). */
    const write = (within: Fragment) => sql`WITH ${within} SELECT 1`.pipe(Effect.asVoid, Effect.orDie)

    return { lock, insert, update, eventOf, write }
  })
}) {}
