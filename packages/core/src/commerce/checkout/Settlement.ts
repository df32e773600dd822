import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import { CommunityNotices } from "../../communities/Memberships"
import { orNotFound } from "../../domain/found"
import { CommunityId } from "../../domain/Ids"
import { formatMoney } from "../../domain/Money"
import { LedgerPosting } from "../../money/ledger/LedgerPosting"
import { Ids } from "../../platform/Ids"
import { Jobs } from "../../platform/Jobs"
import { Mailer } from "../../platform/Mailer"
import { type ChargeOutcome, type ChargeState, PaymentGateway } from "../../platform/PaymentGateway"
import { traced } from "../../platform/traced"
import { transactional } from "../../sql/transaction"
import { Entitlements } from "../../structure/Entitlements"
import { WebhookEvents } from "../../webhooks/WebhookEvents"
import { SellableProducts } from "../catalogue/SellableProducts"
import { Stock } from "../catalogue/Stock"
import { CouponRedemption } from "../coupons/CouponRedemption"
import { type OpenedByCheckout, Subscribing } from "../subscriptions/Subscribing"
import { ManageRepo, type SaleRow } from "./ManageRepo"
import { checkoutMessages as M } from "./messages"
import { periodEnd } from "./period"
import { RefundPosting } from "./RefundPosting"
import { type ChargeRow, CheckoutRepo } from "./Repo"
import { saleView } from "./saleView"

/** Pending charges expired per run of `expireDue`. */
const EXPIRY_BATCH = 100

/** Job kind: a charge whose gateway answer was never recorded is asked of the gateway. */
export const RECONCILE_JOB = "checkout.reconcile"

/**
 * How long after its reservation a charge is reconciled when its gateway answer was not recorded:
 * well past the longest gateway call (the Stripe SDK gives up after 80 s), so a request still
 * waiting for the gateway is never overtaken.
 */
export const RECONCILE_AFTER_MS = 10 * 60 * 1000

const ReconcileJob = Schema.Struct({ communityId: CommunityId, chargeId: Schema.String })

/** A pending charge the gateway knows nothing of gets this long before the expiry job asks again. */
const PENDING_FALLBACK_MS = 60 * 60 * 1000

/**
 * What happens to a charge after checkout created it, always inside the caller's transaction:
 * `settle` (paid: purchase or subscription period, entitlements, coupon use, ledger, e-mails) and
 * `expire` (stock and coupon returned, an incomplete subscription ends).
 */
