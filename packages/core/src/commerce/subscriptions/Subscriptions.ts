import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema, Stream } from "effect"
import { badRequest, conflict, fieldError, gone, invalidField, notFound, paymentRequired } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { csvLine } from "../../domain/Csv"
import { Uuid } from "../../domain/Ids"
import { decodeCursor, DEFAULT_LIMIT, toPage } from "../../domain/Pagination"
import { requireRole } from "../../domain/Policy"
import { LedgerPosting } from "../../money/ledger/LedgerPosting"
import { Ids } from "../../platform/Ids"
import { Jobs } from "../../platform/Jobs"
import { RateLimits } from "../../platform/RateLimits"
import { traced } from "../../platform/traced"
import { outsideTransaction, transactional } from "../../sql/transaction"
import { addOnProration, monthsOf, tierChange, unusedPart } from "./billing"
import { CHARGE_RECONCILE_AFTER_MS, type ChargeResult, SubscriptionCharging } from "./Charging"
import { sha256, SubscriptionLifecycle } from "./Lifecycle"
import { subscriptionMessages as M } from "./messages"
import {
  allowedMoves,
  checkMove,
  type Move,
  phaseOf,
  refusal,
  standingOf,
  type SubscriptionStatus,
  teamActors,
  teamReaders
} from "./Policy"
import { type ListFilters, type SubscriptionRow, SubscriptionsRepo, type TeamRow } from "./Repo"
import { makeKeyed } from "./requestKeys"
import { JobKind, schedulePeriodEnd } from "./schedule"
import { billingView, csvHeader, subscriptionLine, subscriptionView, teamView } from "./view"

const Cursor = Schema.Tuple(Uuid)

