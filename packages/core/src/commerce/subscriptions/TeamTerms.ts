import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { invalidField, notFound } from "../../domain/AppError"
import { type Member } from "../../domain/Caller"
import { requireRole } from "../../domain/Policy"
import { Ids } from "../../platform/Ids"
import { Jobs } from "../../platform/Jobs"
import { RateLimits } from "../../platform/RateLimits"
import { traced } from "../../platform/traced"
import { transactional } from "../../sql/transaction"
import { SubscriptionEvents } from "./Events"
import { SubscriptionLifecycle } from "./Lifecycle"
import { subscriptionMessages as M } from "./messages"
import { moveCheck } from "./moves"
import { teamActors } from "./Policy"
import { SubscriptionReading } from "./Reading"
import { SubscriptionsRepo } from "./Repo"
import { JobKind, schedulePeriodEnd } from "./schedule"

export interface ManualInput {
  readonly profileId: string
  readonly productId: string
  readonly kind: "courtesy" | "charge"
  readonly startsAt?: string | undefined
  readonly periodEnd?: string | undefined
}

/**
 * What the team sets of a subscription: a manual one (courtesy or a future charge), a discount, an
 * extension of the period without charge, a payment link e-mailed to the member.
 */
export class SubscriptionTeamTerms extends Effect.Service<SubscriptionTeamTerms>()("@roda/core/SubscriptionTeamTerms", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* SubscriptionsRepo
    const life = yield* SubscriptionLifecycle
    const reading = yield* SubscriptionReading
    const events = yield* SubscriptionEvents
    const ids = yield* Ids
    const jobs = yield* Jobs
    const now = life.now
    const tx = transactional(sql)
    const limits = yield* RateLimits
    const { anyOf, teamViewOf } = reading

    const manual = traced("Subscriptions.manual")(function*(member: Member, input: ManualInput) {
      yield* requireRole(member, teamActors)
      return yield* tx(Effect.gen(function*() {
        const at = yield* now
        const contact = yield* repo.contact(member.communityId, input.profileId)
        if (Option.isNone(contact)) return yield* Effect.fail(invalidField("profileId", M.profileNotFound))
        const option = yield* repo.optionOf(member.communityId, input.productId)
        if (Option.isNone(option)) return yield* Effect.fail(invalidField("productId", M.productNotFound))
        const startsAt = input.startsAt === undefined ? at : new Date(input.startsAt)
        const id = yield* ids.next
        const base = {
          id,
          communityId: member.communityId,
          profileId: contact.value.id,
          subscriptionGroupId: option.value.groupId,
          productId: option.value.id,
          kind: input.kind,
          price: option.value.price,
          currency: option.value.currency,
          paymentMethod: null,
          cardToken: null,
          firstChargeId: null,
          createdAt: at,
          updatedAt: at
        }
        if (input.kind === "courtesy") {
          if (input.periodEnd === undefined) return yield* Effect.fail(invalidField("periodEnd", M.periodEndRequired))
          const periodEnd = new Date(input.periodEnd)
          if (periodEnd.getTime() <= at.getTime()) {
            return yield* Effect.fail(invalidField("periodEnd", M.futureRequired))
          }
          if (periodEnd.getTime() <= startsAt.getTime()) {
            return yield* Effect.fail(invalidField("periodEnd", M.periodEndAfterStart))
          }
          const row = yield* repo.insertViewed({
            ...base,
            status: "active",
            currentPeriodStart: startsAt,
            currentPeriodEnd: periodEnd,
            billingAnchor: periodEnd,
            periodIndex: 0,
            startsAt
          })
          yield* events.emit(row, "subscription.created")
          yield* life.accessUntil(row, periodEnd)
          yield* jobs.enqueue({
            kind: JobKind.periodEnd,
            key: `${id}:${periodEnd.toISOString()}`,
            payload: { communityId: member.communityId, subscriptionId: id, at: periodEnd.toISOString() },
            runAt: periodEnd.getTime()
          })
          return { id }
        }
        if (input.periodEnd !== undefined) {
          return yield* Effect.fail(invalidField("periodEnd", M.periodEndRequired))
        }
        yield* repo.insert({
          ...base,
          status: "incomplete",
          currentPeriodStart: null,
          currentPeriodEnd: null,
          billingAnchor: null,
          periodIndex: 0,
          startsAt
        })
        yield* jobs.enqueue({
          kind: JobKind.firstCharge,
          key: id,
          payload: { communityId: member.communityId, subscriptionId: id },
          runAt: Math.max(at.getTime(), startsAt.getTime())
        })
        return { id }
      }))
    })

    const setDiscount = traced("Subscriptions.setDiscount")(
      function*(member: Member, id: string, input: { readonly percent: number; readonly months?: number | undefined }) {
        yield* requireRole(member, teamActors)
        return yield* tx(Effect.gen(function*() {
          const row = yield* anyOf(member, id, true)
          yield* moveCheck(row, "discount")
          yield* repo.update(
            row.id,
            { discountPercent: input.percent, discountMonthsLeft: input.months ?? null },
            yield* now
          )
          return yield* teamViewOf(member, id)
        }))
      }
    )

    const removeDiscount = traced("Subscriptions.removeDiscount")(function*(member: Member, id: string) {
      yield* requireRole(member, teamActors)
      return yield* tx(Effect.gen(function*() {
        const row = yield* anyOf(member, id, true)
        if (row.discountPercent === null) return yield* Effect.fail(notFound(M.noDiscount))
        yield* repo.update(row.id, { discountPercent: null, discountMonthsLeft: null }, yield* now)
        return yield* teamViewOf(member, id)
      }))
    })

    const extend = traced("Subscriptions.extend")(
      function*(member: Member, id: string, input: { readonly days: number }) {
        yield* requireRole(member, teamActors)
        return yield* tx(Effect.gen(function*() {
          const row = yield* anyOf(member, id, true)
          yield* moveCheck(row, "extend")
          const at = yield* now
          const end = new Date(row.currentPeriodEnd!.getTime() + input.days * 24 * 3_600_000)
          yield* repo.update(row.id, { currentPeriodEnd: end, billingAnchor: end, periodIndex: 0 }, at)
          const updated = { ...row, currentPeriodEnd: end }
          yield* life.accessUntil(updated, end)
          yield* schedulePeriodEnd(jobs, {
            communityId: row.communityId,
            id: row.id,
            currentPeriodEnd: end,
            months: life.monthsOfRow(row),
            now: at.getTime()
          })
          return yield* teamViewOf(member, id)
        }))
      }
    )

    const sendPaymentLink = traced("Subscriptions.sendPaymentLink")(function*(member: Member, id: string) {
      yield* requireRole(member, teamActors)
      return yield* tx(Effect.gen(function*() {
        const row = yield* anyOf(member, id, true)
        yield* moveCheck(row, "payment_link")
        // Counted once the caller may send it (a refusal rolls back to the count before it).
        yield* limits.enforce("paymentLink", row.id)
        const link = yield* life.sendPaymentLink(
          row,
          "subscription-payment-link",
          `Pagamento da assinatura: ${row.productTitle} / Subscription payment: ${row.productTitle}`,
          `A equipe enviou um link para pagar a assinatura ${row.productTitle} ou cadastrar um cartão.\n` +
            `The team sent you a link to pay your ${row.productTitle} subscription or register a card.`
        )
        return { url: link.url, expiresAt: link.expiresAt.toISOString() }
      }))
    })

    return { manual, setDiscount, removeDiscount, extend, sendPaymentLink }
  }),
  dependencies: [
    SubscriptionsRepo.Default,
    SubscriptionLifecycle.Default,
    SubscriptionReading.Default,
    SubscriptionEvents.Default
  ]
}) {}
