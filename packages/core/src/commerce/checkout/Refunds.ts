import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import { badRequest, conflict, fieldError, invalidField } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { csvLine } from "../../domain/Csv"
import { rangeEnd, rangeStart } from "../../domain/DateRange"
import { orNotFound } from "../../domain/found"
import { CommunityId, Uuid } from "../../domain/Ids"
import { Messages } from "../../domain/Messages"
import { type PageQuery, paginate } from "../../domain/Pagination"
import { requireRole } from "../../domain/Policy"
import { managerRoles, type Role } from "../../domain/Role"
import { LedgerPosting } from "../../money/ledger/LedgerPosting"
import { Ids } from "../../platform/Ids"
import { Jobs } from "../../platform/Jobs"
import { PaymentGateway, type RefundOutcome } from "../../platform/PaymentGateway"
import { traced } from "../../platform/traced"
import { transactional } from "../../sql/transaction"
import { ManageRepo, type SaleStatus } from "./ManageRepo"
import { refundMessages as M } from "./refundMessages"
import { refundParts, RefundPosting } from "./RefundPosting"
import { SALES_CSV_HEADER } from "./salesCsv"
import { saleView } from "./saleView"
import { RECONCILE_AFTER_MS } from "./Settlement"

/** Who reads the sales list: managers and the finance role. */
export const salesReaders: ReadonlyArray<Role> = ["owner", "admin", "finance"]

const SaleCursor = Schema.Tuple(Uuid)
const REFUND_RECONCILE_JOB = "checkout.refundReconcile"
const RefundJob = Schema.Struct({ communityId: CommunityId, refundId: Schema.String })
const DAY_MS = 24 * 60 * 60 * 1000
const DEFAULT_WINDOW_DAYS = 180
/**
 * Lines per statement of the CSV export: 50,000 sales in 11 statements (the last finds none). Larger
 * pages were no faster, and a page's lines (~1.5 MB) sort for `string_agg` well within `work_mem`.
 */
const CSV_PAGE = 5000

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