export interface PageInput {
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

export interface ChangeTierInput {
  readonly productId: string
  readonly when?: "now" | "period_end" | undefined
}

export interface PayNowInput {
  readonly paymentMethod: "CREDIT_CARD" | "PIX" | "BOLETO"
  readonly cardToken?: string | undefined
  readonly token?: string | undefined
}

export interface ManualInput {
  readonly profileId: string
  readonly productId: string
  readonly kind: "courtesy" | "charge"
  readonly startsAt?: string | undefined
  readonly periodEnd?: string | undefined
}

export interface TeamCancelInput {
  readonly when: "now" | "period_end"
  readonly refund?: "none" | "prorated" | "full" | undefined
}

const EXPORT_PAGE = 500

/**
 * Subscriptions as members and the team see and move them. Every move goes through the
 * transition table (`Policy.ts`) with the row locked; money and time go through
 * `SubscriptionLifecycle`. Members act on their own subscriptions only (another's is 404).
 */
export class Subscriptions extends Effect.Service<Subscriptions>()("@roda/core/Subscriptions", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* SubscriptionsRepo
    const life = yield* SubscriptionLifecycle
    const charging = yield* SubscriptionCharging
    const ids = yield* Ids
    const jobs = yield* Jobs
    const ledger = yield* LedgerPosting
    const now = life.now
    const tx = transactional(sql)
    const limits = yield* RateLimits
    const keyed = makeKeyed(sql, repo)
    const views = (rows: ReadonlyArray<SubscriptionRow>) =>
      Effect.map(
        repo.addOns(rows[0]?.communityId ?? "", rows.map((row) => row.id)),
        (addOns) => rows.map((row) => subscriptionView(row, addOns))
      )

    const viewOf = (row: SubscriptionRow) => Effect.map(views([row]), (all) => all[0]!)

    /** The caller's own subscription (the acting profile's); another's is not found. */
    const own = (member: Member, id: string, lock = false) =>
      Effect.flatMap(
        repo.find(member.communityId, id, { lock, profileId: member.actingProfileId }),
        Option.match({ onNone: () => Effect.fail(notFound(M.notFound)), onSome: (row) => Effect.succeed(row) })
      )

    const anyOf = (member: Member, id: string, lock = false) =>
      Effect.flatMap(
        repo.find(member.communityId, id, { lock }),
        Option.match({ onNone: () => Effect.fail(notFound(M.notFound)), onSome: (row) => Effect.succeed(row) })
      )

    const reread = (row: SubscriptionRow) =>
      Effect.flatMap(repo.find(row.communityId, row.id), (found) => viewOf(Option.getOrThrow(found)))

    const moveCheck = (row: SubscriptionRow, move: Move) => checkMove(phaseOf(row), move)

    const pageOf = (communityId: string, filters: ListFilters, input: PageInput) =>
      Effect.gen(function*() {
        const limit = input.limit ?? DEFAULT_LIMIT
        const after = yield* decodeCursor(input.cursor, Cursor)
        const rows = yield* repo.list(communityId, filters, after?.[0], limit + 1)
        return toPage(rows, limit, (row) => [row.id])
      })

    // ---------------------------------------------------------------- member

    const list = traced("Subscriptions.list")(
      function*(member: Member, input: PageInput & { readonly status?: SubscriptionStatus | undefined }) {
        const result = yield* pageOf(
          member.communityId,
          { profileId: member.actingProfileId, status: input.status },
          input
        )
        return { items: yield* views(result.items), pagination: result.pagination }
      }
    )

    /** The caller's subscriptions that are not over (final states left out), newest first. */
    const mine = traced("Subscriptions.mine")(function*(member: Member) {
      const rows = yield* repo.list(member.communityId, { profileId: member.actingProfileId }, undefined, 100)
      return yield* views(rows.filter((row) => row.status !== "canceled" && row.status !== "incomplete_expired"))
    })

    const detail = traced("Subscriptions.detail")(function*(member: Member, id: string) {
      return yield* viewOf(yield* own(member, id))
    })

    const billingsOf = (row: SubscriptionRow, input: PageInput) =>
      Effect.gen(function*() {
        const limit = input.limit ?? DEFAULT_LIMIT
        const after = yield* decodeCursor(input.cursor, Cursor)
        const rows = yield* repo.billings(row.communityId, row.id, after?.[0], limit + 1)
        const page = toPage(rows, limit, (billing) => [billing.id])
        return { items: page.items.map(billingView), pagination: page.pagination }
      })

    const billings = traced("Subscriptions.billings")(function*(member: Member, id: string, input: PageInput) {
      return yield* billingsOf(yield* own(member, id), input)
    })

    /** Active: ends at the period end (flag). Past due, unpaid, paused, incomplete: ends now. */
    const cancelRow = (row: SubscriptionRow) =>
      Effect.gen(function*() {
        yield* moveCheck(row, "cancel")
        const at = yield* now
        if (row.status === "active") {
          yield* repo.update(row.id, { cancelAtPeriodEnd: true, scheduledProductId: null, scheduledPrice: null }, at)
          yield* life.mailMember(
            row,
            "subscription-canceled",
            `Cancelamento agendado: ${row.productTitle} / Cancellation scheduled: ${row.productTitle}`,
            `Sua assinatura ${row.productTitle} termina em ${row.currentPeriodEnd?.toISOString()}; até lá o acesso continua.\n` +
              `Your ${row.productTitle} subscription ends on ${row.currentPeriodEnd?.toISOString()}; access goes on until then.`
          )
          return "scheduled" as const
        }
        yield* life.end(row, at)
        return "ended" as const
      })

    const cancel = traced("Subscriptions.cancel")(function*(member: Member, id: string) {
      return yield* tx(Effect.gen(function*() {
        const row = yield* own(member, id, true)
        const outcome = yield* cancelRow(row)
        return { outcome, subscription: yield* reread(row) }
      }))
    })

    const reactivateRow = (row: SubscriptionRow) =>
      Effect.gen(function*() {
        yield* moveCheck(row, "reactivate")
        yield* repo.update(row.id, { cancelAtPeriodEnd: false }, yield* now)
        return yield* reread(row)
      })

    const reactivate = traced("Subscriptions.reactivate")(function*(member: Member, id: string) {
      return yield* tx(Effect.flatMap(own(member, id, true), reactivateRow))
    })

    const pause = traced("Subscriptions.pause")(
      function*(member: Member, id: string, input: { readonly resumeAt?: string | undefined }) {
        return yield* tx(Effect.gen(function*() {
          const row = yield* own(member, id, true)
          yield* moveCheck(row, "pause")
          const at = yield* now
          const resumeAt = input.resumeAt === undefined ? null : new Date(input.resumeAt)
          if (resumeAt !== null && resumeAt.getTime() <= at.getTime()) {
            return yield* Effect.fail(invalidField("resumeAt", M.futureRequired))
          }
          const remaining = Math.max(0, Math.floor(((row.currentPeriodEnd?.getTime() ?? 0) - at.getTime()) / 1000))
          yield* repo.update(row.id, {
            status: "paused",
            pausedUntil: resumeAt,
            pausedRemainingSeconds: remaining,
            scheduledProductId: null,
            scheduledPrice: null
          }, at)
          yield* life.accessUntil(row, at)
          if (resumeAt !== null) {
            yield* jobs.enqueue({
              kind: JobKind.resume,
              key: `${row.id}:${resumeAt.toISOString()}`,
              payload: { communityId: row.communityId, subscriptionId: row.id, at: resumeAt.toISOString() },
              runAt: resumeAt.getTime()
            })
          }
          return yield* reread(row)
        }))
      }
    )

    const resume = traced("Subscriptions.resume")(function*(member: Member, id: string) {
      return yield* tx(Effect.gen(function*() {
        const row = yield* own(member, id, true)
        yield* moveCheck(row, "resume")
        yield* life.resume(row)
        return yield* reread(row)
      }))
    })

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

    const declined = (result: { readonly _tag: string }) =>
      result._tag === "InvalidCard"
        ? invalidField("cardToken", M.cardTokenInvalid)
        : paymentRequired(M.declined)

    /** One charge of a subscription at a time: another while one is at the gateway is a 409. */
    const noChargeInFlight = (row: SubscriptionRow) =>
      Effect.flatMap(
        repo.chargingNow(row.communityId, row.id),
        (charging) =>
          charging ? Effect.fail(conflict(M.chargeInFlight, [fieldError("status", M.chargeInFlight)])) : Effect.void
      )

    /** A charge's result as the member's request answers it: paid goes on, anything else is refused. */
    /**
     * The paid billing of a move charged now, or why the move did not happen: declined, another
     * charge in flight, or (409) the subscription moved on while the money was at the gateway, the
     * money then given back.
     */
    const paidOrRefused = (result: ChargeResult, move: Move) =>
      result._tag === "Paid"
        ? result.givenBack === undefined ? Effect.succeed(result.billing) : refusal(result.givenBack, move)
        : result._tag === "InFlight"
        ? Effect.fail(conflict(M.chargeInFlight, [fieldError("status", M.chargeInFlight)]))
        : Effect.fail(declined(result))

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
          const charge = yield* charging.begin(row, billing, row.cardToken, `Mudança de plano: ${plan.target.title}`, {
            _tag: "change_tier",
            productId: plan.target.id,
            standing: standingOf(row),
            price: plan.target.price
          })
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

    /** Checks a payment link's secret: 400 when unknown, 410 when used or expired; marks it used. */
    const useLink = (row: SubscriptionRow, token: string, at: Date) =>
      Effect.gen(function*() {
        const link = yield* repo.linkByHash(row.communityId, row.id, sha256(token))
        if (Option.isNone(link)) return yield* Effect.fail(invalidField("token", M.paymentLinkInvalid))
        if (link.value.usedAt !== null || link.value.expiresAt.getTime() <= at.getTime()) {
          return yield* Effect.fail(gone(M.paymentLinkGone, [fieldError("token", M.paymentLinkGone)]))
        }
        yield* repo.useLink(link.value.id, at)
      })

    /**
     * Pays the open charge now with a card (which becomes the card on file): `past_due` goes on with
     * the period it was renewing, `unpaid` and a manual `incomplete` start a new period from now.
     */
    const payNow = traced("Subscriptions.payNow")(function*(member: Member, id: string, input: PayNowInput) {
      if (input.paymentMethod !== "CREDIT_CARD") return yield* Effect.fail(invalidField("paymentMethod", M.cardOnly))
      if (input.cardToken === undefined) return yield* Effect.fail(invalidField("cardToken", M.cardTokenRequired))
      const cardToken = input.cardToken
      const begun = yield* tx(Effect.gen(function*() {
        const row = yield* own(member, id, true)
        yield* moveCheck(row, "pay_now")
        const at = yield* now
        if (input.token !== undefined) yield* useLink(row, input.token, at)
        yield* noChargeInFlight(row)
        const open = yield* repo.openBilling(row.communityId, row.id)
        const fresh = row.status !== "past_due"
        const period = fresh ? life.freshPeriod(row, at) : life.nextPeriod(row)
        let billing = Option.isSome(open) ? open.value : yield* (row.status === "past_due"
          ? life.renewalBilling(row, period)
          : Effect.gen(function*() {
            const amounts = yield* life.renewalOf(row)
            return yield* repo.billingFor({
              id: yield* ids.next,
              communityId: row.communityId,
              subscriptionId: row.id,
              key: `initial:${row.id}:${at.toISOString()}`,
              reason: "initial",
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
          }))
        if (fresh) {
          yield* repo.updateBilling(billing.id, { periodStart: period.start, periodEnd: period.end }, at)
          billing = { ...billing, periodStart: period.start, periodEnd: period.end }
        }
        const charge = yield* charging.begin(row, billing, cardToken, `Assinatura: ${row.productTitle}`, {
          _tag: "pay_now"
        })
        return { charge, row }
      }))
      const billing = yield* paidOrRefused(yield* charging.complete(begun.charge), "pay_now")
      return { billing: billingView(billing), subscription: yield* tx(reread(begun.row)) }
    })

    // ---------------------------------------------------------------- team

    const teamRow = (member: Member, id: string) =>
      Effect.gen(function*() {
        const row = yield* anyOf(member, id)
        const contact = Option.getOrUndefined(yield* repo.contact(row.communityId, row.profileId))
        return { ...row, fullName: contact?.fullName ?? "", email: contact?.email ?? "" } as TeamRow
      })

    const teamViewOf = (member: Member, id: string) =>
      Effect.gen(function*() {
        const row = yield* teamRow(member, id)
        return teamView(row, yield* repo.addOns(row.communityId, [row.id]))
      })

    const teamList = traced("Subscriptions.teamList")(function*(member: Member, input: PageInput & ListFilters) {
      yield* requireRole(member, teamReaders)
      const result = yield* pageOf(member.communityId, input, input)
      const addOns = yield* repo.addOns(member.communityId, result.items.map((row) => row.id))
      return { items: result.items.map((row) => teamView(row, addOns)), pagination: result.pagination }
    })

    const teamDetail = traced("Subscriptions.teamDetail")(function*(member: Member, id: string) {
      yield* requireRole(member, teamReaders)
      return yield* teamViewOf(member, id)
    })

    const teamBillings = traced("Subscriptions.teamBillings")(
      function*(member: Member, id: string, input: PageInput) {
        yield* requireRole(member, teamReaders)
        return yield* billingsOf(yield* anyOf(member, id), input)
      }
    )

    /** The CSV export, streamed page by page (keyset), outside any request transaction. */
    const exportCsv = traced("Subscriptions.exportCsv")(function*(member: Member, filters: ListFilters) {
      yield* requireRole(member, teamReaders)
      const pages = Stream.paginateEffect(
        undefined as string | undefined,
        (after) =>
          outsideTransaction(repo.list(member.communityId, filters, after, EXPORT_PAGE)).pipe(
            Effect.map((rows) =>
              [
                rows.map(subscriptionLine).join(""),
                rows.length === EXPORT_PAGE ? Option.some(rows[rows.length - 1]!.id) : Option.none()
              ] as const
            )
          )
      )
      return Stream.concat(Stream.make(csvLine(csvHeader)), pages).pipe(
        Stream.filter((chunk) => chunk.length > 0),
        Stream.encodeText
      )
    })

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
          profileId: input.profileId,
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
          yield* repo.insert({
            ...base,
            status: "active",
            currentPeriodStart: startsAt,
            currentPeriodEnd: periodEnd,
            billingAnchor: periodEnd,
            periodIndex: 0,
            startsAt
          })
          const row = Option.getOrThrow(yield* repo.find(member.communityId, id))
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

    /** What a cancel with refund gives back of the last paid period (its unused part, or all of it). */
    const refundOfLastPeriod = (row: SubscriptionRow, kind: "prorated" | "full", at: Date) =>
      Effect.gen(function*() {
        const found = yield* repo.lastPaidPeriodBilling(row.communityId, row.id)
        if (Option.isNone(found)) return Option.none()
        const billing = found.value
        // The ledger also counts refunds made elsewhere (the team's refund of the first purchase).
        const inLedger = yield* ledger.refundable(row.communityId, billing.id)
        const left = Math.min(billing.amount - billing.refundedAmount, Option.getOrElse(inLedger, () => Infinity))
        const wanted = kind === "full"
          ? left
          : Math.min(left, unusedPart(billing.amount, billing.periodStart!, billing.periodEnd!, at))
        return wanted > 0 ? Option.some({ billing, amount: wanted }) : Option.none()
      })

    /**
     * The team's cancel. Now with a refund, no network call inside a transaction: the refund is
     * written `pending` (the move checked, the row locked), the gateway is asked (the refund id is
     * its idempotency key), and the answer applied in a new transaction: the refund posted and the
     * subscription ended together, or, refused, nothing changes (400). A crash in between is
     * finished by the refund job (`subscriptions.refund`, 10 minutes later).
     */
    const teamCancel = traced("Subscriptions.teamCancel")(
      function*(member: Member, id: string, input: TeamCancelInput) {
        yield* requireRole(member, teamActors)
        const refund = input.refund ?? "none"
        if (input.when === "period_end" && refund !== "none") {
          return yield* Effect.fail(invalidField("refund", M.refundOnlyNow))
        }
        const first = yield* tx(Effect.gen(function*() {
          const row = yield* anyOf(member, id, true)
          if (input.when === "period_end") {
            yield* cancelRowAtEnd(row)
            return { done: { refunded: 0, subscription: yield* teamViewOf(member, id) } }
          }
          yield* moveCheck(row, "cancel_now")
          const at = yield* now
          const wanted = refund === "none" ? Option.none() : yield* refundOfLastPeriod(row, refund, at)
          if (Option.isNone(wanted)) {
            yield* life.end(row, at)
            return { done: { refunded: 0, subscription: yield* teamViewOf(member, id) } }
          }
          const refundId = yield* charging.reserveRefund(row, wanted.value.billing, {
            amount: wanted.value.amount,
            reason: `team cancel (${refund})`,
            endsSubscription: true
          }, at.getTime() + CHARGE_RECONCILE_AFTER_MS)
          return { refundId, amount: wanted.value.amount }
        }))
        if ("done" in first) return first.done
        const status = yield* charging.completeRefund(member.communityId, first.refundId)
        if (status === "failed") return yield* Effect.fail(badRequest(M.declined))
        return { refunded: first.amount, subscription: yield* tx(teamViewOf(member, id)) }
      }
    )

    /** The team's cancel at period end: only an active subscription not already marked. */
    const cancelRowAtEnd = (row: SubscriptionRow) => {
      const phase = phaseOf(row)
      if (phase === "active") return Effect.asVoid(cancelRow(row))
      const message = M.moveRefused(phase, "cancel (period_end)", allowedMoves(phase))
      return Effect.fail(conflict(message, [fieldError("status", message)]))
    }

    const teamReactivate = traced("Subscriptions.teamReactivate")(function*(member: Member, id: string) {
      yield* requireRole(member, teamActors)
      return yield* tx(Effect.gen(function*() {
        yield* reactivateRow(yield* anyOf(member, id, true))
        return yield* teamViewOf(member, id)
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

    return {
      keyed,
      list,
      mine,
      detail,
      billings,
      cancel,
      reactivate,
      pause,
      resume,
      changeTierQuote,
      changeTier,
      scheduledChange,
      removeScheduledChange,
      addOnQuote,
      addOn,
      payNow,
      teamList,
      teamDetail,
      teamBillings,
      exportCsv,
      manual,
      teamCancel,
      teamReactivate,
      setDiscount,
      removeDiscount,
      teamAddOn,
      removeAddOn,
      extend,
      sendPaymentLink
    }
  }),
  dependencies: [SubscriptionsRepo.Default, SubscriptionLifecycle.Default, SubscriptionCharging.Default]
}) {}
