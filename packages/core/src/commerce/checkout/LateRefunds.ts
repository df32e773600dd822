import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import { CommunityId } from "../../domain/Ids"
import { LedgerPosting } from "../../money/ledger/LedgerPosting"
import { Ids } from "../../platform/Ids"
import { Jobs } from "../../platform/Jobs"
import { PaymentGateway } from "../../platform/PaymentGateway"
import { traced } from "../../platform/traced"
import { transactional } from "../../sql/transaction"
import { ManageRepo } from "./ManageRepo"
import { RefundPosting } from "./RefundPosting"
import { type ChargeRow, CheckoutRepo } from "./Repo"

/** Job kind: the automatic refund of a payment that arrived after its charge was over here. */
export const LATE_REFUND_JOB = "checkout.lateRefund"
/** The refund row's `request_key`: one automatic late refund per charge. */
const LATE_KEY = "late-payment"
const LateJob = Schema.Struct({ communityId: CommunityId, refundId: Schema.String })

/**
 * A payment the gateway reports after its charge expired, failed or was canceled here (a boleto
 * paid past its due date, a PIX paid as it expired): nothing was sold, so the money goes back at
 * once. `reserve` (in the webhook's transaction, the charge locked) writes a `pending` refund of
 * the whole total and schedules its job; `complete` asks the gateway outside any transaction with
 * the idempotency key `roda-refund-late-{chargeId}` and, in a new transaction, records it: the
 * payment and its refund in the ledger (a sale and a full refund, fee and interest given back, so
 * the community's balance is unchanged) and a refund row of its own; the buyer gets a receipt.
 * Run by the webhook at once and by the job after a crash, safely both.
 */
export class LateRefunds extends Effect.Service<LateRefunds>()("@roda/core/LateRefunds", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* ManageRepo
    const charges = yield* CheckoutRepo
    const ledger = yield* LedgerPosting
    const posting = yield* RefundPosting
    const gateway = yield* PaymentGateway
    const jobs = yield* Jobs
    const ids = yield* Ids
    const tx = transactional(sql)
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    /** In the caller's transaction, the charge locked: the refund's id (the one already made, if any). */
    const reserve = (charge: ChargeRow) =>
      Effect.gen(function*() {
        const existing = yield* repo.lateRefundOf(charge.communityId, charge.id, LATE_KEY)
        if (Option.isSome(existing)) return existing.value
        const id = yield* ids.next
        const at = yield* now
        yield* repo.insertRefund({
          id,
          communityId: charge.communityId,
          chargeId: charge.id,
          purchaseId: null,
          amount: charge.total,
          fee: charge.fee,
          interest: charge.interest,
          currency: charge.currency,
          reason: `late payment of a ${charge.status} charge, refunded automatically`,
          fullRefund: true,
          gatewayRefundId: null,
          refundedBy: null,
          createdAt: at,
          status: "pending",
          kind: "refund",
          requestKey: LATE_KEY
        })
        yield* jobs.enqueue({
          kind: LATE_REFUND_JOB,
          key: id,
          payload: { communityId: charge.communityId, refundId: id },
          runAt: at.getTime()
        })
        return id
      })

    /** Asks the gateway and records its answer, once; the refund's status afterwards. */
    const complete = traced("LateRefunds.complete")(function*(communityId: CommunityId, refundId: string) {
      const found = yield* tx(repo.refund(communityId, refundId))
      if (Option.isNone(found) || found.value.status !== "pending") {
        return Option.match(found, { onNone: () => "failed", onSome: (row) => row.status })
      }
      const refund = found.value
      const gatewayChargeId = yield* repo.gatewayCharge(communityId, refund.chargeId)
      if (gateway.refund === undefined) return yield* Effect.dieMessage("the gateway does not refund")
      const outcome = yield* gateway.refund({
        // the idempotency key `roda-refund-late-{chargeId}`: one refund of a late payment, however often asked
        refundId: `late-${refund.chargeId}`,
        chargeId: refund.chargeId,
        gatewayChargeId,
        amount: refund.amount,
        currency: refund.currency
      })
      return yield* tx(Effect.gen(function*() {
        yield* repo.lockCharge(communityId, refund.chargeId)
        const locked = Option.getOrThrow(yield* repo.refund(communityId, refundId))
        if (locked.status !== "pending") return locked.status
        if (outcome._tag === "Refused") {
          // kept pending: the job asks again (a refund the gateway refuses for good needs the team)
          return yield* Effect.dieMessage(`late refund ${refundId} refused by the gateway: ${outcome.reason}`)
        }
        yield* repo.finishRefund(refundId, "succeeded", outcome.gatewayRefundId)
        const charge = Option.getOrThrow(yield* charges.charge(communityId, refund.chargeId))
        yield* ledger.recordSale({
          communityId,
          chargeId: refund.chargeId,
          amounts: charge.amounts,
          paidAt: locked.createdAt,
          description: `Pagamento tardio / Late payment: ${charge.id}`,
          settledByGateway: charge.settledTo !== null
        })
        yield* posting.post({
          refundId,
          communityId,
          chargeId: refund.chargeId,
          amount: refund.amount,
          fee: refund.fee,
          interest: refund.interest,
          currency: refund.currency,
          full: true,
          at: locked.createdAt,
          kind: "refund",
          reason: locked.reason
        })
        return "succeeded" as const
      }))
    })

    yield* jobs.handle(LATE_REFUND_JOB, (payload) =>
      Effect.flatMap(
        Schema.decodeUnknown(LateJob)(payload).pipe(Effect.orDie),
        (job) => Effect.asVoid(complete(job.communityId, job.refundId))
      ))

    return { reserve, complete }
  }),
  dependencies: [ManageRepo.Default, CheckoutRepo.Default, RefundPosting.Default]
}) {}
