import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { fieldError, gone, invalidField } from "../../domain/AppError"
import { type Member } from "../../domain/Caller"
import { Ids } from "../../platform/Ids"
import { traced } from "../../platform/traced"
import { transactional } from "../../sql/transaction"
import { SubscriptionCharging } from "./Charging"
import { sha256, SubscriptionLifecycle } from "./Lifecycle"
import { subscriptionMessages as M } from "./messages"
import { moveCheck, paidOrRefused } from "./moves"
import { SubscriptionReading } from "./Reading"
import { type SubscriptionRow, SubscriptionsRepo } from "./Repo"
import { billingView } from "./view"

export interface PayNowInput {
  readonly paymentMethod: "CREDIT_CARD" | "PIX" | "BOLETO"
  readonly cardToken?: string | undefined
  readonly token?: string | undefined
}

/** Paying an open charge of a subscription now, by the member (from a payment link or not). */
export class SubscriptionPayingNow extends Effect.Service<SubscriptionPayingNow>()("@roda/core/SubscriptionPayingNow", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* SubscriptionsRepo
    const life = yield* SubscriptionLifecycle
    const charging = yield* SubscriptionCharging
    const reading = yield* SubscriptionReading
    const ids = yield* Ids
    const now = life.now
    const tx = transactional(sql)
    const { own, reread, noChargeInFlight } = reading

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

    return { payNow }
  }),
  dependencies: [
    SubscriptionsRepo.Default,
    SubscriptionLifecycle.Default,
    SubscriptionCharging.Default,
    SubscriptionReading.Default
  ]
}) {}
