import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { formatMoney, roundHalfEven } from "../../domain/Money"
import { LedgerPosting } from "../../money/ledger/LedgerPosting"
import { Pricing } from "../../money/ledger/Pricing"
import { Ids } from "../../platform/Ids"
import { Jobs } from "../../platform/Jobs"
import {
  type ChargeOutcome,
  type ChargeRequest,
  type ChargeState,
  type GatewayEvent,
  PaymentGateway
} from "../../platform/PaymentGateway"
import { traced } from "../../platform/traced"
import { transactional } from "../../sql/transaction"
import { CouponRedemption } from "../coupons/CouponRedemption"
import { SubscriptionLifecycle } from "./Lifecycle"
import { billingMove, canMove, type Phase, phaseOf, retryDays, standingOf } from "./Policy"
import { type BillingRow, type SubscriptionRow, SubscriptionsRepo } from "./Repo"
import { DAY_MILLIS, JobKind, schedulePeriodEnd } from "./schedule"

/** Job kind: a billing left `charging` (the process stopped while the gateway was asked) is asked of the gateway. */
export const CHARGE_RECONCILE_JOB = "subscriptions.charge-reconcile"
/** Job kind: a refund of a billing asked of the gateway (run at once, and again after a crash). */
export const REFUND_JOB = "subscriptions.refund"

/**
 * How long after an attempt is marked `charging` its reconciliation runs: well past the longest
 * gateway call (the Stripe SDK gives up after 80 s), so a request still waiting is never overtaken.
 */
export const CHARGE_RECONCILE_AFTER_MS = 10 * 60 * 1000

/** What a charge is for: what its answer does to the subscription (applied with the row locked). */
const Purpose = Schema.Union(
  Schema.TaggedStruct("renewal", {}),
  Schema.TaggedStruct("retry", { retry: Schema.Number }),
  Schema.TaggedStruct("pay_now", {}),
  /**
   * `standing`: where the subscription stood when the change was decided (`Policy.standingOf`).
   * `price`: the option's price the change was quoted and charged at, what the subscription renews
   * at (absent from charges queued before it was carried: the catalogue's price when applied).
   */
  Schema.TaggedStruct("change_tier", {
    productId: Schema.String,
    standing: Schema.optional(Schema.String),
    price: Schema.optional(Schema.Number)
  }),
  /** `price`: the add-on's monthly price quoted and charged (absent from older charges, as above). */
  Schema.TaggedStruct("add_on", { productId: Schema.String, price: Schema.optional(Schema.Number) })
)
export type Purpose = typeof Purpose.Type

/** One attempt at charging a billing: the reconciliation job's payload, and what the answer is applied with. */
const Attempt = Schema.Struct({
  communityId: Schema.String,
  subscriptionId: Schema.String,
  billingId: Schema.String,
  attempt: Schema.Number,
  cardToken: Schema.NullOr(Schema.String),
  description: Schema.String,
  purpose: Purpose
})
export type Attempt = typeof Attempt.Type

const PeriodPayload = Schema.Struct({ communityId: Schema.String, subscriptionId: Schema.String, at: Schema.String })
const RetryPayload = Schema.Struct({
  communityId: Schema.String,
  subscriptionId: Schema.String,
  billingId: Schema.String,
  attempt: Schema.Number
})
const RefundPayload = Schema.Struct({ communityId: Schema.String, refundId: Schema.String })

export type ChargeResult =
  /**
   * `givenBack`: the money was taken for a move the subscription no longer allowed, and is given
   * back (a refund job, at once); the phase the subscription was in then.
   */
  | { readonly _tag: "Paid"; readonly billing: BillingRow; readonly givenBack?: Phase }
  | { readonly _tag: "Declined"; readonly reason: string }
  | { readonly _tag: "InvalidCard" }
  /** Another attempt at this billing is at the gateway now. */
  | { readonly _tag: "InFlight" }

/** Phase a's result: the answer is known already (nothing to ask), or the gateway must be asked. */
export type Begun =
  | { readonly _tag: "Done"; readonly result: ChargeResult }
  | { readonly _tag: "Charging"; readonly attempt: Attempt; readonly request: ChargeRequest }

