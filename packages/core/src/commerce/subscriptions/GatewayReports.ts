import { Effect, Option } from "effect"
import { LedgerPosting } from "../../money/ledger/LedgerPosting"
import { Ids } from "../../platform/Ids"
import type { GatewayEvent } from "../../platform/PaymentGateway"
import { moveBilling } from "./charges"
import { SubscriptionLifecycle } from "./Lifecycle"
import { canMove, phaseOf } from "./Policy"
import { SubscriptionRefunds } from "./Refunding"
import { SubscriptionsRepo } from "./Repo"

/** What the gateway reports of a subscription's charges (refunds, disputes), in the event's transaction. */
export class SubscriptionGatewayReports
  extends Effect.Service<SubscriptionGatewayReports>()("@roda/core/SubscriptionGatewayReports", {
    effect: Effect.gen(function*() {
      const repo = yield* SubscriptionsRepo
      const life = yield* SubscriptionLifecycle
      const refunds = yield* SubscriptionRefunds
      const ids = yield* Ids
      const ledger = yield* LedgerPosting
      const now = life.now
      const { postRefund } = refunds

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

      return { gatewayEvent, chargeTakenBack }
    }),
    dependencies: [SubscriptionsRepo.Default, SubscriptionLifecycle.Default, SubscriptionRefunds.Default]
  })
{}
