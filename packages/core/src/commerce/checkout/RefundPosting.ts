import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { type CommunityId, ProfileId } from "../../domain/Ids"
import { formatMoney, roundHalfEven } from "../../domain/Money"
import { LedgerPosting } from "../../money/ledger/LedgerPosting"
import { Ids } from "../../platform/Ids"
import { Mailer } from "../../platform/Mailer"
import { Entitlements } from "../../structure/Entitlements"
import { WebhookEvents } from "../../webhooks/WebhookEvents"
import { Stock } from "../catalogue/Stock"
import { CouponRedemption } from "../coupons/CouponRedemption"
import { ManageRepo, salePaymentFields, type SaleRow } from "./ManageRepo"
import { saleView } from "./saleView"

/** The platform's part of a refund: proportional to the refunded sum so far, rounded once per total (no drift). */
export const refundParts = (
  charge: { readonly total: number; readonly fee: number; readonly interest: number },
  refundedBefore: number,
  amount: number
) => {
  const share = (part: number, refunded: number) =>
    Number(roundHalfEven(BigInt(part) * BigInt(refunded), BigInt(Math.max(1, charge.total))))
  const after = refundedBefore + amount
  const fee = Math.min(amount, share(charge.fee, after) - share(charge.fee, refundedBefore))
  const interest = Math.min(amount - fee, share(charge.interest, after) - share(charge.interest, refundedBefore))
  return { fee, interest, full: after >= charge.total }
}

export interface PostedRefund {
  readonly refundId: string
  readonly communityId: CommunityId
  readonly chargeId: string
  readonly amount: number
  readonly fee: number
  readonly interest: number
  readonly currency: string
  readonly full: boolean
  readonly at: Date
  readonly kind: "refund" | "chargeback"
  readonly reason: string
}

/**
 * What a refund given by the gateway does here, in the caller's transaction (checkout's refunds,
 * and refunds and lost disputes the gateway reports on its own): the ledger (pending first, then
 * available), and, once the purchase is refunded in full, the end of the access it gave and its stock
 * unit given back; a charge refunded in full (a purchase or a plan checkout) gives back its coupon
 * use; the buyer gets a receipt. A refund (not a chargeback: `dispute.closed` tells that) of a
 * ONE_TIME sale is told as `order.refunded`.
 */
/**
 * What a refund of a charge needs to know of its sale, read after the refund's amount was added to
 * the charge: with the columns `saleView` needs for `order.refunded` (amounts as text, bigint).
 */
const SaleOfChargeRow = Schema.Struct({
  purchaseId: Schema.NullOr(Schema.String),
  profileId: ProfileId,
  productId: Schema.String,
  productTitle: Schema.String,
  buyerEmail: Schema.NullOr(Schema.String),
  buyerName: Schema.NullOr(Schema.String),
  stockReserved: Schema.Boolean,
  couponId: Schema.NullOr(Schema.String),
  ...salePaymentFields,
  paidAt: Schema.NullOr(Schema.DateFromSelf),
  purchasedAt: Schema.NullOr(Schema.DateFromSelf)
})
type SaleOfCharge = typeof SaleOfChargeRow.Type

/** The sale as `ManageRepo.sale` reads it; none for a charge that is no purchase (or whose buyer's card is gone). */
const saleRowOf = (chargeId: string, row: SaleOfCharge): Option.Option<SaleRow> =>
  row.purchaseId === null || row.buyerName === null || row.purchasedAt === null ? Option.none() : Option.some({
    id: row.purchaseId,
    chargeId,
    profileId: row.profileId,
    buyerName: row.buyerName,
    buyerEmail: row.buyerEmail,
    productId: row.productId,
    productTitle: row.productTitle,
    paymentMethod: row.paymentMethod,
    installments: row.installments,
    currency: row.currency,
    amount: Number(row.amount),
    discount: Number(row.discount),
    interest: Number(row.interest),
    total: Number(row.total),
    fee: Number(row.fee),
    net: Number(row.net),
    refundedAmount: Number(row.refundedAmount),
    couponId: row.couponId,
    stockReserved: row.stockReserved,
    paidAt: row.paidAt,
    createdAt: row.purchasedAt
  })

