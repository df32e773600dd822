import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { CommunityId } from "../../domain/Ids"
import { formatMoney, roundHalfEven } from "../../domain/Money"
import { LedgerPosting } from "../../money/ledger/LedgerPosting"
import { Ids } from "../../platform/Ids"
import { Jobs } from "../../platform/Jobs"
import { PaymentGateway } from "../../platform/PaymentGateway"
import { traced } from "../../platform/traced"
import { transactional } from "../../sql/transaction"
import { CouponRedemption } from "../coupons/CouponRedemption"
import { moveBilling, REFUND_JOB } from "./charges"
import { SubscriptionLifecycle } from "./Lifecycle"
import { canMove, phaseOf } from "./Policy"
import { type BillingRow, type SubscriptionRow, SubscriptionsRepo } from "./Repo"

const RefundPayload = Schema.Struct({ communityId: CommunityId, refundId: Schema.String })

/**
 * Refunds of billings (`subscription_refunds`): reserved `pending` in the caller's transaction,
 * asked of the gateway outside any transaction (the request, or the refund job after a crash), and
 * posted to the ledger once.
 */
export class SubscriptionRefunds extends Effect.Service<SubscriptionRefunds>()("@roda/core/SubscriptionRefunds", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* SubscriptionsRepo
    const life = yield* SubscriptionLifecycle
    const ids = yield* Ids
    const jobs = yield* Jobs
    const gateway = yield* PaymentGateway
    const ledger = yield* LedgerPosting
    const coupons = yield* CouponRedemption
    const now = life.now
    const tx = transactional(sql)

    /**
     * Writes a refund of (part of) a paid billing `pending`, its amount added to the billing's
     * refunded sum (so a concurrent refund sees it), and schedules the job that asks the gateway
     * (`runAt`: now for a refund nobody waits for; later when the caller asks at once itself).
     */
    const reserveRefund = (
      row: SubscriptionRow,
      billing: BillingRow,
      input: { readonly amount: number; readonly reason: string; readonly endsSubscription: boolean },
      runAt: number
    ) =>
      Effect.gen(function*() {
        const at = yield* now
        const id = yield* ids.next
        yield* repo.insertRefund({
          id,
          communityId: row.communityId,
          subscriptionId: row.id,
          billingId: billing.id,
          amount: input.amount,
          status: "pending",
          reason: input.reason,
          endsSubscription: input.endsSubscription,
          createdAt: at,
          updatedAt: at
        })
        yield* repo.updateBilling(billing.id, { refundedAmount: billing.refundedAmount + input.amount }, at)
        yield* jobs.enqueue({
          kind: REFUND_JOB,
          key: id,
          payload: { communityId: row.communityId, refundId: id },
          runAt
        })
        return id
      })

    /** Posts a refund of a billing to the ledger (the platform's fee given back in proportion). */
    const postRefund = (
      row: SubscriptionRow,
      billing: BillingRow,
      input: { readonly refundId: string; readonly amount: number; readonly label: string },
      at: Date
    ) => {
      const fee = Number(
        roundHalfEven(BigInt(billing.fee) * BigInt(input.amount), BigInt(Math.max(1, billing.amount)))
      )
      return ledger.recordRefund({
        communityId: row.communityId,
        chargeId: billing.id,
        refundId: input.refundId,
        currency: billing.currency,
        amount: input.amount,
        fee: Math.min(fee, input.amount),
        interest: 0,
        at,
        description: `${input.label}: ${row.productTitle}`
      })
    }

    /**
     * The team's cancel with a refund posted a refund of `billing` (in the caller's transaction): when
     * the billing is the checkout's first charge and it is now refunded in full (its own refunds, or
     * every refund the ledger counts of its sale), the checkout coupon's use is given back, as a
     * checkout charge refunded in full at the gateway gives it back (`RefundPosting`): the
     * subscription has ended. Through the coupons' contract, which moves only a counted use
     * (`redeemed -> released`): once, however often asked. (A first charge paid after its
     * subscription moved on is refunded too, but its coupon was settled with the payment:
     * `FirstChargeOutcome.keepsCoupon`.)
     */
    const firstChargeRefunded = (row: SubscriptionRow, billing: BillingRow) =>
      Effect.gen(function*() {
        if (billing.id !== row.firstChargeId) return
        const full = billing.refundedAmount >= billing.amount ||
          Option.exists(yield* ledger.refundable(row.communityId, billing.id), (left) => left <= 0)
        if (full) yield* coupons.refund(row.communityId, billing.id)
      })

    /**
     * A pending refund of a billing: the gateway is asked outside any transaction (the refund id is
     * its idempotency key), and its answer applied once in a transaction: posted (and, for the
     * team's cancel with refund, the subscription ends; a first charge refunded in full gives its
     * coupon use back), or failed (the amount goes back). Safe to run twice at once (the request and
     * the job). The refund's status afterwards.
     */
    const completeRefund = traced("SubscriptionCharging.completeRefund")(
      function*(communityId: CommunityId, refundId: string) {
        const found = yield* tx(repo.lockRefund(communityId, refundId))
        if (Option.isNone(found)) return "failed" as const
        if (found.value.status !== "pending") return found.value.status
        const refund = found.value
        const billing = Option.getOrThrow(yield* tx(repo.lockBilling(communityId, refund.billingId)))
        const outcome = gateway.refund === undefined
          ? { _tag: "Refunded", gatewayRefundId: null } as const
          : yield* gateway.refund({
            refundId: refund.id,
            chargeId: billing.id,
            gatewayChargeId: billing.gatewayChargeId,
            amount: refund.amount,
            currency: billing.currency
          })
        return yield* tx(Effect.gen(function*() {
          const row = Option.getOrThrow(yield* repo.find(communityId, refund.subscriptionId, { lock: true }))
          const locked = Option.getOrThrow(yield* repo.lockRefund(communityId, refundId))
          if (locked.status !== "pending") return locked.status
          const current = Option.getOrThrow(yield* repo.lockBilling(communityId, refund.billingId))
          const at = yield* now
          if (outcome._tag === "Refused") {
            yield* repo.finishRefund(refundId, {
              status: "failed",
              gatewayRefundId: null,
              failureReason: outcome.reason
            }, at)
            yield* repo.updateBilling(current.id, { refundedAmount: current.refundedAmount - refund.amount }, at)
            return "failed" as const
          }
          yield* repo.finishRefund(
            refundId,
            { status: "succeeded", gatewayRefundId: outcome.gatewayRefundId, failureReason: null },
            at
          )
          yield* postRefund(row, current, { refundId, amount: refund.amount, label: "Reembolso" }, at)
          if (current.refundedAmount >= current.amount && current.status === "paid") {
            yield* repo.updateBilling(current.id, { status: yield* moveBilling(current, "refunded") }, at)
          }
          if (refund.endsSubscription) {
            if (canMove(phaseOf(row), "cancel_now")) {
              yield* life.end(row, at, ` Reembolso / Refund: ${formatMoney(refund.amount, row.currency)}.`)
            }
            yield* firstChargeRefunded(row, current)
          }
          return "succeeded" as const
        }))
      }
    )

    yield* jobs.handle(REFUND_JOB, (payload) =>
      Effect.flatMap(
        Schema.decodeUnknown(RefundPayload)(payload).pipe(Effect.orDie),
        (job) => Effect.asVoid(completeRefund(job.communityId, job.refundId))
      ))

    return { reserveRefund, postRefund, completeRefund }
  }),
  dependencies: [SubscriptionsRepo.Default, SubscriptionLifecycle.Default]
}) {}
