import { Clock, Effect, Option } from "effect"
import { formatMoney } from "../../domain/Money"
import { Notify } from "../../notifications/Notify"
import { sha256Hex } from "../../platform/bytes"
import { Ids } from "../../platform/Ids"
import { Jobs } from "../../platform/Jobs"
import { Mailer } from "../../platform/Mailer"
import { Options } from "../../platform/Options"
import { Entitlements } from "../../structure/Entitlements"
import { addMonths, monthsOf, periodEndAt, renewalAmounts } from "./billing"
import { SubscriptionEvents } from "./Events"
import { PAYMENT_LINK_HOURS, retryDays } from "./Policy"
import { type BillingRow, type SubscriptionChanges, type SubscriptionRow, SubscriptionsRepo } from "./Repo"
import { DAY_MILLIS, JobKind, schedulePeriodEnd } from "./schedule"

export const sha256 = (text: string) => sha256Hex(text)

/**
 * The time side of subscriptions: starting periods (a period has one billing key), access that
 * follows the state, the e-mails and payment links, and the moves of time (paid, failed, unpaid,
 * ended, resumed), in the caller's transaction with the row locked. The durable jobs that run
 * them are `SubscriptionRenewals`' (`Renewals.ts`); charging is `SubscriptionCharging`'s.
 */
