import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import { badRequest, conflict, fieldError, invalidField, notFound } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { Uuid } from "../../domain/Ids"
import { formatMoney, roundHalfEven } from "../../domain/Money"
import { decodeCursor, DEFAULT_LIMIT, type PageQuery, toPage } from "../../domain/Pagination"
import { requireRole } from "../../domain/Policy"
import { managerRoles, type Role } from "../../domain/Role"
import { LedgerPosting } from "../../money/ledger/LedgerPosting"
import { Ids } from "../../platform/Ids"
import { Mailer } from "../../platform/Mailer"
import { PaymentGateway } from "../../platform/PaymentGateway"
import { transactional } from "../../sql/transaction"
import { Entitlements } from "../../structure/Entitlements"
import { Stock } from "../catalogue/Stock"
import { CouponRedemption } from "../coupons/CouponRedemption"
import { ManageRepo, type SaleRow, type SaleStatus } from "./ManageRepo"
import { refundMessages as M } from "./refundMessages"

/** Who reads the sales list: managers and the finance role. */
export const salesReaders: ReadonlyArray<Role> = ["owner", "admin", "finance"]

const SaleCursor = Schema.Tuple(Uuid)
const DAY_MS = 24 * 60 * 60 * 1000
const DEFAULT_WINDOW_DAYS = 180
const dateOnly = /^\d{4}-\d{2}-\d{2}$/
const startOf = (value: string) => new Date(dateOnly.test(value) ? `${value}T00:00:00Z` : value)
const endOf = (value: string) =>
  dateOnly.test(value)
    ? new Date(new Date(`${value}T00:00:00Z`).getTime() + DAY_MS)
    : new Date(new Date(value).getTime() + 1)

export interface SaleQuery extends PageQuery {
  readonly productId?: string | undefined
  readonly profileId?: string | undefined
  readonly paymentMethod?: string | undefined
  readonly status?: SaleStatus | undefined
  readonly from?: string | undefined
  readonly to?: string | undefined
}

export interface RefundInput {
  readonly amount?: number | undefined
  readonly reason: string
}

const statusOf = (row: SaleRow): SaleStatus =>
  row.refundedAmount === 0 ? "paid" : row.refundedAmount >= row.total ? "refunded" : "partially_refunded"

const iso = (date: Date | null) => date === null ? null : new Date(date).toISOString()

export const saleView = (row: SaleRow) => ({
  id: row.id,
  chargeId: row.chargeId,
  status: statusOf(row),
  buyer: { profileId: row.profileId, fullName: row.buyerName, email: row.buyerEmail },
  product: { id: row.productId, title: row.productTitle },
  paymentMethod: row.paymentMethod,
  installments: row.installments,
  currency: row.currency,
  amount: row.amount,
  discount: row.discount,
  interest: row.interest,
  total: row.total,
  fee: row.fee,
  net: row.net,
  refundedAmount: row.refundedAmount,
  paidAt: iso(row.paidAt),
  createdAt: iso(row.createdAt)!
})

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. */
const csvField = (value: string | number | null) => {
  const text = value === null ? "" : String(value)
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, "\"\"")}"` : text
}
export const SALES_CSV_HEADER = [
  "id",
  "chargeId",
  "status",
  "buyerProfileId",
  "buyerName",
  "buyerEmail",
  "productId",
  "productTitle",
  "paymentMethod",
  "installments",
  "currency",
  "total",
  "fee",
  "net",
  "refundedAmount",
  "paidAt",
  "createdAt"
]
const csvLine = (row: SaleRow) => {
  const v = saleView(row)
  return [
    v.id,
    v.chargeId,
    v.status,
    v.buyer.profileId,
    v.buyer.fullName,
    v.buyer.email,
    v.product.id,
    v.product.title,
    v.paymentMethod,
    v.installments,
    v.currency,
    v.total,
    v.fee,
    v.net,
    v.refundedAmount,
    v.paidAt,
    v.createdAt
  ].map(csvField).join(",") + "\r\n"
}