const resultOf = (billing: BillingRow): ChargeResult =>
  billing.status === "paid" || billing.status === "refunded"
    ? { _tag: "Paid", billing }
    : billing.status === "charging"
    ? { _tag: "InFlight" }
    : billing.failureReason === "invalid_card"
    ? { _tag: "InvalidCard" }
    : { _tag: "Declined", reason: billing.failureReason ?? "declined" }

/**
 * Charging a subscription's billing with no network call inside a database transaction, in the
 * checkout's three phases: (a) `begin`, in the caller's transaction with the subscription row
 * locked, marks the billing `charging` with its attempt number and schedules its reconciliation;
 * (b) `complete` asks the gateway outside any transaction (idempotency key
 * `roda-charge-{billingId}[-attempt-N]`); (c) in a new transaction the row is locked again, and the
 * answer is applied only to a billing still `charging` with that attempt (`Policy.billingMove`),
 * then what it was for (`Purpose`) takes effect if the subscription still allows it; money taken
 * for a move the subscription no longer allows is refunded. The reconciliation job asks the
 * gateway for an attempt left `charging` by a crash and applies its state the same way, once.
 * Also the renewal and retry jobs, refunds of billings (`subscription_refunds`) and what the
 * gateway reports of a billing (refund, lost dispute: access ends).
 */
