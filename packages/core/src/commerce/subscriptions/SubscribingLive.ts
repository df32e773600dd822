import { Clock, Effect, Layer, Option } from "effect"
import { formatMoney } from "../../domain/Money"
import { Ids } from "../../platform/Ids"
import { Jobs } from "../../platform/Jobs"
import { monthsOf, periodEndAt } from "./billing"
import { SubscriptionEvents } from "./Events"
import { SubscriptionGatewayReports } from "./GatewayReports"
import { SubscriptionLifecycle } from "./Lifecycle"
import { finalStatuses } from "./Policy"
import { SubscriptionRefunds } from "./Refunding"
import { SubscriptionRenewals } from "./Renewals"
import { type SubscriptionRow, SubscriptionsRepo } from "./Repo"
import { schedulePeriodEnd } from "./schedule"
import { type FirstChargeOutcome, type FirstChargePaid, Subscribing } from "./Subscribing"

/**
 * `Subscribing` over the subscriptions' own tables; starting one schedules its period end. Built on
 * the ledger and pricing contracts (what the gateway reports of a billing is posted), so it is
 * provided after them (`app/contracts.ts`).
 */
export const SubscribingLive = Layer.effect(
  Subscribing,
  Effect.gen(function*() {
    const repo = yield* SubscriptionsRepo
    const ids = yield* Ids
    const jobs = yield* Jobs
    const refunds = yield* SubscriptionRefunds
    const reports = yield* SubscriptionGatewayReports
    // built here, with the contracts: the jobs that renew and end subscriptions run in every process
    yield* SubscriptionRenewals
    const life = yield* SubscriptionLifecycle
    const events = yield* SubscriptionEvents
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    /**
     * The paid checkout charge as a billing of `row` (same id: refunds find its sale in the ledger),
     * under `key`, for the first period (ending `periodEnd`) or, paid late, for none.
     */
    const paidFirstBilling = (input: FirstChargePaid, row: SubscriptionRow, key: string, periodEnd: Date | null) =>
      Effect.tap(
        repo.billingFor({
          id: input.chargeId,
          communityId: row.communityId,
          subscriptionId: row.id,
          key,
          reason: "initial",
          periodStart: periodEnd === null ? null : input.paidAt,
          periodEnd,
          listAmount: input.listAmount,
          discount: input.discount,
          amount: input.amounts.amount,
          currency: input.amounts.currency,
          paymentMethod: input.amounts.paymentMethod,
          fee: input.amounts.fee,
          net: input.amounts.net,
          status: "paid",
          createdAt: input.paidAt,
          updatedAt: input.paidAt
        }),
        (billing) => repo.updateBilling(billing.id, { paidAt: input.paidAt, attempts: 1 }, input.paidAt)
      )

    /**
     * Whether a subscription whose checkout charge is given back still holds that checkout's coupon:
     * paid another way (not ended), it renews with the coupon's discount.
     */
    const keepsCoupon = (row: SubscriptionRow) =>
      !finalStatuses.includes(row.status) && row.couponDiscount !== null && row.couponPeriodsLeft !== 0

    return Subscribing.of({
      open: (input) =>
        Effect.gen(function*() {
          const at = yield* now
          const product = Option.getOrThrow(yield* repo.product(input.productId))
          const id = yield* ids.next
          const coupon = input.coupon ?? null
          const months = monthsOf(product.billingInterval)
          // the first period used the coupon once; `repeating` covers its months, `forever` every renewal
          const couponPeriodsLeft = coupon === null || coupon.duration === "once" || coupon.discount === 0
            ? 0
            : coupon.duration === "forever"
            ? null
            : Math.max(0, Math.ceil((coupon.durationMonths ?? 0) / months) - 1)
          yield* repo.insert({
            id,
            communityId: input.communityId,
            profileId: input.profileId,
            subscriptionGroupId: input.subscriptionGroupId,
            productId: input.productId,
            status: "incomplete",
            kind: "paid",
            price: product.price,
            currency: product.currency,
            paymentMethod: input.paymentMethod,
            cardToken: input.paymentMethod === "CREDIT_CARD" ? input.cardToken : null,
            currentPeriodStart: null,
            currentPeriodEnd: null,
            billingAnchor: null,
            periodIndex: 0,
            firstChargeId: input.chargeId,
            startsAt: null,
            createdAt: at,
            updatedAt: at
          })
          if (couponPeriodsLeft !== 0) {
            yield* repo.update(id, { couponDiscount: coupon!.discount, couponPeriodsLeft }, at)
          }
          for (const addOnId of input.addOnProductIds) {
            const addOn = yield* repo.product(addOnId)
            yield* repo.insertAddOn({
              id: yield* ids.next,
              communityId: input.communityId,
              subscriptionId: id,
              productId: addOnId,
              price: Option.getOrThrow(addOn).price,
              createdAt: at
            })
          }
        }),
      start: (input) =>
        Effect.gen(function*() {
          const found = yield* repo.byCharge(input.chargeId, true)
          if (Option.isNone(found)) return Option.none()
          const row = found.value
          if (row.status !== "incomplete") {
            const refunded: FirstChargeOutcome = { _tag: "RefundedAtOnce", keepsCoupon: keepsCoupon(row) }
            // This charge was settled here before (a repeated call): as it was then, nothing more refunded.
            const earlier = yield* repo.lockBilling(row.communityId, input.chargeId)
            if (Option.isSome(earlier)) {
              const { periodEnd } = earlier.value
              return Option.some<FirstChargeOutcome>(
                periodEnd === null ? refunded : { _tag: "Started", end: periodEnd }
              )
            }
            // It moved on before its first charge was paid (canceled, or paid another way): it is not
            // revived; the charge is kept as a paid billing (its sale is in the ledger) and refunded,
            // under a key of its own, whatever else holds the first billing's; the buyer is told so.
            const late = yield* paidFirstBilling(input, row, `late:${input.chargeId}`, null)
            if (late.amount > 0) {
              yield* refunds.reserveRefund(row, late, {
                amount: late.amount,
                reason: "paid after the subscription moved on",
                endsSubscription: false
              }, input.paidAt.getTime())
              const money = formatMoney(late.amount, late.currency)
              const ended = finalStatuses.includes(row.status)
              yield* life.mailMember(
                row,
                "refund",
                `Reembolso: ${row.productTitle} / Refund: ${row.productTitle}`,
                `Seu pagamento de ${money} (${row.productTitle}, cobrança ${late.id}) chegou quando a assinatura ` +
                  `${ended ? "já estava encerrada" : "já estava paga"}; ele será devolvido integralmente.\n` +
                  `Your payment of ${money} (${row.productTitle}, charge ${late.id}) arrived after the subscription ` +
                  `${ended ? "had ended" : "was paid another way"}; it is refunded in full.`
              )
            }
            return Option.some(refunded)
          }
          const months = monthsOf(row.billingInterval)
          const end = periodEndAt(input.paidAt, months, 1)
          const viewed = yield* repo.updateViewed(row.id, {
            status: "active",
            currency: input.amounts.currency,
            currentPeriodStart: input.paidAt,
            currentPeriodEnd: end,
            billingAnchor: input.paidAt,
            periodIndex: 1
          }, input.paidAt)
          yield* events.emit(viewed, "subscription.created")
          yield* paidFirstBilling(input, row, `initial:${row.id}`, end)
          yield* schedulePeriodEnd(jobs, {
            communityId: row.communityId,
            id: row.id,
            currentPeriodEnd: end,
            months,
            now: input.paidAt.getTime()
          })
          return Option.some<FirstChargeOutcome>({ _tag: "Started", end })
        }),
      expire: (chargeId) =>
        Effect.gen(function*() {
          const found = yield* repo.byCharge(chargeId, true)
          if (Option.isNone(found) || found.value.status !== "incomplete") return
          yield* repo.update(found.value.id, { status: "incomplete_expired" }, yield* now)
        }),
      ofCharge: (chargeId) => Effect.map(repo.byCharge(chargeId), Option.map((row) => row.id)),
      chargeTakenBack: reports.chargeTakenBack,
      gatewayEvent: reports.gatewayEvent
    })
  })
).pipe(
  Layer.provide(Layer.mergeAll(
    SubscriptionsRepo.Default,
    SubscriptionLifecycle.Default,
    SubscriptionRefunds.Default,
    SubscriptionGatewayReports.Default,
    SubscriptionRenewals.Default,
    SubscriptionEvents.Default
  ))
)
