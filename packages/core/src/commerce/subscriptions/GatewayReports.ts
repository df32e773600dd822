import { Effect, Option } from "effect"
import { LedgerPosting } from "../../money/ledger/LedgerPosting"
import { Ids } from "../../platform/Ids"
import type { GatewayEvent } from "../../platform/PaymentGateway"
import { ChargeDisputes } from "../checkout/ChargeDisputes"
import { moveBilling } from "./charges"
import { SubscriptionLifecycle } from "./Lifecycle"
import { canMove, phaseOf } from "./Policy"
import { SubscriptionRefunds } from "./Refunding"
import { type BillingRow, type SubscriptionRow, SubscriptionsRepo } from "./Repo"

/** What the gateway reports of a subscription's charges (refunds, disputes), in the event's transaction. */
export class SubscriptionGatewayReports
  extends Effect.Service<SubscriptionGatewayReports>()("@roda/core/SubscriptionGatewayReports", {
    effect: Effect.gen(function*() {
      const repo = yield* SubscriptionsRepo
      const life = yield* SubscriptionLifecycle
      const refunds = yield* SubscriptionRefunds
      const ids = yield* Ids
      const ledger = yield* LedgerPosting
      const disputes = yield* ChargeDisputes
      const now = life.now
      const { postRefund } = refunds

      /**
       * Takes back (part of) a paid billing the gateway gave back: a refund Roda did not know of, or a
       * chargeback (`chargeback`: a lost dispute), at most what is left of it; posted as refunds of
       * billings are. The subscription's access ends now (final `canceled`) once the billing is
       * refunded in full, or at once for a chargeback. The billing's status afterwards.
       */
      const takeBack = (row: SubscriptionRow, current: BillingRow, wanted: number, chargeback: boolean) =>
        Effect.gen(function*() {
          const inLedger = yield* ledger.refundable(row.communityId, current.id)
          const left = Math.min(current.amount - current.refundedAmount, Option.getOrElse(inLedger, () => Infinity))
          const amount = Math.max(0, Math.min(left, wanted))
          const at = yield* now
          const refunded = current.refundedAmount + amount
          if (amount > 0) {
            const label = chargeback ? "Chargeback" : "Reembolso"
            yield* postRefund(row, current, { refundId: yield* ids.next, amount, label }, at)
            yield* repo.updateBilling(current.id, {
              refundedAmount: refunded,
              ...(refunded >= current.amount && current.status === "paid"
                ? { status: yield* moveBilling(current, "refunded") }
                : {})
            }, at)
          }
          const takenBack = chargeback || refunded >= current.amount
          if (takenBack && amount > 0 && canMove(phaseOf(row), "cancel_now")) {
            yield* life.end(row, at, chargeback ? " Chargeback." : "")
          }
          return refunded >= current.amount ? "refunded" : current.status
        })

      /**
       * A gateway event about a subscription's own charge (a billing; not a checkout charge), in the
       * caller's transaction: a refund (`amount`: the charge's refunded total at the gateway) posts
       * what Roda did not know of; a dispute goes through checkout's `ChargeDisputes`, as a checkout
       * charge's does (the disputed money held while open, released when won; when lost, released
       * and taken back here as a chargeback, the dispute fee debited); a lost dispute no dispute is
       * known of (the sandbox's `charge.dispute_lost`) is a chargeback of its amount. Payments and
       * expiries of a billing are Roda's own calls (answered synchronously or reconciled):
       * acknowledged. None when no billing has the charge.
       */
      const gatewayEvent = (event: GatewayEvent) =>
        Effect.gen(function*() {
          const found = yield* repo.billingAtGateway(event.gatewayChargeId, event.chargeId)
          if (Option.isNone(found)) return Option.none<string>()
          const billing = found.value
          const dispute = event.type === "charge.dispute" ? event.dispute : undefined
          if (event.type !== "charge.refunded" && event.type !== "charge.dispute_lost" && dispute === undefined) {
            return Option.some(billing.status)
          }
          const row = Option.getOrThrow(yield* repo.find(billing.communityId, billing.subscriptionId, { lock: true }))
          const current = Option.getOrThrow(yield* repo.lockBilling(billing.communityId, billing.id))
          if (current.status !== "paid" && current.status !== "refunded") return Option.some(current.status)
          if (dispute !== undefined) {
            const charge = { communityId: current.communityId, id: current.id, currency: current.currency }
            yield* disputes.fromGateway(charge, dispute, (lost) => takeBack(row, current, lost.amount, true))
            const after = Option.getOrThrow(yield* repo.lockBilling(billing.communityId, billing.id))
            return Option.some<string>(after.status)
          }
          const reported = event.amount ?? 0
          const wanted = event.type === "charge.refunded" ? reported - current.refundedAmount : reported
          return Option.some<string>(yield* takeBack(row, current, wanted, event.type === "charge.dispute_lost"))
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
