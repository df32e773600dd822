import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Effect, Option, Schema } from "effect"
import { CsvPage, csvPageSql } from "../../domain/Csv"
import { CommunityId, ProfileId } from "../../domain/Ids"
import { SALE_CSV_LINE } from "./salesCsv"

/** How a sale was paid, its amounts as text (bigint): the columns of every read of a sale. */
export const salePaymentFields = {
  paymentMethod: Schema.String,
  installments: Schema.Number,
  currency: Schema.String,
  amount: Schema.String,
  discount: Schema.String,
  interest: Schema.String,
  total: Schema.String,
  fee: Schema.String,
  net: Schema.String,
  refundedAmount: Schema.String
}

/** A sale as read: its amounts as text (bigint), made numbers by `decode`. */
const SaleText = Schema.Struct({
  id: Schema.String,
  chargeId: Schema.String,
  profileId: ProfileId,
  buyerName: Schema.String,
  buyerEmail: Schema.NullOr(Schema.String),
  productId: Schema.String,
  productTitle: Schema.String,
  ...salePaymentFields,
  couponId: Schema.NullOr(Schema.String),
  stockReserved: Schema.Boolean,
  paidAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf
})
type SaleText = typeof SaleText.Type

/** A sale of the community as the team's sales list shows it. */
export type SaleRow = Omit<SaleText, Money> & { readonly [K in Money]: number }

import type { SaleStatus } from "./saleStatuses"
export { type SaleStatus, saleStatuses } from "./saleStatuses"

export interface SaleFilter {
  readonly productId?: string | undefined
  readonly profileId?: string | undefined
  readonly paymentMethod?: string | undefined
  readonly status?: SaleStatus | undefined
  readonly from?: Date | undefined
  /** Exclusive. */
  readonly until?: Date | undefined
  readonly before?: string | undefined
  readonly limit: number
}

/** A type alias (not an interface), so that it is a `Record` for `sql.insert`. */
export type RefundRow = {
  readonly id: string
  readonly communityId: CommunityId
  readonly chargeId: string
  readonly purchaseId: string | null
  readonly amount: number
  readonly fee: number
  readonly interest: number
  readonly currency: string
  readonly reason: string
  readonly fullRefund: boolean
  readonly gatewayRefundId: string | null
  /** The team member who asked; null for a refund or chargeback the gateway reported. */
  readonly refundedBy: string | null
  readonly createdAt: Date
  /** `pending` while the gateway is asked (outside any transaction), then `succeeded` or `failed`. */
  readonly status: "pending" | "succeeded" | "failed"
  readonly kind: "refund" | "chargeback"
  readonly requestKey?: string | null | undefined
  readonly requestFingerprint?: string | null | undefined
}

type Money = "amount" | "discount" | "interest" | "total" | "fee" | "net" | "refundedAmount"
const decode = (row: SaleText): SaleRow => ({
  ...row,
  amount: Number(row.amount),
  discount: Number(row.discount),
  interest: Number(row.interest),
  total: Number(row.total),
  fee: Number(row.fee),
  net: Number(row.net),
  refundedAmount: Number(row.refundedAmount)
})

const RefundStored = Schema.Struct({
  id: Schema.String,
  communityId: CommunityId,
  chargeId: Schema.String,
  purchaseId: Schema.NullOr(Schema.String),
  amount: Schema.Number,
  fee: Schema.Number,
  interest: Schema.Number,
  currency: Schema.String,
  reason: Schema.String,
  fullRefund: Schema.Boolean,
  gatewayRefundId: Schema.NullOr(Schema.String),
  refundedBy: Schema.NullOr(ProfileId),
  createdAt: Schema.DateFromSelf,
  status: Schema.Literal("pending", "succeeded", "failed"),
  kind: Schema.Literal("refund", "chargeback")
})
const ChargeSumsText = Schema.Struct({ refundedAmount: Schema.String, total: Schema.String })
const IdRow = Schema.Struct({ id: Schema.String })
const GatewayChargeRow = Schema.Struct({ gatewayChargeId: Schema.NullOr(Schema.String) })
const KeyedRefundRow = Schema.Struct({
  id: Schema.String,
  status: Schema.String,
  requestFingerprint: Schema.NullOr(Schema.String),
  answer: Schema.NullOr(Schema.String)
})

