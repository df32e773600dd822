import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { CommunityId } from "../../domain/Ids"
import { formatMoney } from "../../domain/Money"
import { Jobs } from "../../platform/Jobs"
import { transactional } from "../../sql/transaction"
import { SubscriptionCharging } from "./Charging"
import { SubscriptionLifecycle } from "./Lifecycle"
import { PAYMENT_LINK_HOURS } from "./Policy"
import { SubscriptionsRepo } from "./Repo"
import { JobKind } from "./schedule"

const PeriodPayload = Schema.Struct({ communityId: CommunityId, subscriptionId: Schema.String, at: Schema.String })
const RetryPayload = Schema.Struct({
  communityId: CommunityId,
  subscriptionId: Schema.String,
  billingId: Schema.String,
  attempt: Schema.Number
})
const FirstChargePayload = Schema.Struct({ communityId: CommunityId, subscriptionId: Schema.String })

/**
 * The durable jobs that run a subscription's time: the period end (a renewal charged, or the end of
 * one marked to end), retries of a failed renewal, resume after a pause, the reminder before an
 * annual renewal, the payment link of a manual subscription and its expiry unpaid. Every handler
 * works in its own transaction with the subscription's row locked, and does nothing when the row
 * has moved on since the job was scheduled, so two workers never renew a period twice.
 */
export class SubscriptionRenewals extends Effect.Service<SubscriptionRenewals>()("@roda/core/SubscriptionRenewals", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* SubscriptionsRepo
    const life = yield* SubscriptionLifecycle
    const charging = yield* SubscriptionCharging
    const jobs = yield* Jobs
    const now = life.now
    const tx = transactional(sql)
    const { begin, complete } = charging

    const locked = (communityId: CommunityId, subscriptionId: string) =>
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

    const onResume = (payload: unknown) =>
      transactional(sql)(Effect.gen(function*() {
        const job = yield* Schema.decodeUnknown(PeriodPayload)(payload).pipe(Effect.orDie)
        const found = yield* locked(job.communityId, job.subscriptionId)
        if (Option.isNone(found)) return
        const row = found.value
        if (row.status !== "paused" || row.pausedUntil === null || row.pausedUntil.toISOString() !== job.at) return
        yield* life.resume(row)
      }))

    const onRemind = (payload: unknown) =>
      transactional(sql)(Effect.gen(function*() {
        const job = yield* Schema.decodeUnknown(PeriodPayload)(payload).pipe(Effect.orDie)
        const found = yield* repo.find(job.communityId, job.subscriptionId)
        if (Option.isNone(found)) return
        const row = found.value
        if (row.status !== "active" || row.cancelAtPeriodEnd || row.kind !== "paid") return
        if (row.currentPeriodEnd?.toISOString() !== job.at) return
        const amounts = yield* life.renewalOf(row)
        const total = formatMoney(amounts.amount, row.currency)
        yield* life.mailMember(
          row,
          "subscription-renewal-upcoming",
          `Sua assinatura anual renova em 7 dias / Your annual subscription renews in 7 days`,
          `A assinatura ${row.productTitle} renova em ${job.at} por ${total}.\n` +
            `Your ${row.productTitle} subscription renews on ${job.at} for ${total}.`
        )
      }))

    const onFirstCharge = (payload: unknown) =>
      transactional(sql)(Effect.gen(function*() {
        const job = yield* Schema.decodeUnknown(FirstChargePayload)(payload).pipe(Effect.orDie)
        const found = yield* repo.find(job.communityId, job.subscriptionId)
        if (Option.isNone(found) || found.value.status !== "incomplete" || found.value.kind !== "charge") return
        const row = found.value
        const amounts = yield* life.renewalOf(row)
        const total = formatMoney(amounts.amount, row.currency)
        yield* life.sendPaymentLink(
          row,
          "subscription-payment-link",
          `Pagamento da assinatura: ${row.productTitle} / Subscription payment: ${row.productTitle}`,
          `Sua assinatura ${row.productTitle} começa com o pagamento de ${total}.\n` +
            `Your ${row.productTitle} subscription starts with a payment of ${total}.`
        )
        yield* jobs.enqueue({
          kind: JobKind.expireIncomplete,
          key: row.id,
          payload: { communityId: row.communityId, subscriptionId: row.id },
          runAt: (yield* now).getTime() + PAYMENT_LINK_HOURS * 3_600_000
        })
      }))

    yield* jobs.handle(JobKind.resume, onResume)
    yield* jobs.handle(JobKind.remind, onRemind)
    yield* jobs.handle(JobKind.firstCharge, onFirstCharge)
    yield* jobs.handle(JobKind.expireIncomplete, (payload) =>
      transactional(sql)(Effect.gen(function*() {
        const job = yield* Schema.decodeUnknown(FirstChargePayload)(payload).pipe(Effect.orDie)
        const found = yield* locked(job.communityId, job.subscriptionId)
        if (Option.isNone(found) || found.value.status !== "incomplete" || found.value.kind !== "charge") return
        yield* repo.update(found.value.id, { status: "incomplete_expired" }, yield* now)
      })))

    return {}
  }),
  dependencies: [SubscriptionsRepo.Default, SubscriptionLifecycle.Default, SubscriptionCharging.Default]
}) {}
