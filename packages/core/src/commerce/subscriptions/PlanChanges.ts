import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { conflict, fieldError, invalidField, notFound } from "../../domain/AppError"
import { type Member } from "../../domain/Caller"
import { requireRole } from "../../domain/Policy"
import { Ids } from "../../platform/Ids"
import { traced } from "../../platform/traced"
import { transactional } from "../../sql/transaction"
import { addOnProration, monthsOf, tierChange } from "./billing"
import { SubscriptionCharging } from "./Charging"
import { SubscriptionLifecycle } from "./Lifecycle"
import { subscriptionMessages as M } from "./messages"
import { moveCheck, paidOrRefused } from "./moves"
import { standingOf, teamActors } from "./Policy"
import { SubscriptionReading } from "./Reading"
import { type SubscriptionRow, SubscriptionsRepo } from "./Repo"

export interface ChangeTierInput {
  readonly productId: string
  readonly when?: "now" | "period_end" | undefined
}

/**
 * Changing what a subscription holds: another option of its plan (now, charged prorated, or at the
 * period end), add-ons (the member's, charged prorated; the team's, without a charge).
 */
export class SubscriptionPlanChanges
  extends Effect.Service<SubscriptionPlanChanges>()("@roda/core/SubscriptionPlanChanges", {
    effect: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const repo = yield* SubscriptionsRepo
      const life = yield* SubscriptionLifecycle
      const charging = yield* SubscriptionCharging
      const reading = yield* SubscriptionReading
      const ids = yield* Ids
      const now = life.now
      const tx = transactional(sql)
      const { own, anyOf, reread, teamViewOf, noChargeInFlight } = reading

      /** The option a change moves to: another billing option of the same plan. */
      const targetOption = (row: SubscriptionRow, productId: string) =>
        Effect.gen(function*() {
          const found = yield* repo.planProduct(row.communityId, row.subscriptionGroupId, productId)
          if (Option.isNone(found) || found.value.kind !== "option" || found.value.status !== "ACTIVE") {
            return yield* Effect.fail(invalidField("productId", M.notAPlanOption))
          }
          if (found.value.id === row.productId) return yield* Effect.fail(invalidField("productId", M.samePlanOption))
          return found.value
        })

      /** The numbers of a change of option: what the quote shows and the change charges. */
      const planChange = (row: SubscriptionRow, input: ChangeTierInput) =>
        Effect.gen(function*() {
          yield* moveCheck(row, "change_tier")
          const target = yield* targetOption(row, input.productId)
          const at = yield* now
          const change = tierChange({
            now: at,
            periodStart: row.currentPeriodStart!,
            periodEnd: row.currentPeriodEnd!,
            current: { price: row.price, months: life.monthsOfRow(row) },
            next: { price: target.price, months: monthsOf(target.billingInterval) },
            when: input.when,
            discountPercent: row.discountPercent
          })
          if (change.direction === "downgrade" && change.when === "now") {
            return yield* Effect.fail(invalidField("when", M.downgradeNow))
          }
          return { target, change }
        })

      const quoteView = (row: SubscriptionRow, plan: Effect.Effect.Success<ReturnType<typeof planChange>>) => ({
        subscriptionId: row.id,
        productId: plan.target.id,
        direction: plan.change.direction,
        when: plan.change.when,
        effectiveAt: plan.change.effectiveAt.toISOString(),
        ...plan.change.amounts,
        currency: row.currency,
        remainingSeconds: plan.change.remainingSeconds,
        periodStart: plan.change.periodStart.toISOString(),
        periodEnd: plan.change.periodEnd.toISOString()
      })

      const changeTierQuote = traced("Subscriptions.changeTierQuote")(
        function*(member: Member, id: string, input: ChangeTierInput) {
          const row = yield* own(member, id)
          return quoteView(row, yield* planChange(row, input))
        }
      )

      /**
       * A change of option. Now (an upgrade): the proration billing is charged in three phases (no
       * network call inside a transaction, `Charging.ts`); the change is applied with the payment,
       * only if the subscription still stands where it was read (`Policy.standingOf`): otherwise the
       * payment is given back and the answer is 409.
       */
      const changeTier = traced("Subscriptions.changeTier")(
        function*(member: Member, id: string, input: ChangeTierInput) {
          const begun = yield* tx(Effect.gen(function*() {
            const row = yield* own(member, id, true)
            const plan = yield* planChange(row, input)
            const at = yield* now
            if (plan.change.when === "period_end") {
              // agreed now: it renews at the price quoted now, whatever the catalogue says at the period end
              yield* repo.update(row.id, { scheduledProductId: plan.target.id, scheduledPrice: plan.target.price }, at)
              return {
                _tag: "Scheduled",
                answer: { scheduled: true, quote: quoteView(row, plan), subscription: yield* reread(row) }
              } as const
            }
            yield* noChargeInFlight(row)
            const billing = yield* repo.billingFor({
              id: yield* ids.next,
              communityId: row.communityId,
              subscriptionId: row.id,
              key: `proration:${row.id}:${at.toISOString()}`,
              reason: "proration",
              periodStart: plan.change.periodStart,
              periodEnd: plan.change.periodEnd,
              ...plan.change.amounts,
              currency: row.currency,
              paymentMethod: "CREDIT_CARD",
              fee: 0,
              net: 0,
              status: "pending",
              createdAt: at,
              updatedAt: at
            })
            const charge = yield* charging.begin(
              row,
              billing,
              row.cardToken,
              `Mudança de plano: ${plan.target.title}`,
              {
                _tag: "change_tier",
                productId: plan.target.id,
                standing: standingOf(row),
                price: plan.target.price
              }
            )
            return { _tag: "Charging", charge, quote: quoteView(row, plan), row } as const
          }))
          if (begun._tag === "Scheduled") return begun.answer
          yield* paidOrRefused(yield* charging.complete(begun.charge), "change_tier")
          return {
            scheduled: false,
            quote: begun.quote,
            subscription: yield* tx(reread(begun.row))
          }
        }
      )

      const scheduledChange = traced("Subscriptions.scheduledChange")(function*(member: Member, id: string) {
        const row = yield* own(member, id)
        return row.scheduledProductId === null
          ? null
          : { productId: row.scheduledProductId, effectiveAt: row.currentPeriodEnd?.toISOString() ?? null }
      })

      const removeScheduledChange = traced("Subscriptions.removeScheduledChange")(
        function*(member: Member, id: string) {
          return yield* tx(Effect.gen(function*() {
            const row = yield* own(member, id, true)
            if (row.scheduledProductId === null) return yield* Effect.fail(notFound(M.noScheduledChange))
            yield* repo.update(row.id, { scheduledProductId: null, scheduledPrice: null }, yield* now)
            return yield* reread(row)
          }))
        }
      )

      /** An add-on of the plan, not already on the subscription. */
      const addOnTarget = (row: SubscriptionRow, productId: string) =>
        Effect.gen(function*() {
          yield* moveCheck(row, "add_on")
          const found = yield* repo.planProduct(row.communityId, row.subscriptionGroupId, productId)
          if (Option.isNone(found) || found.value.kind !== "add_on" || found.value.status !== "ACTIVE") {
            return yield* Effect.fail(invalidField("productId", M.notAnAddOn))
          }
          const current = yield* repo.addOns(row.communityId, [row.id])
          if (current.some((addOn) => addOn.productId === productId)) {
            return yield* Effect.fail(
              conflict(M.addOnTaken, [fieldError("productId", M.addOnTaken)])
            )
          }
          return found.value
        })

      const addOnPlan = (row: SubscriptionRow, productId: string) =>
        Effect.gen(function*() {
          const target = yield* addOnTarget(row, productId)
          const at = yield* now
          const amounts = addOnProration({
            now: at,
            periodStart: row.currentPeriodStart!,
            periodEnd: row.currentPeriodEnd!,
            monthlyPrice: target.price,
            months: life.monthsOfRow(row),
            discountPercent: row.discountPercent
          })
          return { target, amounts, at }
        })

      const addOnQuoteView = (row: SubscriptionRow, plan: Effect.Effect.Success<ReturnType<typeof addOnPlan>>) => ({
        subscriptionId: row.id,
        productId: plan.target.id,
        listAmount: plan.amounts.listAmount,
        discount: plan.amounts.discount,
        amount: plan.amounts.amount,
        currency: row.currency,
        remainingSeconds: plan.amounts.remainingSeconds,
        periodEnd: row.currentPeriodEnd!.toISOString(),
        monthlyPrice: plan.target.price
      })

      const addOnQuote = traced("Subscriptions.addOnQuote")(
        function*(member: Member, id: string, input: { readonly productId: string }) {
          const row = yield* own(member, id)
          return addOnQuoteView(row, yield* addOnPlan(row, input.productId))
        }
      )

      const attachAddOn = (row: SubscriptionRow, productId: string, price: number, at: Date) =>
        Effect.gen(function*() {
          yield* repo.insertAddOn({
            id: yield* ids.next,
            communityId: row.communityId,
            subscriptionId: row.id,
            productId,
            price,
            createdAt: at
          })
          yield* life.accessUntil(row, row.currentPeriodEnd!, [productId])
        })

      /** An add-on taken now: its prorated billing charged in three phases; attached with the payment. */
      const addOn = traced("Subscriptions.addOn")(
        function*(member: Member, id: string, input: { readonly productId: string }) {
          const begun = yield* tx(Effect.gen(function*() {
            const row = yield* own(member, id, true)
            const plan = yield* addOnPlan(row, input.productId)
            yield* noChargeInFlight(row)
            const billing = yield* repo.billingFor({
              id: yield* ids.next,
              communityId: row.communityId,
              subscriptionId: row.id,
              key: `add_on:${row.id}:${input.productId}:${plan.at.toISOString()}`,
              reason: "add_on",
              periodStart: plan.at,
              periodEnd: row.currentPeriodEnd!,
              listAmount: plan.amounts.listAmount,
              discount: plan.amounts.discount,
              amount: plan.amounts.amount,
              currency: row.currency,
              paymentMethod: "CREDIT_CARD",
              fee: 0,
              net: 0,
              status: "pending",
              createdAt: plan.at,
              updatedAt: plan.at
            })
            const charge = yield* charging.begin(row, billing, row.cardToken, `Add-on: ${plan.target.title}`, {
              _tag: "add_on",
              productId: plan.target.id,
              price: plan.target.price
            })
            return { charge, quote: addOnQuoteView(row, plan), row }
          }))
          yield* paidOrRefused(yield* charging.complete(begun.charge), "add_on")
          return { quote: begun.quote, subscription: yield* tx(reread(begun.row)) }
        }
      )

      const teamAddOn = traced("Subscriptions.teamAddOn")(
        function*(member: Member, id: string, input: { readonly productId: string }) {
          yield* requireRole(member, teamActors)
          return yield* tx(Effect.gen(function*() {
            const row = yield* anyOf(member, id, true)
            const target = yield* addOnTarget(row, input.productId)
            yield* attachAddOn(row, target.id, target.price, yield* now)
            return yield* teamViewOf(member, id)
          }))
        }
      )

      const removeAddOn = traced("Subscriptions.removeAddOn")(
        function*(member: Member, id: string, addOnId: string) {
          yield* requireRole(member, teamActors)
          return yield* tx(Effect.gen(function*() {
            const row = yield* anyOf(member, id, true)
            const at = yield* now
            const removed = yield* repo.removeAddOn(row.communityId, row.id, addOnId, at)
            if (Option.isNone(removed)) return yield* Effect.fail(notFound(M.addOnNotFound))
            yield* moveCheck(row, "remove_add_on")
            yield* life.endProductAccess(row, removed.value.productId, at)
            return yield* teamViewOf(member, id)
          }))
        }
      )

      return {
        changeTierQuote,
        changeTier,
        scheduledChange,
        removeScheduledChange,
        addOnQuote,
        addOn,
        teamAddOn,
        removeAddOn
      }
    }),
    dependencies: [
      SubscriptionsRepo.Default,
      SubscriptionLifecycle.Default,
      SubscriptionCharging.Default,
      SubscriptionReading.Default
    ]
  })
{}