export class SubscriptionCharging extends Effect.Service<SubscriptionCharging>()("@roda/core/SubscriptionCharging", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* SubscriptionsRepo
    const life = yield* SubscriptionLifecycle
    const ids = yield* Ids
    const jobs = yield* Jobs
    const gateway = yield* PaymentGateway
    const pricing = yield* Pricing
    const ledger = yield* LedgerPosting
    const coupons = yield* CouponRedemption
    const now = life.now
    const tx = transactional(sql)

    const priceOf = (row: { readonly communityId: string }, billing: BillingRow) =>
      pricing.price({
        communityId: row.communityId,
        amount: billing.amount,
        currency: billing.currency,
        paymentMethod: "CREDIT_CARD",
        installments: 1
      }).pipe(Effect.orDie)

    /** Moves a billing by the table; a move the table lacks is a bug (callers check the state first). */
    const moveBilling = (billing: BillingRow, move: Parameters<typeof billingMove>[1]) => {
      const to = billingMove(billing.status, move)
      return to === undefined
        ? Effect.dieMessage(`subscription billing ${billing.id}: ${move} from ${billing.status}`)
        : Effect.succeed(to)
    }

    // ------------------------------------------------------------ refunds of billings

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
      function*(communityId: string, refundId: string) {
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

    // ------------------------------------------------------------ what a charge is for

    /**
     * Money taken for a move the subscription no longer allows: given back (a refund job, at once);
     * the phase the subscription is in.
     */
    const giveBack = (row: SubscriptionRow, billing: BillingRow) =>
      Effect.gen(function*() {
        const at = yield* now
        yield* reserveRefund(row, billing, {
          amount: billing.amount,
          reason: "paid after the subscription moved on",
          endsSubscription: false
        }, at.getTime())
        return phaseOf(row)
      })

    /**
     * A change of option paid now: the option, its price (the one quoted and charged, never a price
     * the catalogue got meanwhile) and (another interval) a new period.
     */
    const applyTierChange = (
      row: SubscriptionRow,
      billing: BillingRow,
      purpose: Extract<Purpose, { readonly _tag: "change_tier" }>
    ) =>
      Effect.gen(function*() {
        const { productId } = purpose
        const target = yield* repo.planProduct(row.communityId, row.subscriptionGroupId, productId)
        if (Option.isNone(target)) return false
        const at = yield* now
        const newInterval = billing.periodStart!.getTime() !== row.currentPeriodStart!.getTime()
        yield* repo.update(row.id, {
          productId,
          price: purpose.price ?? target.value.price,
          scheduledProductId: null,
          scheduledPrice: null,
          ...(newInterval
            ? {
              currentPeriodStart: billing.periodStart!,
              currentPeriodEnd: billing.periodEnd!,
              billingAnchor: billing.periodStart!,
              periodIndex: 1
            }
            : {})
        }, at)
        yield* life.endProductAccess(row, row.productId, at)
        const updated = Option.getOrThrow(yield* repo.find(row.communityId, row.id))
        yield* life.accessUntil(updated, billing.periodEnd!)
        if (newInterval) {
          yield* schedulePeriodEnd(jobs, {
            communityId: row.communityId,
            id: row.id,
            currentPeriodEnd: billing.periodEnd!,
            months: life.monthsOfRow(updated),
            now: at.getTime()
          })
        }
        return true
      })

    /**
     * What the answer to a charge does to its subscription (in the transaction that applied it, the
     * row locked and read again): only while the subscription is where the charge left it; else
     * the money is given back (the phase it is in is returned).
     */
    const conclude = (attempt: Attempt, row: SubscriptionRow, billing: BillingRow, result: ChargeResult) =>
      Effect.gen(function*() {
        const phase = phaseOf(row)
        const paid = result._tag === "Paid"
        const purpose = attempt.purpose
        switch (purpose._tag) {
          case "renewal": {
            const current = row.status === "active" &&
              row.currentPeriodEnd?.getTime() === billing.periodStart?.getTime()
            if (!current) return paid ? yield* giveBack(row, billing) : undefined
            if (paid) yield* life.periodPaid(row, billing, life.nextPeriod(row))
            else yield* life.renewalFailed(row, billing)
            return
          }
          case "retry": {
            if (row.status !== "past_due") return paid ? yield* giveBack(row, billing) : undefined
            if (paid) return yield* Effect.asVoid(life.periodPaid(row, billing, life.nextPeriod(row)))
            if (purpose.retry >= retryDays.length) return yield* life.unpaid(row)
            const at = yield* now
            yield* jobs.enqueue({
              kind: JobKind.retry,
              key: `${billing.id}:${purpose.retry + 1}`,
              payload: {
                communityId: row.communityId,
                subscriptionId: row.id,
                billingId: billing.id,
                attempt: purpose.retry + 1
              },
              runAt: (row.pastDueSince ?? at).getTime() + retryDays[purpose.retry]! * DAY_MILLIS
            })
            return
          }
          case "pay_now": {
            if (!paid) return
            if (!canMove(phase, "pay_now")) return yield* giveBack(row, billing)
            const period = row.status === "past_due"
              ? life.nextPeriod(row)
              : { billingAnchor: billing.periodStart!, periodIndex: 1 }
            yield* life.periodPaid(row, billing, period, {
              cardToken: attempt.cardToken,
              paymentMethod: "CREDIT_CARD",
              ...(row.kind === "charge" ? { kind: "paid" as const } : {})
            })
            return
          }
          case "change_tier": {
            if (!paid) return
            const moved = !canMove(phase, "change_tier") || row.productId === purpose.productId ||
              (purpose.standing !== undefined && purpose.standing !== standingOf(row))
            if (moved || !(yield* applyTierChange(row, billing, purpose))) {
              return yield* giveBack(row, billing)
            }
            return
          }
          case "add_on": {
            if (!paid) return
            const taken = (yield* repo.addOns(row.communityId, [row.id])).some((a) => a.productId === purpose.productId)
            const product = yield* repo.planProduct(row.communityId, row.subscriptionGroupId, purpose.productId)
            if (!canMove(phase, "add_on") || taken || Option.isNone(product)) return yield* giveBack(row, billing)
            const at = yield* now
            yield* repo.insertAddOn({
              id: yield* ids.next,
              communityId: row.communityId,
              subscriptionId: row.id,
              productId: purpose.productId,
              price: purpose.price ?? product.value.price,
              createdAt: at
            })
            yield* life.accessUntil(row, row.currentPeriodEnd!, [purpose.productId])
          }
        }
      })

    /** The answer to a charge, concluded: its result, with the phase when the money was given back. */
    const concluded = (attempt: Attempt, row: SubscriptionRow, billing: BillingRow) => {
      const result = resultOf(billing)
      return Effect.map(
        conclude(attempt, row, billing, result),
        (givenBack): ChargeResult =>
          result._tag === "Paid" && typeof givenBack === "string" ? { ...result, givenBack } : result
      )
    }

    // ------------------------------------------------------------ the three phases

    /**
     * Phase a, in the caller's transaction with the subscription row and the billing locked: a
     * billing paid already is `Paid` (never charged again), one `charging` is `InFlight`; nothing to
     * pay or no card is answered here (and concluded); otherwise the billing is marked `charging`
     * with its next attempt number and the attempt's reconciliation is scheduled.
     */
    const begin = (
      row: SubscriptionRow,
      billing: BillingRow,
      cardToken: string | null,
      description: string,
      purpose: Purpose
    ) =>
      Effect.gen(function*() {
        if (billing.status === "paid" || billing.status === "refunded" || billing.status === "charging") {
          return { _tag: "Done", result: resultOf(billing) } as Begun
        }
        const at = yield* now
        const attemptNumber = billing.attempts + 1
        const attempt: Attempt = {
          communityId: row.communityId,
          subscriptionId: row.id,
          billingId: billing.id,
          attempt: attemptNumber,
          cardToken,
          description,
          purpose
        }
        if (billing.amount === 0 || cardToken === null) {
          const paid = billing.amount === 0
          const changes = paid
            ? { status: yield* moveBilling(billing, "paid"), paidAt: at, attempts: attemptNumber, fee: 0, net: 0 }
            : { status: yield* moveBilling(billing, "declined"), attempts: attemptNumber, failureReason: "no_card" }
          yield* repo.updateBilling(billing.id, changes, at)
          const updated = { ...billing, ...changes } as BillingRow
          return { _tag: "Done", result: yield* concluded(attempt, row, updated) } as Begun
        }
        const amounts = yield* priceOf(row, billing)
        const contact = Option.getOrUndefined(yield* repo.contact(row.communityId, row.profileId))
        yield* repo.updateBilling(billing.id, {
          status: yield* moveBilling(billing, "charge"),
          attempts: attemptNumber,
          failureReason: null
        }, at)
        yield* jobs.enqueue({
          kind: CHARGE_RECONCILE_JOB,
          key: `${billing.id}:${attemptNumber}`,
          payload: attempt,
          runAt: at.getTime() + CHARGE_RECONCILE_AFTER_MS
        })
        const request: ChargeRequest = {
          chargeId: billing.id,
          amount: amounts.total,
          currency: amounts.currency,
          paymentMethod: "CREDIT_CARD",
          installments: 1,
          cardToken,
          buyer: { name: contact?.fullName ?? "", email: contact?.email ?? "", taxId: "" },
          communityId: row.communityId,
          platformAmount: amounts.total - amounts.net,
          // The card on file, charged without the member (renewals, retries); a new card is the member's own.
          offSession: cardToken === row.cardToken,
          saveCard: true,
          attempt: attemptNumber
        }
        return { _tag: "Charging", attempt, request } as Begun
      })

    /**
     * Phase c: the gateway's answer (or its state, asked later) applied once, in its own
     * transaction: only to the billing still `charging` with this attempt; then what it was for.
     */
    const finish = (attempt: Attempt, outcome: ChargeOutcome | ChargeState) =>
      tx(Effect.gen(function*() {
        const found = yield* repo.find(attempt.communityId, attempt.subscriptionId, { lock: true })
        const billing = Option.getOrThrow(yield* repo.lockBilling(attempt.communityId, attempt.billingId))
        if (Option.isNone(found) || billing.status !== "charging" || billing.attempts !== attempt.attempt) {
          return resultOf(billing)
        }
        const row = found.value
        const at = yield* now
        const gatewayChargeId = "gatewayChargeId" in outcome ? outcome.gatewayChargeId : null
        let updated: BillingRow
        if (outcome._tag === "Paid") {
          const amounts = yield* priceOf(row, billing)
          const changes = {
            status: yield* moveBilling(billing, "paid"),
            paidAt: at,
            paymentMethod: "CREDIT_CARD",
            fee: amounts.fee,
            net: amounts.net,
            failureReason: null,
            gatewayChargeId
          }
          yield* repo.updateBilling(billing.id, changes, at)
          yield* ledger.recordSale({
            communityId: row.communityId,
            chargeId: billing.id,
            amounts,
            paidAt: at,
            description: attempt.description,
            settledByGateway: outcome.settledTo !== undefined
          })
          updated = { ...billing, ...changes }
        } else {
          const reason = outcome._tag === "InvalidCard"
            ? "invalid_card"
            : outcome._tag === "Unknown"
            ? "not_received_by_gateway"
            : outcome._tag === "Pending"
            ? "pending"
            : outcome.reason
          const changes = { status: yield* moveBilling(billing, "declined"), failureReason: reason, gatewayChargeId }
          yield* repo.updateBilling(billing.id, changes, at)
          updated = { ...billing, ...changes }
        }
        return yield* concluded(attempt, row, updated)
      }))

    /** Phases b and c of a begun charge (the caller's transaction is over). */
    const complete = (begun: Begun) =>
      begun._tag === "Done"
        ? Effect.succeed(begun.result)
        : Effect.flatMap(gateway.createCharge(begun.request), (outcome) => finish(begun.attempt, outcome))

    /**
     * An attempt left `charging`: the gateway is asked (outside any transaction) for that attempt's
     * charge; one still pending there is canceled first (a job asks again if it will not go).
     */
    const reconcile = traced("SubscriptionCharging.reconcile")(function*(attempt: Attempt) {
      const billing = yield* tx(repo.lockBilling(attempt.communityId, attempt.billingId))
      if (Option.isNone(billing)) return "gone"
      if (billing.value.status !== "charging" || billing.value.attempts !== attempt.attempt) return billing.value.status
      const reference = {
        chargeId: attempt.billingId,
        gatewayChargeId: billing.value.gatewayChargeId,
        attempt: attempt.attempt
      }
      let state = yield* gateway.lookup(reference)
      if (state._tag === "Pending") state = yield* gateway.cancel(reference)
      if (state._tag === "Pending") return yield* Effect.dieMessage("the charge is still pending at the gateway")
      const result = yield* finish(attempt, state)
      return result._tag === "Paid" ? "paid" : result._tag === "InFlight" ? "charging" : "failed"
    })

    yield* jobs.handle(CHARGE_RECONCILE_JOB, (payload) =>
      Effect.flatMap(
        Schema.decodeUnknown(Attempt)(payload).pipe(Effect.orDie),
        (attempt) => Effect.asVoid(reconcile(attempt))
      ))

    // ------------------------------------------------------------ the jobs that charge

    const locked = (communityId: string, subscriptionId: string) =>
      repo.find(communityId, subscriptionId, { lock: true })

    /** The period-end job: what the state says happens when the period is over (renewal: charged). */
    const onPeriodEnd = (payload: unknown) =>
      Effect.gen(function*() {
        const job = yield* Schema.decodeUnknown(PeriodPayload)(payload).pipe(Effect.orDie)
        const begun = yield* tx(Effect.gen(function*() {
          const found = yield* locked(job.communityId, job.subscriptionId)
          if (Option.isNone(found)) return undefined
          const row = found.value
          if (row.status !== "active" || row.currentPeriodEnd === null) return undefined
          if (row.currentPeriodEnd.toISOString() !== job.at) return undefined // moved since (extend, change, renewal)
          const at = yield* now
          if (row.currentPeriodEnd.getTime() > at.getTime()) return undefined
          if (row.cancelAtPeriodEnd || row.kind === "courtesy") {
            yield* life.end(row, row.currentPeriodEnd)
            return undefined
          }
          const renewing = yield* life.applyScheduledChange(row)
          const billing = yield* life.renewalBilling(renewing, life.nextPeriod(renewing))
          return yield* begin(renewing, billing, renewing.cardToken, `Renovação: ${renewing.productTitle}`, {
            _tag: "renewal"
          })
        }))
        if (begun !== undefined) yield* complete(begun)
      })

    /** A retry of a failed renewal; the last one failing leaves the subscription `unpaid`. */
    const onRetry = (payload: unknown) =>
      Effect.gen(function*() {
        const job = yield* Schema.decodeUnknown(RetryPayload)(payload).pipe(Effect.orDie)
        const begun = yield* tx(Effect.gen(function*() {
          const found = yield* locked(job.communityId, job.subscriptionId)
          if (Option.isNone(found) || found.value.status !== "past_due") return undefined
          const row = found.value
          const open = yield* repo.openBilling(row.communityId, row.id)
          if (Option.isNone(open) || open.value.id !== job.billingId) return undefined
          return yield* begin(row, open.value, row.cardToken, `Renovação: ${row.productTitle}`, {
            _tag: "retry",
            retry: job.attempt
          })
        }))
        if (begun !== undefined) yield* complete(begun)
      })

    yield* jobs.handle(JobKind.periodEnd, onPeriodEnd)
    yield* jobs.handle(JobKind.retry, onRetry)

    // ------------------------------------------------------------ what the gateway reports

    /**
     * A gateway event about a subscription's own charge (a billing; not a checkout charge), in the
     * caller's transaction: a refund (`amount`: the charge's refunded total at the gateway) posts
     * what Roda did not know of; a lost dispute posts a chargeback of the disputed amount. Either
     * ends the subscription's access now (final `canceled`) once the billing is refunded in full, or
     * at once for a lost dispute. Payments and expiries of a billing are Roda's own calls (answered
     * synchronously or reconciled): acknowledged. None when no billing has the charge.
     */
    const gatewayEvent = (event: GatewayEvent) =>
      Effect.gen(function*() {
        const found = yield* repo.billingAtGateway(event.gatewayChargeId, event.chargeId)
        if (Option.isNone(found)) return Option.none<string>()
        const billing = found.value
        // a lost dispute of a billing is taken back as before (disputes of billings hold nothing while open)
        const disputeLost = event.type === "charge.dispute_lost" ||
          (event.type === "charge.dispute" && event.dispute?.step === "lost")
        if (event.type !== "charge.refunded" && !disputeLost) return Option.some(billing.status)
        const row = Option.getOrThrow(yield* repo.find(billing.communityId, billing.subscriptionId, { lock: true }))
        const current = Option.getOrThrow(yield* repo.lockBilling(billing.communityId, billing.id))
        if (current.status !== "paid" && current.status !== "refunded") return Option.some(current.status)
        const inLedger = yield* ledger.refundable(row.communityId, current.id)
        const left = Math.min(current.amount - current.refundedAmount, Option.getOrElse(inLedger, () => Infinity))
        const reported = event.amount ?? 0
        const wanted = event.type === "charge.refunded" ? reported - current.refundedAmount : reported
        const amount = Math.max(0, Math.min(left, wanted))
        const at = yield* now
        const refunded = current.refundedAmount + amount
        if (amount > 0) {
          const label = disputeLost ? "Chargeback" : "Reembolso"
          yield* postRefund(row, current, { refundId: yield* ids.next, amount, label }, at)
          yield* repo.updateBilling(current.id, {
            refundedAmount: refunded,
            ...(refunded >= current.amount && current.status === "paid"
              ? { status: yield* moveBilling(current, "refunded") }
              : {})
          }, at)
        }
        const takenBack = disputeLost || refunded >= current.amount
        if (takenBack && amount > 0 && canMove(phaseOf(row), "cancel_now")) {
          yield* life.end(row, at, disputeLost ? " Chargeback." : "")
        }
        return Option.some(refunded >= current.amount ? "refunded" : current.status)
      })

    /**
     * The first charge of a subscription (a checkout charge) was refunded in full or lost in a
     * dispute at the gateway: the subscription ends now (final `canceled`, access closed).
     */
    const chargeTakenBack = (chargeId: string) =>
      Effect.gen(function*() {
        const found = yield* repo.byCharge(chargeId, true)
        if (Option.isNone(found) || !canMove(phaseOf(found.value), "cancel_now")) return
        yield* life.end(found.value, yield* now)
      })

    return { begin, complete, finish, reconcile, reserveRefund, completeRefund, gatewayEvent, chargeTakenBack }
  }),
  dependencies: [SubscriptionsRepo.Default, SubscriptionLifecycle.Default]
}) {}
