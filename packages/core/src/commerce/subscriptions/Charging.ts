import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import type { CommunityId } from "../../domain/Ids"
import { LedgerPosting } from "../../money/ledger/LedgerPosting"
import { Pricing } from "../../money/ledger/Pricing"
import { Ids } from "../../platform/Ids"
import { Jobs } from "../../platform/Jobs"
import { type ChargeOutcome, type ChargeRequest, type ChargeState, PaymentGateway } from "../../platform/PaymentGateway"
import { traced } from "../../platform/traced"
import { transactional } from "../../sql/transaction"
import {
  Attempt,
  type Begun,
  CHARGE_RECONCILE_AFTER_MS,
  CHARGE_RECONCILE_JOB,
  type ChargeResult,
  moveBilling,
  type Purpose,
  resultOf
} from "./charges"
import { SubscriptionEvents } from "./Events"
import { SubscriptionLifecycle } from "./Lifecycle"
import { canMove, phaseOf, retryDays, standingOf } from "./Policy"
import { SubscriptionRefunds } from "./Refunding"
import { type BillingRow, type SubscriptionRow, SubscriptionsRepo } from "./Repo"
import { DAY_MILLIS, JobKind, schedulePeriodEnd } from "./schedule"

export {
  type Attempt,
  type Begun,
  CHARGE_RECONCILE_AFTER_MS,
  CHARGE_RECONCILE_JOB,
  type ChargeResult,
  type Purpose,
  REFUND_JOB
} from "./charges"

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
 * The jobs that charge are `SubscriptionRenewals`' (`Renewals.ts`), refunds `SubscriptionRefunds`'
 * (`Refunding.ts`), what the gateway reports of a billing `SubscriptionGatewayReports`'.
 */
export class SubscriptionCharging extends Effect.Service<SubscriptionCharging>()("@roda/core/SubscriptionCharging", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* SubscriptionsRepo
    const life = yield* SubscriptionLifecycle
    const refunds = yield* SubscriptionRefunds
    const events = yield* SubscriptionEvents
    const ids = yield* Ids
    const jobs = yield* Jobs
    const gateway = yield* PaymentGateway
    const pricing = yield* Pricing
    const ledger = yield* LedgerPosting
    const now = life.now
    const tx = transactional(sql)

    const priceOf = (row: { readonly communityId: CommunityId }, billing: BillingRow) =>
      pricing.price({
        communityId: row.communityId,
        amount: billing.amount,
        currency: billing.currency,
        paymentMethod: "CREDIT_CARD",
        installments: 1
      }).pipe(Effect.orDie)

    // ------------------------------------------------------------ what a charge is for

    /**
     * Money taken for a move the subscription no longer allows: given back (a refund job, at once);
     * the phase the subscription is in.
     */
    const giveBack = (row: SubscriptionRow, billing: BillingRow) =>
      Effect.gen(function*() {
        const at = yield* now
        yield* refunds.reserveRefund(row, billing, {
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
        const viewed = yield* repo.updateViewed(row.id, {
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
        yield* events.emit(viewed, "subscription.plan_changed", { previousProductId: row.productId })
        yield* life.endProductAccess(row, row.productId, at)
        const updated = viewed
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

    return { begin, complete, finish, reconcile }
  }),
  dependencies: [
    SubscriptionsRepo.Default,
    SubscriptionLifecycle.Default,
    SubscriptionRefunds.Default,
    SubscriptionEvents.Default
  ]
}) {}