/** SQL of the team's side of sales: the sales list and refunds (checkout's own tables). */
export class ManageRepo extends Effect.Service<ManageRepo>()("@roda/core/CheckoutManageRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decodeSales = Schema.decodeUnknown(Schema.Array(SaleText))
    const decodeRefunds = Schema.decodeUnknown(Schema.Array(RefundStored))
    const decodeSums = Schema.decodeUnknown(Schema.Array(ChargeSumsText))
    const decodeIds = Schema.decodeUnknown(Schema.Array(IdRow))
    const decodeGatewayCharges = Schema.decodeUnknown(Schema.Array(GatewayChargeRow))
    const decodeKeyed = Schema.decodeUnknown(Schema.Array(KeyedRefundRow))
    const decodeCsvPage = Schema.decodeUnknown(Schema.Array(CsvPage))

    /** The sales of `purchases` (the table, or a CTE of purchases just inserted). */
    const selectFrom = (purchases: Fragment) =>
      sql`SELECT pu.id, pu.charge_id, pu.profile_id, pr.full_name AS buyer_name, a.email AS buyer_email,
        pu.product_id, p.title AS product_title, c.payment_method, c.installments, c.currency,
        c.amount::text AS amount, c.discount::text AS discount, c.interest::text AS interest, c.total::text AS total,
        c.fee::text AS fee, c.net::text AS net, c.refunded_amount::text AS refunded_amount, c.coupon_id, c.stock_reserved, c.paid_at,
        pu.created_at
      FROM ${purchases} pu
      JOIN charges c ON c.community_id = pu.community_id AND c.id = pu.charge_id
      JOIN product_summaries p ON p.community_id = pu.community_id AND p.id = pu.product_id
      JOIN member_cards pr ON pr.community_id = pu.community_id AND pr.id = pu.profile_id
      LEFT JOIN account_contacts a ON a.id = pr.account_id`
    const select = selectFrom(sql`purchases`)

    const statusIs = (status: SaleStatus) =>
      status === "paid"
        ? sql`c.refunded_amount = 0`
        : status === "refunded"
        ? sql`c.refunded_amount = c.total AND c.total > 0`
        : sql`c.refunded_amount > 0 AND c.refunded_amount < c.total`

    const matching = (communityId: CommunityId, filter: SaleFilter) =>
      sql.and([
        sql`pu.community_id = ${communityId}`,
        ...(filter.productId ? [sql`pu.product_id = ${filter.productId}`] : []),
        ...(filter.profileId ? [sql`pu.profile_id = ${filter.profileId}`] : []),
        ...(filter.paymentMethod ? [sql`c.payment_method = ${filter.paymentMethod}`] : []),
        ...(filter.status ? [statusIs(filter.status)] : []),
        ...(filter.from ? [sql`pu.created_at >= ${filter.from}`] : []),
        ...(filter.until ? [sql`pu.created_at < ${filter.until}`] : []),
        ...(filter.before ? [sql`pu.id < ${filter.before}`] : [])
      ])

    const list = (communityId: CommunityId, filter: SaleFilter) =>
      sql`${select}
        WHERE ${matching(communityId, filter)}
        ORDER BY pu.id DESC LIMIT ${filter.limit + 1}`.pipe(
        Effect.flatMap(decodeSales),
        Effect.map((rows) => rows.map(decode)),
        Effect.orDie
      )

    /**
     * A page of the CSV export (thousands of lines), written by PostgreSQL (`SALE_CSV_LINE`) so that
     * Node only joins the pages' text. The buyer and the e-mail are LATERAL lookups by key (`LIMIT 1`
     * keeps them from being flattened into joins): the planner misjudges how many rows the
     * community's joins keep and would otherwise hash-join a scan of every community's profiles and
     * accounts.
     */
    const exportPage = (communityId: CommunityId, filter: SaleFilter) =>
      csvPageSql(
        sql,
        sql`SELECT pu.id, ${sql.unsafe(SALE_CSV_LINE)} AS line
        FROM purchases pu
        JOIN charges c ON c.community_id = pu.community_id AND c.id = pu.charge_id
        JOIN product_summaries p ON p.community_id = pu.community_id AND p.id = pu.product_id
        JOIN LATERAL (SELECT m.full_name, m.account_id FROM member_cards m
          WHERE m.community_id = pu.community_id AND m.id = pu.profile_id LIMIT 1) pr ON true
        LEFT JOIN LATERAL (SELECT ac.email FROM account_contacts ac WHERE ac.id = pr.account_id LIMIT 1) a ON true
        WHERE ${matching(communityId, filter)}
        ORDER BY pu.id DESC LIMIT ${filter.limit}`
      ).pipe(Effect.flatMap(decodeCsvPage), Effect.map((rows) => rows[0]!), Effect.orDie)

    const sale = (communityId: CommunityId, purchaseId: string) =>
      sql`${select} WHERE pu.community_id = ${communityId} AND pu.id = ${purchaseId}`.pipe(
        Effect.flatMap(decodeSales),
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), decode)),
        Effect.orDie
      )

    /**
     * Records a ONE_TIME sale of a charge and answers it as `sale` does, in one statement (the
     * charge as earlier statements of the transaction left it).
     */
    const insertSale = (
      row: { id: string; communityId: CommunityId; profileId: ProfileId; productId: string; chargeId: string }
    ) =>
      sql`WITH inserted AS (INSERT INTO purchases ${sql.insert(row)} RETURNING *)
        ${selectFrom(sql`inserted`)}`.pipe(
        Effect.flatMap(decodeSales),
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), decode)),
        Effect.orDie
      )

    /** Locks the charge row: refunds of one charge run one at a time. */
    const lockCharge = (communityId: CommunityId, chargeId: string) =>
      sql`SELECT refunded_amount::text AS refunded_amount,
          total::text AS total FROM charges WHERE community_id = ${communityId} AND id = ${chargeId} FOR UPDATE`.pipe(
        Effect.flatMap(decodeSums),
        Effect.map((rows) => ({ refundedAmount: Number(rows[0]!.refundedAmount), total: Number(rows[0]!.total) })),
        Effect.orDie
      )

    /** Adds a refund to the charge's refunded sum, never beyond its total; whether it did. */
    const addRefunded = (communityId: CommunityId, chargeId: string, amount: number) =>
      sql`UPDATE charges SET refunded_amount = refunded_amount + ${amount}, updated_at = now()
        WHERE community_id = ${communityId} AND id = ${chargeId} AND refunded_amount + ${amount} <= total
        RETURNING id`.pipe(Effect.flatMap(decodeIds), Effect.map((rows) => rows.length > 0), Effect.orDie)

    const insertRefund = (row: RefundRow) =>
      sql`INSERT INTO refunds ${sql.insert(row)}`.pipe(Effect.asVoid, Effect.orDie)

    /** Records the gateway's answer to a pending refund; false when it was no longer pending. */
    const finishRefund = (id: string, status: "succeeded" | "failed", gatewayRefundId: string | null) =>
      sql`UPDATE refunds SET status = ${status}, gateway_refund_id = ${gatewayRefundId}
        WHERE id = ${id} AND status = 'pending' RETURNING id`.pipe(
        Effect.flatMap(decodeIds),
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )

    /** Takes a failed refund's amount off the charge's refunded sum. */
    const subtractRefunded = (communityId: CommunityId, chargeId: string, amount: number) =>
      sql`UPDATE charges SET refunded_amount = refunded_amount - ${amount}, updated_at = now()
        WHERE community_id = ${communityId} AND id = ${chargeId}`.pipe(Effect.asVoid, Effect.orDie)

    const refund = (communityId: CommunityId, id: string) =>
      sql`SELECT id, community_id, charge_id, purchase_id, amount::float8 AS amount, fee::float8 AS fee,
          interest::float8 AS interest, currency, reason, full_refund, gateway_refund_id, refunded_by, created_at, status, kind
        FROM refunds WHERE community_id = ${communityId} AND id = ${id} FOR UPDATE`.pipe(
        Effect.flatMap(decodeRefunds),
        Effect.map((rows) => Option.fromNullable(rows[0])),
        Effect.orDie
      )

    /** The automatic refund of a late payment of a charge (one per charge), if any. */
    const lateRefundOf = (communityId: CommunityId, chargeId: string, key: string) =>
      sql`SELECT id FROM refunds
        WHERE community_id = ${communityId} AND charge_id = ${chargeId} AND refunded_by IS NULL
          AND request_key = ${key}`.pipe(
        Effect.flatMap(decodeIds),
        Effect.map((rows) => Option.fromNullable(rows[0]?.id)),
        Effect.orDie
      )

    const gatewayCharge = (communityId: CommunityId, chargeId: string) =>
      sql`SELECT gateway_charge_id FROM charges
        WHERE community_id = ${communityId} AND id = ${chargeId}`.pipe(
        Effect.flatMap(decodeGatewayCharges),
        Effect.map((rows) => rows[0]?.gatewayChargeId ?? null),
        Effect.orDie
      )

    /** The refund a team member asked with an Idempotency-Key, if any. */
    const refundByKey = (communityId: CommunityId, profileId: ProfileId, key: string) =>
      sql`SELECT id, status, request_fingerprint, answer::text AS answer FROM refunds
        WHERE community_id = ${communityId} AND refunded_by = ${profileId} AND request_key = ${key}`.pipe(
        Effect.flatMap(decodeKeyed),
        Effect.map((rows) => Option.fromNullable(rows[0])),
        Effect.orDie
      )

    /** Lets a refused refund's key go, so the same key may be tried again. */
    const releaseKey = (id: string) =>
      sql`UPDATE refunds SET request_key = NULL WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)

    const storeAnswer = (id: string, answer: unknown) =>
      sql`UPDATE refunds SET answer = ${JSON.stringify(answer)}::jsonb WHERE id = ${id}`.pipe(
        Effect.asVoid,
        Effect.orDie
      )

    return {
      list,
      exportPage,
      sale,
      insertSale,
      lockCharge,
      gatewayCharge,
      lateRefundOf,
      refundByKey,
      releaseKey,
      storeAnswer,
      addRefunded,
      insertRefund,
      finishRefund,
      subtractRefunded,
      refund
    }
  })
}) {}
