import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema, Stream } from "effect"
import { AppError, badRequest, conflict, fieldError, gone, invalidField, notFound } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { Uuid } from "../../domain/Ids"
import { formatMoney, roundHalfEven } from "../../domain/Money"
import { decodeCursor, DEFAULT_LIMIT, toPage } from "../../domain/Pagination"
import { requireRole } from "../../domain/Policy"
import { LedgerPosting } from "../../money/ledger/LedgerPosting"
import { Ids } from "../../platform/Ids"
import { Jobs } from "../../platform/Jobs"
import { PaymentGateway } from "../../platform/PaymentGateway"
import { outsideTransaction, transactional } from "../../sql/transaction"
import { addOnProration, monthsOf, tierChange, unusedPart } from "./billing"
import { sha256, SubscriptionLifecycle } from "./Lifecycle"
import { subscriptionMessages as M } from "./messages"
import { allowedMoves, checkMove, type Move, phaseOf, type SubscriptionStatus, teamActors, teamReaders } from "./Policy"
import { type ListFilters, type SubscriptionRow, SubscriptionsRepo, type TeamRow } from "./Repo"
import { JobKind, schedulePeriodEnd } from "./schedule"
import { billingView, csvHeader, csvLine, subscriptionView, teamView } from "./view"

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