/** The answer of a refund (stored with its Idempotency-Key and replayed). */
interface RefundAnswer {
  readonly id: string
  readonly purchaseId: string
  readonly amount: number
  readonly currency: string
  readonly full: boolean
  readonly platformFeeReturned: number
  readonly interestReturned: number
  readonly fromPending: number
  readonly fromAvailable: number
  readonly reason: string
  readonly createdAt: string
  readonly purchase: ReturnType<typeof saleView>
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
    const posting = yield* RefundPosting
    const jobs = yield* Jobs
    const ids = yield* Ids
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const filterOf = (query: SaleQuery) =>
      Effect.gen(function*() {
        const from = query.from === undefined ? undefined : rangeStart(query.from)
        const until = query.to === undefined ? undefined : rangeEnd(query.to)
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

    const list = traced("Refunds.list")(function*(member: Member, query: SaleQuery) {
      yield* requireRole(member, salesReaders)
      const filter = yield* filterOf(query)
      const page = yield* paginate(
        query,
        SaleCursor,
        (after, limit) => repo.list(member.communityId, { ...filter, before: after?.[0], limit }),
        (row) => [row.id]
      )
      return { items: page.items.map(saleView), pagination: page.pagination }
    })

    /** Every sale matching the filters as CSV: a header line, then pages of lines PostgreSQL writes, by keyset. */
    const csv = traced("Refunds.csv")(function*(member: Member, query: Omit<SaleQuery, "cursor" | "limit">) {
      yield* requireRole(member, salesReaders)
      const filter = yield* filterOf(query)
      const chunks: Array<string> = [csvLine(SALES_CSV_HEADER)]
      let before: string | undefined
      while (true) {
        const page = yield* repo.exportPage(member.communityId, { ...filter, before, limit: CSV_PAGE })
        if (page.lines !== null) chunks.push(page.lines)
        if (page.count < CSV_PAGE || page.last === null) break
        before = page.last
      }
      return chunks.join("")
    })

    /**
     * The gateway's answer to a pending refund, applied once in its own transaction: `succeeded`
     * posts it (ledger, access, stock, coupon, receipt), `failed` gives its amount back to what is
     * left to refund. The refund row afterwards.
     */
    const finish = (communityId: CommunityId, refundId: string, outcome: RefundOutcome) =>
      transactional(sql)(Effect.gen(function*() {
        const found = yield* repo.refund(communityId, refundId)
        if (Option.isNone(found)) return yield* Effect.dieMessage("Refunds.finish: the refund is gone")
        const row = found.value
        if (row.status !== "pending") return row
        yield* repo.lockCharge(communityId, row.chargeId)
        if (outcome._tag === "Refused") {
          yield* repo.finishRefund(refundId, "failed", null)
          yield* repo.subtractRefunded(communityId, row.chargeId, row.amount)
          return { ...row, status: "failed" as const }
        }
        yield* repo.finishRefund(refundId, "succeeded", outcome.gatewayRefundId)
        const posted = yield* posting.post({
          refundId,
          communityId,
          chargeId: row.chargeId,
          amount: row.amount,
          fee: row.fee,
          interest: row.interest,
          currency: row.currency,
          full: row.fullRefund,
          at: row.createdAt,
          kind: "refund",
          reason: row.reason
        })
        return { ...row, status: "succeeded" as const, gatewayRefundId: outcome.gatewayRefundId, ...posted }
      }))

    /** Asks the gateway for a refund; the same refund id asks again without refunding twice (idempotency key). */
    const askGateway = (
      row: { readonly id: string; readonly chargeId: string; readonly amount: number; readonly currency: string },
      gatewayChargeId: string | null
    ) =>
      gateway.refund === undefined
        ? Effect.succeed<RefundOutcome>({ _tag: "Refused", reason: "refunds not supported" })
        : gateway.refund({
          refundId: row.id,
          chargeId: row.chargeId,
          gatewayChargeId,
          amount: row.amount,
          currency: row.currency
        })

    /** The job that finishes a refund left pending by a crash between the gateway and the second transaction. */
    yield* jobs.handle(REFUND_RECONCILE_JOB, (payload) =>
      Effect.gen(function*() {
        const job = yield* Schema.decodeUnknown(RefundJob)(payload).pipe(Effect.orDie)
        const found = yield* repo.refund(job.communityId, job.refundId)
        if (Option.isNone(found) || found.value.status !== "pending") return
        const charge = yield* repo.gatewayCharge(job.communityId, found.value.chargeId)
        yield* finish(job.communityId, job.refundId, yield* askGateway(found.value, charge))
      }))

    /**
     * A team refund in two transactions with the gateway asked between them: the first locks the
     * charge, checks what is left and the window, and writes the refund `pending` with its amount
     * added to the charge's refunded sum (so a concurrent refund sees it); the gateway is asked
     * with the refund id as idempotency key; the second posts it or gives the amount back.
     */
    const refund = traced("Refunds.refund")(function*(
      member: Member,
      purchaseId: string,
      input: RefundInput,
      idempotencyKey?: string | undefined
    ) {
      yield* requireRole(member, managerRoles)
      const { communityId } = member
      const id = purchaseId.toLowerCase()
      const refundId = yield* ids.next
      if (gateway.refund === undefined) return yield* Effect.fail(badRequest(M.noRefunds))
      const fingerprint = JSON.stringify([id, input.amount ?? null, input.reason])
      const keyReused = conflict(Messages.idempotencyKeyReused, [
        fieldError("Idempotency-Key", Messages.idempotencyKeyReused, "headers")
      ])
      const pending = yield* transactional(sql)(Effect.gen(function*() {
        const sale = yield* orNotFound(M.purchaseNotFound)(repo.sale(communityId, id))
        // One refund of a charge at a time: the rest is read under the lock.
        const locked = yield* repo.lockCharge(communityId, sale.chargeId)
        if (idempotencyKey !== undefined) {
          const prior = yield* repo.refundByKey(communityId, member.profileId, idempotencyKey)
          if (Option.isSome(prior)) {
            if (prior.value.requestFingerprint !== fingerprint || prior.value.status === "pending") {
              return yield* Effect.fail(keyReused)
            }
            if (prior.value.answer !== null) return { replay: JSON.parse(prior.value.answer) as RefundAnswer }
            yield* repo.releaseKey(prior.value.id)
          }
        }
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
        const parts = refundParts({ ...locked, fee: sale.fee, interest: sale.interest }, locked.refundedAmount, amount)
        if (!(yield* repo.addRefunded(communityId, sale.chargeId, amount))) {
          return yield* Effect.dieMessage("Refunds.refund: refunded sum would pass the total under the lock")
        }
        const row = {
          id: refundId,
          communityId,
          chargeId: sale.chargeId,
          purchaseId: sale.id,
          amount,
          fee: Math.min(amount, parts.fee),
          interest: parts.interest,
          currency: sale.currency,
          reason: input.reason,
          fullRefund: parts.full,
          gatewayRefundId: null,
          refundedBy: member.profileId,
          createdAt: at,
          status: "pending" as const,
          kind: "refund" as const,
          requestKey: idempotencyKey ?? null,
          requestFingerprint: idempotencyKey === undefined ? null : fingerprint
        }
        yield* repo.insertRefund(row)
        yield* jobs.enqueue({
          kind: REFUND_RECONCILE_JOB,
          key: refundId,
          payload: { communityId, refundId },
          runAt: at.getTime() + RECONCILE_AFTER_MS
        })
        return { row, gatewayChargeId: yield* repo.gatewayCharge(communityId, sale.chargeId) }
      }))
      if ("replay" in pending) return pending.replay
      const outcome = yield* askGateway(pending.row, pending.gatewayChargeId)
      const result = yield* finish(communityId, refundId, outcome)
      if (outcome._tag === "Refused") return yield* Effect.fail(badRequest(M.gatewayRefused(outcome.reason)))
      const posted = result as { readonly fromPending?: number; readonly fromAvailable?: number }
      const sale = Option.getOrThrow(yield* repo.sale(communityId, id))
      const answer: RefundAnswer = {
        id: refundId,
        purchaseId: id,
        amount: result.amount,
        currency: sale.currency,
        full: result.fullRefund,
        platformFeeReturned: result.fee,
        interestReturned: result.interest,
        fromPending: posted.fromPending ?? 0,
        fromAvailable: posted.fromAvailable ?? 0,
        reason: input.reason,
        createdAt: result.createdAt.toISOString(),
        purchase: saleView(sale)
      }
      if (idempotencyKey !== undefined) yield* transactional(sql)(repo.storeAnswer(refundId, answer))
      return answer
    })

    return { list, csv, refund }
  }),
  dependencies: [ManageRepo.Default, RefundPosting.Default]
}) {}
