import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"
import { CommunityNotices } from "../../communities/Memberships"
import { orNotFound } from "../../domain/found"
import { formatMoney } from "../../domain/Money"
import { LedgerPosting } from "../../money/ledger/LedgerPosting"
import { Ids } from "../../platform/Ids"
import { Mailer } from "../../platform/Mailer"
import { transactional } from "../../sql/transaction"
import { Entitlements } from "../../structure/Entitlements"
import { SellableProducts } from "../catalogue/SellableProducts"
import { Stock } from "../catalogue/Stock"
import { CouponRedemption } from "../coupons/CouponRedemption"
import { type OpenedByCheckout, Subscribing } from "../subscriptions/Subscribing"
import { checkoutMessages as M } from "./messages"
import { periodEnd } from "./period"
import { type ChargeRow, CheckoutRepo } from "./Repo"

/** Pending charges expired per run of `expireDue`. */
const EXPIRY_BATCH = 100

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
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const chargeRow = (communityId: string, chargeId: string, lock = false) =>
      orNotFound(M.chargeNotFound)(repo.charge(communityId, chargeId, lock))

    /**
     * A plan checkout opens its subscription `incomplete` (subscriptions own it, `Subscribing`);
     * paying the first charge activates it. `cardToken`: the card renewals are charged to.
     */
    const openSubscription = (
      communityId: string,
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

    /** The charge is paid: what it bought takes effect. Does nothing for a charge no longer pending. */
    const settle = (communityId: string, chargeId: string) =>
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
        if (charge.subscriptionGroupId === null) {
          yield* repo.insertPurchase({
            id: yield* ids.next,
            communityId,
            profileId: charge.profileId,
            productId: charge.productId,
            chargeId
          })
          yield* entitlements.grant([yield* entitlement("product", charge.productId, null)])
        } else {
          const end = Option.getOrElse(
            yield* subscribing.start({
              communityId,
              chargeId,
              paidAt,
              amounts: charge.amounts,
              listAmount: charge.listAmount,
              discount: charge.discount
            }),
            () => periodEnd(product.billingInterval, paidAt)
          )
          yield* entitlements.grant(
            yield* Effect.all([
              entitlement("plan", charge.subscriptionGroupId, end),
              entitlement("product", charge.productId, end),
              ...charge.addOnProductIds.map((addOnId) => entitlement("product", addOnId, end))
            ])
          )
        }
        if (charge.couponId !== null) yield* coupons.confirm(communityId, chargeId)
        yield* ledger.recordSale({
          communityId,
          chargeId,
          amounts: charge.amounts,
          paidAt,
          description: `Venda: ${product.title}`
        })
        yield* saleMails(charge, product.title)
      })

    /** The charge was never paid: stock and coupon go back, an incomplete subscription ends. */
    const expire = (charge: ChargeRow) =>
      Effect.gen(function*() {
        yield* repo.setStatus(charge.id, "expired", null)
        if (charge.stockReserved) yield* stock.giveBack(charge.communityId, charge.productId)
        if (charge.couponId !== null) yield* coupons.release(charge.communityId, charge.id)
        yield* subscribing.expire(charge.id)
      })

    /** Expires the pending charges whose time ran out (a job calls it; several processes may). */
    const expireDue = Effect.fn("Settlement.expireDue")(function*() {
      const at = yield* now
      return yield* transactional(sql)(Effect.gen(function*() {
        const due = yield* repo.expiredPending(at, EXPIRY_BATCH)
        yield* Effect.forEach(due, expire, { discard: true })
        return due.length
      }))
    })

    return { chargeRow, openSubscription, outcomeOf, settle, expire, expireDue }
  }),
  dependencies: [CheckoutRepo.Default]
}) {}