export class SubscriptionLifecycle extends Effect.Service<SubscriptionLifecycle>()("@roda/core/SubscriptionLifecycle", {
  effect: Effect.gen(function*() {
    const repo = yield* SubscriptionsRepo
    const ids = yield* Ids
    const jobs = yield* Jobs
    const mailer = yield* Mailer
    const entitlements = yield* Entitlements
    const options = yield* Options
    const events = yield* SubscriptionEvents
    const { notifyMailing } = yield* Notify
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const monthsOfRow = (row: SubscriptionRow) => monthsOf(row.billingInterval)

    /** Access follows the state: plan, option and add-ons open until `until` (now: closed). */
    const accessUntil = (row: SubscriptionRow, until: Date, extraProducts: ReadonlyArray<string> = []) =>
      Effect.gen(function*() {
        const addOns = yield* repo.addOns(row.communityId, [row.id])
        const sources = [
          { sourceType: "plan" as const, sourceId: row.subscriptionGroupId },
          { sourceType: "product" as const, sourceId: row.productId },
          ...[...addOns.map((addOn) => addOn.productId), ...extraProducts].map((sourceId) => ({
            sourceType: "product" as const,
            sourceId
          }))
        ]
        yield* entitlements.setUntil(
          yield* Effect.forEach(sources, (source) =>
            Effect.map(ids.next, (id) => ({
              id,
              communityId: row.communityId,
              profileId: row.profileId,
              ...source,
              validUntil: until
            })))
        )
      })

    const endProductAccess = (row: SubscriptionRow, productId: string, at: Date) =>
      Effect.flatMap(ids.next, (id) =>
        entitlements.setUntil([{
          id,
          communityId: row.communityId,
          profileId: row.profileId,
          sourceType: "product",
          sourceId: productId,
          validUntil: at
        }]))

    const mailMember = (row: SubscriptionRow, kind: string, subject: string, body: string) =>
      Effect.gen(function*() {
        const contact = yield* repo.contact(row.communityId, row.profileId)
        if (Option.isNone(contact)) return
        yield* mailer.send({ to: contact.value.email, communityId: row.communityId, kind, subject, text: body })
      })

    /** Tells the subscriber of a failed payment (`payment_failed`): whether they want it by e-mail. */
    const paymentFailed = (row: SubscriptionRow, onceKey?: string) =>
      Effect.map(
        notifyMailing(row.communityId, {
          kind: "payment_failed",
          recipients: [row.profileId],
          subject: { type: "subscription", id: row.id, title: row.productTitle },
          onceKey
        }),
        (mailed) => mailed.includes(row.profileId)
      )

    /** A single-use payment link (only its digest is kept), valid 7 days; its URL. */
    const paymentLink = (row: SubscriptionRow) =>
      Effect.gen(function*() {
        const at = yield* now
        const secret = yield* ids.secret()
        const expiresAt = new Date(at.getTime() + PAYMENT_LINK_HOURS * 3_600_000)
        yield* repo.insertLink({
          id: yield* ids.next,
          communityId: row.communityId,
          subscriptionId: row.id,
          tokenHash: sha256(secret),
          expiresAt,
          createdAt: at
        })
        const base = options.publicBaseUrl.replace(/\/+$/, "")
        return { url: `${base}/subscriptions/${row.id}/pay?token=${secret}`, expiresAt }
      })

    const sendPaymentLink = (row: SubscriptionRow, kind: string, subject: string, intro: string) =>
      Effect.gen(function*() {
        const link = yield* paymentLink(row)
        yield* mailMember(
          row,
          kind,
          subject,
          `${intro}\nPague ou cadastre um cartão / Pay or register a card: ${link.url}\n` +
            `O link vale até / The link is valid until ${link.expiresAt.toISOString()}, uma vez / once.`
        )
        return link
      })

    /** The next period of an active subscription, counted from its anchor. */
    const nextPeriod = (row: SubscriptionRow) => {
      const months = monthsOfRow(row)
      const anchor = row.billingAnchor ?? row.currentPeriodStart!
      return {
        start: row.currentPeriodEnd!,
        end: periodEndAt(anchor, months, row.periodIndex + 1),
        billingAnchor: anchor,
        periodIndex: row.periodIndex + 1
      }
    }

    /** The renewal amounts of a subscription: its option and add-ons, less its discount. */
    const renewalOf = (row: SubscriptionRow) =>
      Effect.map(
        repo.addOns(row.communityId, [row.id]),
        (addOns) =>
          renewalAmounts(
            row.price,
            addOns.map((addOn) => addOn.price),
            monthsOfRow(row),
            row.discountPercent,
            row.couponPeriodsLeft === 0 ? 0 : row.couponDiscount ?? 0
          )
      )

    /** The billing of the period that follows the current one (made once per period). */
    const renewalBilling = (row: SubscriptionRow, period: { readonly start: Date; readonly end: Date }) =>
      Effect.gen(function*() {
        const amounts = yield* renewalOf(row)
        const at = yield* now
        return yield* repo.billingFor({
          id: yield* ids.next,
          communityId: row.communityId,
          subscriptionId: row.id,
          key: `renewal:${row.id}:${period.start.toISOString()}`,
          reason: "renewal",
          periodStart: period.start,
          periodEnd: period.end,
          ...amounts,
          currency: row.currency,
          paymentMethod: "CREDIT_CARD",
          fee: 0,
          net: 0,
          status: "pending",
          createdAt: at,
          updatedAt: at
        })
      })

    /**
     * A period is paid: the subscription is active for it, access follows, the next period end is
     * scheduled, a repeating discount counts down, and the member gets a receipt.
     */
    const periodPaid = (
      row: SubscriptionRow,
      billing: BillingRow,
      period: { readonly billingAnchor: Date; readonly periodIndex: number },
      extra: SubscriptionChanges = {}
    ) =>
      Effect.gen(function*() {
        const at = yield* now
        const monthsLeft = row.discountMonthsLeft === null ? null : Math.max(0, row.discountMonthsLeft - 1)
        const changes: SubscriptionChanges = {
          status: "active",
          currentPeriodStart: billing.periodStart!,
          currentPeriodEnd: billing.periodEnd!,
          billingAnchor: period.billingAnchor,
          periodIndex: period.periodIndex,
          pastDueSince: null,
          ...(billing.reason === "renewal" && row.discountMonthsLeft !== null
            ? monthsLeft === 0
              ? { discountPercent: null, discountMonthsLeft: null }
              : { discountMonthsLeft: monthsLeft }
            : {}),
          ...(billing.reason === "renewal" && row.couponDiscount !== null && row.couponPeriodsLeft !== null
            ? row.couponPeriodsLeft <= 1
              ? { couponDiscount: null, couponPeriodsLeft: null }
              : { couponPeriodsLeft: row.couponPeriodsLeft - 1 }
            : {}),
          ...extra
        }
        const viewed = yield* repo.updateViewed(row.id, changes, at)
        // a subscription paid for the first time (a manual one, an open checkout) starts; any other renews
        yield* events.emit(viewed, row.status === "incomplete" ? "subscription.created" : "subscription.renewed")
        const updated = { ...row, ...changes } as SubscriptionRow
        yield* accessUntil(updated, billing.periodEnd!)
        yield* schedulePeriodEnd(jobs, {
          communityId: row.communityId,
          id: row.id,
          currentPeriodEnd: billing.periodEnd!,
          months: monthsOfRow(updated),
          now: at.getTime()
        })
        const total = formatMoney(billing.amount, billing.currency)
        yield* mailMember(
          row,
          "subscription-receipt",
          `Recibo da assinatura: ${row.productTitle} / Subscription receipt: ${row.productTitle}`,
          `Pagamento de ${total} confirmado para ${row.productTitle}, período até ${
            billing.periodEnd!.toISOString()
          }.\n` +
            `Payment of ${total} confirmed for ${row.productTitle}, period until ${billing.periodEnd!.toISOString()}.`
        )
        return updated
      })

    /**
     * A renewal failed: `past_due`, access kept through the retries, the subscriber's `payment_failed`
     * and, if they want that kind by e-mail, a pay link e-mailed (a link no one is sent is not made).
     */
    const renewalFailed = (row: SubscriptionRow, billing: BillingRow) =>
      Effect.gen(function*() {
        const at = yield* now
        const viewed = yield* repo.updateViewed(row.id, { status: "past_due", pastDueSince: at }, at)
        yield* events.emit(viewed, "subscription.past_due")
        yield* accessUntil(row, new Date(at.getTime() + (retryDays[retryDays.length - 1]! + 1) * DAY_MILLIS))
        yield* jobs.enqueue({
          kind: JobKind.retry,
          key: `${billing.id}:1`,
          payload: { communityId: row.communityId, subscriptionId: row.id, billingId: billing.id, attempt: 1 },
          runAt: at.getTime() + retryDays[0]! * DAY_MILLIS
        })
        if (!(yield* paymentFailed(row, billing.id))) return
        const total = formatMoney(billing.amount, billing.currency)
        yield* sendPaymentLink(
          row,
          "subscription-payment-failed",
          `Pagamento recusado: ${row.productTitle} / Payment failed: ${row.productTitle}`,
          `Não conseguimos cobrar ${total} da sua assinatura ${row.productTitle}. Tentaremos de novo nos dias 1, 3, 5 e 7.\n` +
            `We could not charge ${total} for your ${row.productTitle} subscription. We will retry on days 1, 3, 5 and 7.`
        )
      })

    /** The subscription ends (final `canceled`): access until `accessEnd`, a cancellation e-mail. */
    const end = (row: SubscriptionRow, accessEnd: Date, note = "") =>
      Effect.gen(function*() {
        const at = yield* now
        const viewed = yield* repo.updateViewed(row.id, {
          status: "canceled",
          canceledAt: at,
          cancelAtPeriodEnd: false,
          scheduledProductId: null,
          scheduledPrice: null
        }, at)
        yield* events.emit(viewed, "subscription.canceled")
        yield* accessUntil(row, accessEnd)
        yield* mailMember(
          row,
          "subscription-canceled",
          `Assinatura encerrada: ${row.productTitle} / Subscription ended: ${row.productTitle}`,
          `Sua assinatura ${row.productTitle} foi encerrada; o acesso vai até ${accessEnd.toISOString()}.${note}\n` +
            `Your ${row.productTitle} subscription has ended; access lasts until ${accessEnd.toISOString()}.${note}`
        )
      })

    /**
     * Applies a scheduled change of option at the period end: option and price of the next period,
     * the price quoted when the change was scheduled (never one the catalogue got since; a schedule
     * made before the quoted price was kept takes the catalogue's).
     */
    const applyScheduledChange = (row: SubscriptionRow) =>
      Effect.gen(function*() {
        if (row.scheduledProductId === null) return row
        const next = yield* repo.planProduct(row.communityId, row.subscriptionGroupId, row.scheduledProductId)
        const at = yield* now
        if (Option.isNone(next) || next.value.kind !== "option") {
          yield* repo.update(row.id, { scheduledProductId: null, scheduledPrice: null }, at)
          return { ...row, scheduledProductId: null, scheduledPrice: null }
        }
        const changes: SubscriptionChanges = {
          productId: next.value.id,
          price: row.scheduledPrice ?? next.value.price,
          scheduledProductId: null,
          scheduledPrice: null,
          billingAnchor: row.currentPeriodEnd!,
          periodIndex: 0
        }
        const viewed = yield* repo.updateViewed(row.id, changes, at)
        yield* events.emit(viewed, "subscription.plan_changed", { previousProductId: row.productId })
        yield* endProductAccess(row, row.productId, row.currentPeriodEnd!)
        return {
          ...row,
          ...changes,
          billingInterval: next.value.billingInterval,
          productTitle: next.value.title
        } as SubscriptionRow
      })

    /** The last retry failed: `unpaid`, access removed until payment, `payment_failed` and a pay link e-mailed. */
    const unpaid = (row: SubscriptionRow) =>
      Effect.gen(function*() {
        const at = yield* now
        yield* repo.update(row.id, { status: "unpaid" }, at)
        yield* accessUntil(row, at)
        if (!(yield* paymentFailed(row))) return
        yield* sendPaymentLink(
          row,
          "subscription-unpaid",
          `Assinatura suspensa: ${row.productTitle} / Subscription suspended: ${row.productTitle}`,
          `As tentativas de cobrança falharam e o acesso foi suspenso até o pagamento.\n` +
            `The payment retries failed and access is suspended until payment.`
        )
      })

    /** A paused subscription goes on: a new period from now for the time that was left when paused. */
    const resume = (row: SubscriptionRow) =>
      Effect.gen(function*() {
        const at = yield* now
        const periodEnd = new Date(at.getTime() + (row.pausedRemainingSeconds ?? 0) * 1000)
        const changes: SubscriptionChanges = {
          status: "active",
          pausedUntil: null,
          pausedRemainingSeconds: null,
          currentPeriodStart: at,
          currentPeriodEnd: periodEnd,
          billingAnchor: periodEnd,
          periodIndex: 0
        }
        const viewed = yield* repo.updateViewed(row.id, changes, at)
        yield* events.emit(viewed, "subscription.resumed")
        const updated = { ...row, ...changes } as SubscriptionRow
        yield* accessUntil(updated, periodEnd)
        yield* schedulePeriodEnd(jobs, {
          communityId: row.communityId,
          id: row.id,
          currentPeriodEnd: periodEnd,
          months: monthsOfRow(row),
          now: at.getTime()
        })
        return updated
      })

    /** The first period of a subscription paid now (manual `charge`, `unpaid` paid again): from now. */
    const freshPeriod = (row: SubscriptionRow, at: Date) => ({
      start: at,
      end: addMonths(at, monthsOfRow(row)),
      billingAnchor: at,
      periodIndex: 1
    })

    return {
      now,
      accessUntil,
      endProductAccess,
      mailMember,
      paymentLink,
      sendPaymentLink,
      nextPeriod,
      renewalFailed,
      applyScheduledChange,
      unpaid,
      freshPeriod,
      renewalOf,
      renewalBilling,
      periodPaid,
      end,
      resume,
      monthsOfRow
    }
  }),
  dependencies: [SubscriptionsRepo.Default, SubscriptionEvents.Default]
}) {}