/** A refusal decided after work that must be kept (a declined charge's billing): committed, then failed. */
class Refused {
  constructor(readonly error: AppError) {}
}

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
    const ids = yield* Ids
    const jobs = yield* Jobs
    const gateway = yield* PaymentGateway
    const ledger = yield* LedgerPosting
    const now = life.now
    const tx = transactional(sql)
    const txKeeping = <A, E, R>(effect: Effect.Effect<A | Refused, E, R>) =>
      Effect.flatMap(
        tx(effect),
        (value) => value instanceof Refused ? Effect.fail(value.error) : Effect.succeed(value as A)
      )

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

    const list = Effect.fn("Subscriptions.list")(
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
    const mine = Effect.fn("Subscriptions.mine")(function*(member: Member) {
      const rows = yield* repo.list(member.communityId, { profileId: member.actingProfileId }, undefined, 100)
      return yield* views(rows.filter((row) => row.status !== "canceled" && row.status !== "incomplete_expired"))
    })

    const detail = Effect.fn("Subscriptions.detail")(function*(member: Member, id: string) {
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

    const billings = Effect.fn("Subscriptions.billings")(function*(member: Member, id: string, input: PageInput) {
      return yield* billingsOf(yield* own(member, id), input)
    })

    /** Active: ends at the period end (flag). Past due, unpaid, paused, incomplete: ends now. */
    const cancelRow = (row: SubscriptionRow) =>
      Effect.gen(function*() {
        yield* moveCheck(row, "cancel")
        const at = yield* now
        if (row.status === "active") {
          yield* repo.update(row.id, { cancelAtPeriodEnd: true, scheduledProductId: null }, at)
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

    const cancel = Effect.fn("Subscriptions.cancel")(function*(member: Member, id: string) {
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

    const reactivate = Effect.fn("Subscriptions.reactivate")(function*(member: Member, id: string) {
      return yield* tx(Effect.flatMap(own(member, id, true), reactivateRow))
    })

    const pause = Effect.fn("Subscriptions.pause")(
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
            scheduledProductId: null
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

    const resume = Effect.fn("Subscriptions.resume")(function*(member: Member, id: string) {
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

    const changeTierQuote = Effect.fn("Subscriptions.changeTierQuote")(
      function*(member: Member, id: string, input: ChangeTierInput) {
        const row = yield* own(member, id)
        return quoteView(row, yield* planChange(row, input))
      }
    )

    const declined = (result: { readonly _tag: string }) =>
      result._tag === "InvalidCard"
        ? invalidField("cardToken", M.cardTokenInvalid)
        : new AppError({ status: 402, text: M.declined })

    const changeTier = Effect.fn("Subscriptions.changeTier")(
      function*(member: Member, id: string, input: ChangeTierInput) {
        return yield* txKeeping(Effect.gen(function*() {
          const row = yield* own(member, id, true)
          const plan = yield* planChange(row, input)
          const at = yield* now
          if (plan.change.when === "period_end") {
            yield* repo.update(row.id, { scheduledProductId: plan.target.id }, at)
            return { scheduled: true, quote: quoteView(row, plan), subscription: yield* reread(row) }
          }
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
          const result = yield* life.charge(row, billing, row.cardToken, `Mudança de plano: ${plan.target.title}`)
          if (result._tag !== "Paid") return new Refused(declined(result))
          const newInterval = plan.change.periodStart.getTime() !== row.currentPeriodStart!.getTime()
          yield* repo.update(row.id, {
            productId: plan.target.id,
            price: plan.target.price,
            scheduledProductId: null,
            ...(newInterval
              ? {
                currentPeriodStart: plan.change.periodStart,
                currentPeriodEnd: plan.change.periodEnd,
                billingAnchor: plan.change.periodStart,
                periodIndex: 1
              }
              : {})
          }, at)
          yield* life.endProductAccess(row, row.productId, at)
          const updated = Option.getOrThrow(yield* repo.find(row.communityId, row.id))
          yield* life.accessUntil(updated, plan.change.periodEnd)
          if (newInterval) {
            yield* schedulePeriodEnd(jobs, {
              communityId: row.communityId,
              id: row.id,
              currentPeriodEnd: plan.change.periodEnd,
              months: monthsOf(plan.target.billingInterval),
              now: at.getTime()
            })
          }
          return { scheduled: false, quote: quoteView(row, plan), subscription: yield* viewOf(updated) }
        }))
      }
    )

    const scheduledChange = Effect.fn("Subscriptions.scheduledChange")(function*(member: Member, id: string) {
      const row = yield* own(member, id)
      return row.scheduledProductId === null
        ? null
        : { productId: row.scheduledProductId, effectiveAt: row.currentPeriodEnd?.toISOString() ?? null }
    })

    const removeScheduledChange = Effect.fn("Subscriptions.removeScheduledChange")(
      function*(member: Member, id: string) {
        return yield* tx(Effect.gen(function*() {
          const row = yield* own(member, id, true)
          if (row.scheduledProductId === null) return yield* Effect.fail(notFound(M.noScheduledChange))
          yield* repo.update(row.id, { scheduledProductId: null }, yield* now)
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
            new AppError({
              status: 409,
              text: M.addOnTaken,
              errors: [fieldError("productId", M.addOnTaken)]
            })
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

    const addOnQuote = Effect.fn("Subscriptions.addOnQuote")(
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

    const addOn = Effect.fn("Subscriptions.addOn")(
      function*(member: Member, id: string, input: { readonly productId: string }) {
        return yield* txKeeping(Effect.gen(function*() {
          const row = yield* own(member, id, true)
          const plan = yield* addOnPlan(row, input.productId)
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
          const result = yield* life.charge(row, billing, row.cardToken, `Add-on: ${plan.target.title}`)
          if (result._tag !== "Paid") return new Refused(declined(result))
          yield* attachAddOn(row, plan.target.id, plan.target.price, plan.at)
          return { quote: addOnQuoteView(row, plan), subscription: yield* reread(row) }
        }))
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
    const payNow = Effect.fn("Subscriptions.payNow")(function*(member: Member, id: string, input: PayNowInput) {
      if (input.paymentMethod !== "CREDIT_CARD") return yield* Effect.fail(invalidField("paymentMethod", M.cardOnly))
      if (input.cardToken === undefined) return yield* Effect.fail(invalidField("cardToken", M.cardTokenRequired))
      const cardToken = input.cardToken
      return yield* txKeeping(Effect.gen(function*() {
        const row = yield* own(member, id, true)
        yield* moveCheck(row, "pay_now")
        const at = yield* now
        if (input.token !== undefined) yield* useLink(row, input.token, at)
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
        const result = yield* life.charge(row, billing, cardToken, `Assinatura: ${row.productTitle}`)
        if (result._tag !== "Paid") return new Refused(declined(result))
        yield* life.periodPaid(row, result.billing, period, {
          cardToken,
          paymentMethod: "CREDIT_CARD",
          ...(row.kind === "charge" ? { kind: "paid" as const } : {})
        })
        return { billing: billingView(result.billing), subscription: yield* reread(row) }
      }))
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

    const teamList = Effect.fn("Subscriptions.teamList")(function*(member: Member, input: PageInput & ListFilters) {
      yield* requireRole(member, teamReaders)
      const result = yield* pageOf(member.communityId, input, input)
      const addOns = yield* repo.addOns(member.communityId, result.items.map((row) => row.id))
      return { items: result.items.map((row) => teamView(row, addOns)), pagination: result.pagination }
    })

    const teamDetail = Effect.fn("Subscriptions.teamDetail")(function*(member: Member, id: string) {
      yield* requireRole(member, teamReaders)
      return yield* teamViewOf(member, id)
    })

    const teamBillings = Effect.fn("Subscriptions.teamBillings")(
      function*(member: Member, id: string, input: PageInput) {
        yield* requireRole(member, teamReaders)
        return yield* billingsOf(yield* anyOf(member, id), input)
      }
    )

    /** The CSV export, streamed page by page (keyset), outside any request transaction. */
    const exportCsv = Effect.fn("Subscriptions.exportCsv")(function*(member: Member, filters: ListFilters) {
      yield* requireRole(member, teamReaders)
      const pages = Stream.paginateEffect(
        undefined as string | undefined,
        (after) =>
          outsideTransaction(repo.list(member.communityId, filters, after, EXPORT_PAGE)).pipe(
            Effect.map((rows) =>
              [
                rows.map(csvLine).join(""),
                rows.length === EXPORT_PAGE ? Option.some(rows[rows.length - 1]!.id) : Option.none()
              ] as const
            )
          )
      )
      return Stream.concat(Stream.make(csvHeader.join(",") + "\r\n"), pages).pipe(
        Stream.filter((chunk) => chunk.length > 0),
        Stream.encodeText
      )
    })

    const manual = Effect.fn("Subscriptions.manual")(function*(member: Member, input: ManualInput) {
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

    /** Gives back (part of) the last paid period: gateway refund when it has one, then the ledger. */
    const refundLastPeriod = (row: SubscriptionRow, kind: "prorated" | "full", at: Date) =>
      Effect.gen(function*() {
        const found = yield* repo.lastPaidPeriodBilling(row.communityId, row.id)
        if (Option.isNone(found)) return 0
        const billing = found.value
        // The ledger also counts refunds made elsewhere (the team's refund of the first purchase).
        const inLedger = yield* ledger.refundable(row.communityId, billing.id)
        const left = Math.min(billing.amount - billing.refundedAmount, Option.getOrElse(inLedger, () => Infinity))
        const wanted = kind === "full"
          ? left
          : Math.min(left, unusedPart(billing.amount, billing.periodStart!, billing.periodEnd!, at))
        if (wanted <= 0) return 0
        if (gateway.refund !== undefined) {
          const outcome = yield* gateway.refund({
            chargeId: billing.id,
            gatewayChargeId: billing.id,
            amount: wanted,
            currency: billing.currency
          })
          if (outcome._tag === "Refused") return yield* Effect.fail(badRequest(M.declined))
        }
        const fee = Number(roundHalfEven(BigInt(billing.fee) * BigInt(wanted), BigInt(Math.max(1, billing.amount))))
        yield* ledger.recordRefund({
          communityId: row.communityId,
          chargeId: billing.id,
          refundId: yield* ids.next,
          currency: billing.currency,
          amount: wanted,
          fee: Math.min(fee, wanted),
          interest: 0,
          at,
          description: `Reembolso: ${row.productTitle}`
        })
        yield* repo.updateBilling(billing.id, {
          refundedAmount: billing.refundedAmount + wanted,
          ...(billing.refundedAmount + wanted >= billing.amount ? { status: "refunded" as const } : {})
        }, at)
        return wanted
      })

    const teamCancel = Effect.fn("Subscriptions.teamCancel")(
      function*(member: Member, id: string, input: TeamCancelInput) {
        yield* requireRole(member, teamActors)
        const refund = input.refund ?? "none"
        if (input.when === "period_end" && refund !== "none") {
          return yield* Effect.fail(invalidField("refund", M.refundOnlyNow))
        }
        return yield* tx(Effect.gen(function*() {
          const row = yield* anyOf(member, id, true)
          if (input.when === "period_end") {
            yield* cancelRowAtEnd(row)
            return { refunded: 0, subscription: yield* teamViewOf(member, id) }
          }
          yield* moveCheck(row, "cancel_now")
          const at = yield* now
          const refunded = refund === "none" ? 0 : yield* refundLastPeriod(row, refund, at)
          yield* life.end(
            row,
            at,
            refunded > 0 ? ` Reembolso / Refund: ${formatMoney(refunded, row.currency)}.` : ""
          )
          return { refunded, subscription: yield* teamViewOf(member, id) }
        }))
      }
    )

    /** The team's cancel at period end: only an active subscription not already marked. */
    const cancelRowAtEnd = (row: SubscriptionRow) => {
      const phase = phaseOf(row)
      if (phase === "active") return Effect.asVoid(cancelRow(row))
      const message = M.moveRefused(phase, "cancel (period_end)", allowedMoves(phase))
      return Effect.fail(conflict(message, [fieldError("status", message)]))
    }

    const teamReactivate = Effect.fn("Subscriptions.teamReactivate")(function*(member: Member, id: string) {
      yield* requireRole(member, teamActors)
      return yield* tx(Effect.gen(function*() {
        yield* reactivateRow(yield* anyOf(member, id, true))
        return yield* teamViewOf(member, id)
      }))
    })

    const setDiscount = Effect.fn("Subscriptions.setDiscount")(
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

    const removeDiscount = Effect.fn("Subscriptions.removeDiscount")(function*(member: Member, id: string) {
      yield* requireRole(member, teamActors)
      return yield* tx(Effect.gen(function*() {
        const row = yield* anyOf(member, id, true)
        if (row.discountPercent === null) return yield* Effect.fail(notFound(M.noDiscount))
        yield* repo.update(row.id, { discountPercent: null, discountMonthsLeft: null }, yield* now)
        return yield* teamViewOf(member, id)
      }))
    })

    const teamAddOn = Effect.fn("Subscriptions.teamAddOn")(
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

    const removeAddOn = Effect.fn("Subscriptions.removeAddOn")(
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

    const extend = Effect.fn("Subscriptions.extend")(
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

    const sendPaymentLink = Effect.fn("Subscriptions.sendPaymentLink")(function*(member: Member, id: string) {
      yield* requireRole(member, teamActors)
      return yield* tx(Effect.gen(function*() {
        const row = yield* anyOf(member, id, true)
        yield* moveCheck(row, "payment_link")
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
  dependencies: [SubscriptionsRepo.Default, SubscriptionLifecycle.Default]
}) {}