export class Settlement extends Effect.Service<Settlement>()("@roda/core/Settlement", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* CheckoutRepo
    const catalogue = yield* SellableProducts
    const notices = yield* CommunityNotices
    const stock = yield* Stock
    const entitlements = yield* Entitlements
    const coupons = yield* CouponRedemption
    const ledger = yield* LedgerPosting
    const mailer = yield* Mailer
    const ids = yield* Ids
    const subscribing = yield* Subscribing
    const gateway = yield* PaymentGateway
    const jobs = yield* Jobs
    const posting = yield* RefundPosting
    const sales = yield* ManageRepo
    const webhooks = yield* WebhookEvents
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const chargeRow = (communityId: CommunityId, chargeId: string, lock = false) =>
      orNotFound(M.chargeNotFound)(repo.charge(communityId, chargeId, lock))

    /**
     * A plan checkout opens its subscription `incomplete` (subscriptions own it, `Subscribing`);
     * paying the first charge activates it. `cardToken`: the card renewals are charged to.
     */
    const openSubscription = (
      communityId: CommunityId,
      chargeId: string,
      cardToken?: string | undefined,
      coupon?: OpenedByCheckout["coupon"]
    ) =>
      Effect.gen(function*() {
        const charge = yield* chargeRow(communityId, chargeId)
        yield* subscribing.open({
          communityId: charge.communityId,
          chargeId,
          profileId: charge.profileId,
          subscriptionGroupId: charge.subscriptionGroupId!,
          productId: charge.productId,
          addOnProductIds: charge.addOnProductIds,
          paymentMethod: charge.paymentMethod,
          cardToken: cardToken ?? null,
          coupon
        })
      })

    const outcomeOf = (chargeId: string) =>
      Effect.map(
        Effect.all([repo.purchaseOfCharge(chargeId), subscribing.ofCharge(chargeId)]),
        ([purchase, subscription]) => ({
          purchaseId: Option.getOrNull(Option.map(purchase, (row) => row.id)),
          subscriptionId: Option.getOrNull(subscription)
        })
      )

    const saleMails = (charge: ChargeRow, title: string) =>
      Effect.gen(function*() {
        const salesEmail = Option.getOrUndefined(yield* notices.salesEmail(charge.communityId))
        const buyer = Option.getOrUndefined(yield* repo.buyerEmail(charge.profileId))
        const total = formatMoney(charge.total, charge.currency)
        if (salesEmail) {
          yield* mailer.send({
            to: salesEmail,
            communityId: charge.communityId,
            kind: "sale",
            subject: `Nova venda: ${title} / New sale: ${title}`,
            text:
              `Venda de ${title} para ${buyer?.fullName ?? ""} (${
                buyer?.email ?? ""
              }): ${total}, ${charge.paymentMethod}.\n` +
              `Sale of ${title} to ${buyer?.fullName ?? ""}: ${total}, ${charge.paymentMethod}.`
          })
        }
        if (buyer !== undefined) {
          yield* mailer.send({
            to: buyer.email,
            communityId: charge.communityId,
            kind: "receipt",
            subject: `Recibo: ${title} / Receipt: ${title}`,
            text: `Pagamento de ${total} confirmado (${title}, cobrança ${charge.id}).\n` +
              `Payment of ${total} confirmed (${title}, charge ${charge.id}).`
          })
        }
      })

    /**
     * The charge is paid: what it bought takes effect, and a ONE_TIME sale is told as `order.paid` (a
     * plan's first charge is its subscription's). Does nothing for a charge no longer pending.
     */
    const settle = (communityId: CommunityId, chargeId: string) =>
      Effect.gen(function*() {
        const charge = yield* chargeRow(communityId, chargeId, true)
        if (charge.status !== "pending") return
        const paidAt = yield* now
        yield* repo.setStatus(charge.id, "paid", paidAt)
        const product = Option.getOrThrow(yield* catalogue.product(communityId, charge.productId, true))
        const entitlement = (sourceType: "plan" | "product", sourceId: string, validUntil: Date | null) =>
          Effect.map(
            ids.next,
            (id) => ({ id, communityId, profileId: charge.profileId, sourceType, sourceId, validUntil })
          )
        let sold = true
        /** Whether the coupon's use counts: only when something was sold on it (see `FirstChargeOutcome`). */
        let couponUsed = true
        /** The ONE_TIME sale as its insert answered it: nothing below changes what `order.paid` says of it. */
        let sale: Option.Option<SaleRow> | undefined
        if (charge.subscriptionGroupId === null) {
          sale = yield* sales.insertSale({
            id: yield* ids.next,
            communityId,
            profileId: charge.profileId,
            productId: charge.productId,
            chargeId
          })
          yield* entitlements.grant([yield* entitlement("product", charge.productId, null)])
        } else {
          const started = yield* subscribing.start({
            communityId,
            chargeId,
            paidAt,
            amounts: charge.amounts,
            listAmount: charge.listAmount,
            discount: charge.discount
          })
          const outcome = Option.getOrUndefined(started)
          if (outcome?._tag === "RefundedAtOnce") {
            // Paid after its subscription moved on: refunded at once (the buyer told so), nothing sold.
            sold = false
            couponUsed = outcome.keepsCoupon
          } else {
            const end = outcome === undefined ? periodEnd(product.billingInterval, paidAt) : outcome.end
            yield* entitlements.grant(
              yield* Effect.all([
                entitlement("plan", charge.subscriptionGroupId, end),
                entitlement("product", charge.productId, end),
                ...charge.addOnProductIds.map((addOnId) => entitlement("product", addOnId, end))
              ])
            )
          }
        }
        if (charge.couponId !== null) {
          // a use given back with the money is released (once: only a `reserved` use moves)
          yield* couponUsed ? coupons.confirm(communityId, chargeId) : coupons.release(communityId, chargeId)
        }
        yield* ledger.recordSale({
          communityId,
          chargeId,
          amounts: charge.amounts,
          paidAt,
          description: `Venda: ${product.title}`,
          settledByGateway: charge.settledTo !== null
        })
        if (sold) yield* saleMails(charge, product.title)
        if (sale !== undefined) {
          yield* Effect.withSpan(
            webhooks.emit(communityId, "order.paid", saleView(Option.getOrThrow(sale))),
            "WebhookEvents.order"
          )
        }
      })

    /** The charge was never paid: stock and coupon go back, an incomplete subscription ends. */
    const expire = (charge: ChargeRow) =>
      Effect.gen(function*() {
        yield* repo.setStatus(charge.id, "expired", null)
        if (charge.stockReserved) yield* stock.giveBack(charge.communityId, charge.productId)
        if (charge.couponId !== null) yield* coupons.release(charge.communityId, charge.id)
        yield* subscribing.expire(charge.id)
      })

    /** The gateway refused the charge: final `failed`, stock and coupon returned, an opened subscription ends. */
    const fail = (charge: ChargeRow, reason: string) =>
      Effect.gen(function*() {
        yield* repo.markFailed(charge.id, reason, yield* now)
        if (charge.stockReserved) yield* stock.giveBack(charge.communityId, charge.productId)
        if (charge.couponId !== null) yield* coupons.release(charge.communityId, charge.id)
        yield* subscribing.expire(charge.id)
      })

    /**
     * Applies what the gateway said of a charge (its answer to checkout, or its state when asked
     * later), in the caller's transaction, once: a charge no longer pending is left alone (a webhook
     * or the reconciliation got there first). The charge row afterwards.
     */
    const applyOutcome = (communityId: CommunityId, chargeId: string, outcome: ChargeOutcome | ChargeState) =>
      Effect.gen(function*() {
        const charge = yield* chargeRow(communityId, chargeId, true)
        if (charge.status !== "pending") return charge
        const at = yield* now
        switch (outcome._tag) {
          case "Paid": {
            const submission = { gatewayChargeId: outcome.gatewayChargeId, paymentCode: null, expiresAt: null }
            yield* repo.recordSubmission(
              charge.id,
              { ...submission, nextAction: null, settledTo: outcome.settledTo },
              at
            )
            yield* settle(communityId, chargeId)
            break
          }
          case "Pending": {
            yield* repo.recordSubmission(charge.id, {
              gatewayChargeId: outcome.gatewayChargeId,
              settledTo: outcome.settledTo,
              paymentCode: outcome.paymentCode ?? null,
              expiresAt: outcome.expiresAt ?? new Date(at.getTime() + PENDING_FALLBACK_MS),
              nextAction: outcome.action ?? null
            }, at)
            break
          }
          case "Declined":
          case "Failed":
            yield* fail(charge, outcome.reason)
            break
          case "InvalidCard":
            yield* fail(charge, "invalid_card")
            break
          case "Unknown":
            yield* fail(charge, "not_received_by_gateway")
        }
        return yield* chargeRow(communityId, chargeId)
      })

    /** A refund or lost dispute the gateway reported of a paid charge (see `RefundPosting.fromGateway`). */
    const gatewayRefund = (
      communityId: CommunityId,
      chargeId: string,
      input: { readonly kind: "refund" | "chargeback"; readonly amount: number; readonly reference: string }
    ) =>
      Effect.gen(function*() {
        const charge = yield* chargeRow(communityId, chargeId, true)
        if (charge.status !== "paid") return 0
        return yield* posting.fromGateway(charge, input, yield* now)
      })

    /** Schedules the reconciliation of a charge just reserved (in the reserving transaction, so it is durable). */
    const scheduleReconcile = (communityId: CommunityId, chargeId: string) =>
      Effect.gen(function*() {
        const at = yield* now
        yield* jobs.enqueue({
          kind: RECONCILE_JOB,
          key: chargeId,
          payload: { communityId, chargeId },
          runAt: at.getTime() + RECONCILE_AFTER_MS
        })
      })

    /**
     * A charge whose gateway answer was never recorded (the process stopped between reserving and
     * settling): the gateway is asked (outside any transaction) and its answer applied once.
     */
    const reconcile = traced("Settlement.reconcile")(function*(communityId: CommunityId, chargeId: string) {
      const charge = yield* chargeRow(communityId, chargeId)
      if (charge.status !== "pending" || charge.submittedAt !== null) return charge.status
      const state = yield* gateway.lookup({ chargeId, gatewayChargeId: charge.gatewayChargeId })
      return (yield* transactional(sql)(applyOutcome(communityId, chargeId, state))).status
    })

    yield* jobs.handle(RECONCILE_JOB, (payload) =>
      Effect.flatMap(
        Schema.decodeUnknown(ReconcileJob)(payload).pipe(Effect.orDie),
        (job) => Effect.asVoid(reconcile(job.communityId, job.chargeId))
      ))

    /**
     * Expires the pending charges whose time ran out (a job calls it; several processes may). The
     * gateway is asked first, outside any transaction: a charge paid at the last moment is settled,
     * one still open there is canceled before it is expired here.
     */
    const expireDue = traced("Settlement.expireDue")(function*() {
      const at = yield* now
      const due = yield* repo.expiredPending(at, EXPIRY_BATCH)
      let expired = 0
      for (const charge of due) {
        const reference = { chargeId: charge.id, gatewayChargeId: charge.gatewayChargeId }
        const state = yield* gateway.cancel(reference)
        if (state._tag === "Pending") continue // the gateway would not let it go yet: next run
        const after = yield* transactional(sql)(Effect.gen(function*() {
          const locked = yield* chargeRow(charge.communityId, charge.id, true)
          if (locked.status !== "pending") return locked.status
          if (state._tag === "Paid") return (yield* applyOutcome(charge.communityId, charge.id, state)).status
          yield* expire(locked)
          return "expired" as const
        }))
        if (after === "expired") expired++
      }
      return expired
    })

    return {
      chargeRow,
      openSubscription,
      outcomeOf,
      settle,
      expire,
      fail,
      applyOutcome,
      gatewayRefund,
      scheduleReconcile,
      reconcile,
      expireDue
    }
  }),
  dependencies: [CheckoutRepo.Default, ManageRepo.Default, RefundPosting.Default]
}) {}