export class RefundPosting extends Effect.Service<RefundPosting>()("@roda/core/RefundPosting", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ledger = yield* LedgerPosting
    const entitlements = yield* Entitlements
    const stock = yield* Stock
    const coupons = yield* CouponRedemption
    const mailer = yield* Mailer
    const ids = yield* Ids
    const manage = yield* ManageRepo
    const webhooks = yield* WebhookEvents

    const decodeSales = Schema.decodeUnknown(Schema.Array(SaleOfChargeRow))
    const saleOfCharge = (communityId: CommunityId, chargeId: string) =>
      sql`SELECT pu.id AS purchase_id, c.profile_id, c.product_id, p.title AS product_title, a.email AS buyer_email,
          pr.full_name AS buyer_name, c.stock_reserved, c.coupon_id, c.payment_method, c.installments, c.currency,
          c.amount::text AS amount, c.discount::text AS discount, c.interest::text AS interest, c.total::text AS total,
          c.fee::text AS fee, c.net::text AS net, c.refunded_amount::text AS refunded_amount, c.paid_at,
          pu.created_at AS purchased_at
        FROM charges c
        JOIN product_summaries p ON p.community_id = c.community_id AND p.id = c.product_id
        LEFT JOIN purchases pu ON pu.charge_id = c.id
        LEFT JOIN member_cards pr ON pr.community_id = c.community_id AND pr.id = c.profile_id
        LEFT JOIN account_contacts a ON a.id = pr.account_id
        WHERE c.community_id = ${communityId} AND c.id = ${chargeId}`.pipe(
        Effect.flatMap(decodeSales),
        Effect.map((rows) => Option.fromNullable(rows[0])),
        Effect.orDie
      )

    const post = (refund: PostedRefund) =>
      Effect.gen(function*() {
        const found = yield* saleOfCharge(refund.communityId, refund.chargeId)
        if (Option.isNone(found)) return yield* Effect.dieMessage("RefundPosting.post: the charge is gone")
        const sale = found.value
        const label = refund.kind === "chargeback" ? "Chargeback" : "Reembolso"
        const posted = yield* ledger.recordRefund({
          communityId: refund.communityId,
          chargeId: refund.chargeId,
          refundId: refund.refundId,
          currency: refund.currency,
          amount: refund.amount,
          fee: refund.fee,
          interest: refund.interest,
          at: refund.at,
          description: `${label}: ${sale.productTitle}`
        })
        if (refund.full && sale.purchaseId !== null) {
          yield* entitlements.endOne({
            communityId: refund.communityId,
            profileId: sale.profileId,
            sourceType: "product",
            sourceId: sale.productId,
            at: refund.at
          })
          if (sale.stockReserved) yield* stock.giveBack(refund.communityId, sale.productId)
        }
        // A charge refunded in full gives its coupon use back, a plan checkout's too (its subscription
        // ends). Only a counted use moves (`redeemed -> released`, once): one given back already (the
        // charge expired or failed before a late payment) stays as it is.
        if (refund.full && sale.couponId !== null) yield* coupons.refund(refund.communityId, refund.chargeId)
        if (sale.buyerEmail !== null && refund.kind === "refund") {
          const money = formatMoney(refund.amount, refund.currency)
          yield* mailer.send({
            to: sale.buyerEmail,
            communityId: refund.communityId,
            kind: "refund",
            subject: `Reembolso: ${sale.productTitle} / Refund: ${sale.productTitle}`,
            text: `Reembolso de ${money} da compra ${sale.productTitle} (cobrança ${refund.chargeId}).\n` +
              `Refund of ${money} for ${sale.productTitle} (charge ${refund.chargeId}).`
          })
        }
        if (sale.purchaseId !== null && refund.kind === "refund") {
          // the sale as read above: nothing since changed what the event says of it
          const order = Option.getOrThrow(saleRowOf(refund.chargeId, sale))
          yield* Effect.withSpan(
            webhooks.emit(refund.communityId, "order.refunded", {
              ...saleView(order),
              // the refund as `POST /api/manage/purchases/{id}/refund` answers it, less its `purchase`
              refund: {
                id: refund.refundId,
                purchaseId: sale.purchaseId,
                amount: refund.amount,
                currency: refund.currency,
                full: refund.full,
                platformFeeReturned: refund.fee,
                interestReturned: refund.interest,
                fromPending: posted.fromPending,
                fromAvailable: posted.fromAvailable,
                reason: refund.reason,
                createdAt: refund.at.toISOString()
              }
            }),
            "WebhookEvents.order"
          )
        }
        return posted
      })

    /**
     * A refund or a lost dispute the gateway reports (not asked by Roda): `gatewayTotal` is, for a
     * refund, the charge's refunded total at the gateway (only what Roda does not know of yet is
     * posted); for a chargeback, the amount taken back. Written as a refund row of its `kind`.
     */
    const fromGateway = (
      charge: {
        readonly communityId: CommunityId
        readonly id: string
        readonly total: number
        readonly fee: number
        readonly interest: number
        readonly currency: string
      },
      input: { readonly kind: "refund" | "chargeback"; readonly amount: number; readonly reference: string },
      at: Date
    ) =>
      Effect.gen(function*() {
        const locked = yield* manage.lockCharge(charge.communityId, charge.id)
        const inLedger = yield* ledger.refundable(charge.communityId, charge.id)
        const left = Math.min(locked.total - locked.refundedAmount, Option.getOrElse(inLedger, () => Infinity))
        const wanted = input.kind === "refund" ? input.amount - locked.refundedAmount : input.amount
        const amount = Math.min(left, wanted)
        if (amount <= 0) return 0
        const parts = refundParts(charge, locked.refundedAmount, amount)
        yield* manage.addRefunded(charge.communityId, charge.id, amount)
        const refundId = yield* ids.next
        const reason = input.kind === "chargeback" ? "chargeback lost at the gateway" : "refunded at the gateway"
        yield* manage.insertRefund({
          id: refundId,
          communityId: charge.communityId,
          chargeId: charge.id,
          purchaseId: null,
          amount,
          fee: parts.fee,
          interest: parts.interest,
          currency: charge.currency,
          reason,
          fullRefund: parts.full,
          gatewayRefundId: input.reference,
          refundedBy: null,
          createdAt: at,
          status: "succeeded",
          kind: input.kind
        })
        yield* post({
          refundId,
          communityId: charge.communityId,
          chargeId: charge.id,
          amount,
          ...parts,
          currency: charge.currency,
          at,
          kind: input.kind,
          reason
        })
        return amount
      })

    return { post, fromGateway }
  }),
  dependencies: [ManageRepo.Default]
}) {}