/**
 * The team's side of sales (`/api/manage/purchases`): the sales list with filters and its CSV, and
 * refunds. A refund locks the charge row (concurrent refunds of one purchase run one at a time, so
 * the refunded sum never passes the total), asks the gateway within its refund window, writes the
 * ledger (pending first, then available), and, once the purchase is refunded in full, ends the
 * access it gave and releases its stock unit and coupon use; the buyer gets a receipt.
 */
export class Refunds extends Effect.Service<Refunds>()("@roda/core/Refunds", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* ManageRepo
    const ledger = yield* LedgerPosting
    const gateway = yield* PaymentGateway
    const entitlements = yield* Entitlements
    const stock = yield* Stock
    const coupons = yield* CouponRedemption
    const mailer = yield* Mailer
    const ids = yield* Ids
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const filterOf = (query: SaleQuery) =>
      Effect.gen(function*() {
        const from = query.from === undefined ? undefined : startOf(query.from)
        const until = query.to === undefined ? undefined : endOf(query.to)
        if (from !== undefined && until !== undefined && from.getTime() >= until.getTime()) {
          return yield* Effect.fail(invalidField("to", M.periodOrder, "query"))
        }
        return {
          productId: query.productId?.toLowerCase(),
          profileId: query.profileId?.toLowerCase(),
          paymentMethod: query.paymentMethod,
          status: query.status,
          from,
          until
        }
      })

    const list = Effect.fn("Refunds.list")(function*(member: Member, query: SaleQuery) {
      yield* requireRole(member, salesReaders)
      const filter = yield* filterOf(query)
      const limit = query.limit ?? DEFAULT_LIMIT
      const cursor = yield* decodeCursor(query.cursor, SaleCursor)
      const rows = yield* repo.list(member.communityId, { ...filter, before: cursor?.[0], limit })
      const page = toPage(rows, limit, (row) => [row.id])
      return { items: page.items.map(saleView), pagination: page.pagination }
    })

    /** Every sale matching the filters as CSV: a header line, then pages of 500 rows read by keyset. */
    const csv = Effect.fn("Refunds.csv")(function*(member: Member, query: Omit<SaleQuery, "cursor" | "limit">) {
      yield* requireRole(member, salesReaders)
      const filter = yield* filterOf(query)
      const chunks: Array<string> = [SALES_CSV_HEADER.join(",") + "\r\n"]
      let before: string | undefined
      while (true) {
        const rows = yield* repo.list(member.communityId, { ...filter, before, limit: 500 })
        const page = rows.slice(0, 500)
        chunks.push(page.map(csvLine).join(""))
        if (rows.length <= 500) break
        before = page[page.length - 1]!.id
      }
      return chunks.join("")
    })

    const refund = Effect.fn("Refunds.refund")(function*(member: Member, purchaseId: string, input: RefundInput) {
      yield* requireRole(member, managerRoles)
      const { communityId } = member
      const id = purchaseId.toLowerCase()
      const refundId = yield* ids.next
      const result = yield* transactional(sql)(Effect.gen(function*() {
        const found = yield* repo.sale(communityId, id)
        if (Option.isNone(found)) return yield* Effect.fail(notFound(M.purchaseNotFound))
        const sale = found.value
        // One refund of a charge at a time: the rest is read under the lock.
        const locked = yield* repo.lockCharge(communityId, sale.chargeId)
        // The ledger also counts refunds made elsewhere (a subscription's cancellation with refund).
        const inLedger = yield* ledger.refundable(communityId, sale.chargeId)
        const left = Math.min(locked.total - locked.refundedAmount, Option.getOrElse(inLedger, () => Infinity))
        if (left <= 0) {
          return yield* Effect.fail(conflict(M.alreadyRefunded, [fieldError("status", M.alreadyRefunded)]))
        }
        const amount = input.amount ?? left
        if (amount > left) return yield* Effect.fail(invalidField("amount", M.beyondAmount(left, sale.currency)))
        const at = yield* now
        const windowDays = gateway.refundWindowDays ?? DEFAULT_WINDOW_DAYS
        if (sale.paidAt !== null && at.getTime() > new Date(sale.paidAt).getTime() + windowDays * DAY_MS) {
          const text = M.windowClosed(windowDays)
          return yield* Effect.fail(conflict(text, [fieldError("status", text)]))
        }
        if (gateway.refund === undefined) return yield* Effect.fail(badRequest(M.noRefunds))
        // The platform's parts, proportional to the refunded sum so far (rounded once per total, no drift).
        const share = (part: number, refunded: number) =>
          Number(roundHalfEven(BigInt(part) * BigInt(refunded), BigInt(locked.total)))
        const after = locked.refundedAmount + amount
        const fee = Math.min(amount, share(sale.fee, after) - share(sale.fee, locked.refundedAmount))
        const interest = Math.min(
          amount - fee,
          share(sale.interest, after) - share(sale.interest, locked.refundedAmount)
        )
        const outcome = yield* gateway.refund({
          chargeId: sale.chargeId,
          gatewayChargeId: null,
          amount,
          currency: sale.currency
        })
        if (outcome._tag === "Refused") return yield* Effect.fail(badRequest(M.gatewayRefused(outcome.reason)))
        if (!(yield* repo.addRefunded(communityId, sale.chargeId, amount))) {
          return yield* Effect.dieMessage("Refunds.refund: refunded sum would pass the total under the lock")
        }
        const full = after === locked.total
        yield* repo.insertRefund({
          id: refundId,
          communityId,
          chargeId: sale.chargeId,
          purchaseId: sale.id,
          amount,
          fee,
          interest,
          currency: sale.currency,
          reason: input.reason,
          fullRefund: full,
          gatewayRefundId: outcome.gatewayRefundId,
          refundedBy: member.profileId,
          createdAt: at
        })
        const posted = yield* ledger.recordRefund({
          communityId,
          chargeId: sale.chargeId,
          refundId,
          currency: sale.currency,
          amount,
          fee,
          interest,
          at,
          description: `Reembolso: ${sale.productTitle}`
        })
        if (full) {
          yield* entitlements.endOne({
            communityId,
            profileId: sale.profileId,
            sourceType: "product",
            sourceId: sale.productId,
            at
          })
          if (sale.stockReserved) yield* stock.giveBack(communityId, sale.productId)
          if (sale.couponId !== null) yield* coupons.refund(communityId, sale.chargeId)
        }
        if (sale.buyerEmail !== null) {
          const money = formatMoney(amount, sale.currency)
          yield* mailer.send({
            to: sale.buyerEmail,
            communityId,
            kind: "refund",
            subject: `Reembolso: ${sale.productTitle} / Refund: ${sale.productTitle}`,
            text: `Reembolso de ${money} da compra ${sale.productTitle} (cobrança ${sale.chargeId}).\n` +
              `Refund of ${money} for ${sale.productTitle} (charge ${sale.chargeId}).`
          })
        }
        return { amount, fee, interest, full, ...posted, gatewayRefundId: outcome.gatewayRefundId, at }
      }))
      const sale = Option.getOrThrow(yield* repo.sale(communityId, id))
      return {
        id: refundId,
        purchaseId: id,
        amount: result.amount,
        currency: sale.currency,
        full: result.full,
        platformFeeReturned: result.fee,
        interestReturned: result.interest,
        fromPending: result.fromPending,
        fromAvailable: result.fromAvailable,
        reason: input.reason,
        createdAt: result.at.toISOString(),
        purchase: saleView(sale)
      }
    })

    return { list, csv, refund }
  }),
  dependencies: [ManageRepo.Default]
}) {}
