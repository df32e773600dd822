import { Effect, Option } from "effect"
import { badRequest, conflict, fieldError, forbidden, invalidField } from "../../domain/AppError"
import type { Visitor } from "../../domain/Caller"
import { orNotFound } from "../../domain/found"
import type { CommunityId } from "../../domain/Ids"
import { Messages } from "../../domain/Messages"
import { type PaymentMethod, paymentMethods as allPaymentMethods } from "../../domain/Money"
import { SellingStatus } from "../../money/accounts/SellingStatus"
import { Pricing } from "../../money/ledger/Pricing"
import { PaymentGateway } from "../../platform/PaymentGateway"
import { traced } from "../../platform/traced"
import { type SellableProduct, SellableProducts } from "../catalogue/SellableProducts"
import { CouponRedemption } from "../coupons/CouponRedemption"
import { checkoutMessages as M } from "./messages"

export const soldOut = conflict(M.soldOut, [fieldError("productId", M.soldOut)])

/**
 * The largest total of one charge, in minor units (option or product − coupon + add-ons + interest):
 * 10^10 (R$ 100 million). Far below what bigint columns and a JS number hold exactly, so ledger
 * balances of many such sales stay exact too.
 */
export const MAX_CHARGE_TOTAL = 10_000_000_000

export interface QuoteInput {
  readonly productId: string
  readonly subscriptionGroupId?: string | undefined
  readonly addOnProductIds?: ReadonlyArray<string> | undefined
  readonly paymentMethod: PaymentMethod
  readonly installments?: number | undefined
  readonly couponCode?: string | undefined
}

/**
 * What a sale would cost before it is made: whether the community sells (`requireSelling`), the
 * checkout's configuration, and the price of a product or a plan's option (`price`, behind both the
 * quote and the checkout itself).
 */
export class CheckoutQuotes extends Effect.Service<CheckoutQuotes>()("@roda/core/CheckoutQuotes", {
  effect: Effect.gen(function*() {
    const catalogue = yield* SellableProducts
    const selling = yield* SellingStatus
    const pricing = yield* Pricing
    const coupons = yield* CouponRedemption
    const gateway = yield* PaymentGateway

    /** Spec §7: approved business information (403), then approved payout settings (400). */
    const requireSelling = (communityId: CommunityId) =>
      Effect.gen(function*() {
        const business = yield* selling.approvedBusiness(communityId)
        if (Option.isNone(business)) return yield* Effect.fail(forbidden(M.checkoutNeedsApprovedBusiness))
        if (!(yield* selling.payoutsApproved(communityId))) {
          return yield* Effect.fail(badRequest(Messages.paymentNotConfigured))
        }
        return business.value
      })

    const config = traced("Checkout.config")(function*(visitor: Visitor) {
      const business = yield* requireSelling(visitor.communityId)
      const gatewayMax = gateway.maxInstallments(business.country)
      const paymentMethods = yield* Effect.forEach(
        allPaymentMethods.filter((method) => gateway.paymentMethods.includes(method)),
        (method) =>
          Effect.map(pricing.installmentTerms(visitor.communityId, method), (terms) => ({
            method,
            ...terms,
            maxInstallments: Math.min(terms.maxInstallments, gatewayMax)
          }))
      )
      return {
        currency: business.currency,
        country: business.country,
        paymentMethods,
        gateway: gateway.name,
        sandbox: gateway.isSandbox
      }
    })

    /** The plan the product is sold under, and the add-ons asked for (all checked against the plan). */
    const planOf = (communityId: CommunityId, product: SellableProduct, input: QuoteInput) =>
      Effect.gen(function*() {
        const addOnIds = [...new Set(input.addOnProductIds ?? [])]
        if (product.type === "ONE_TIME") {
          if (input.subscriptionGroupId !== undefined || addOnIds.length > 0) {
            return yield* Effect.fail(invalidField("addOnProductIds", M.addOnsOnlyWithPlan))
          }
          return { groupId: null, addOns: [] as ReadonlyArray<SellableProduct> }
        }
        let groupId = input.subscriptionGroupId
        if (groupId === undefined) {
          // An option may belong to several plans: only an unambiguous one is picked for the buyer.
          const offering = yield* catalogue.plansOffering(communityId, product.id)
          if (offering.length !== 1) {
            return yield* Effect.fail(
              invalidField("subscriptionGroupId", offering.length === 0 ? M.planRequired : M.planAmbiguous)
            )
          }
          groupId = offering[0]!
        } else if ((yield* catalogue.planProducts(communityId, groupId, "option", [product.id])).length === 0) {
          return yield* Effect.fail(invalidField("productId", M.notAPlanOption))
        }
        const addOns = yield* catalogue.planProducts(communityId, groupId, "add_on", addOnIds)
        if (addOns.length !== addOnIds.length || addOns.some((addOn) => addOn.status !== "ACTIVE")) {
          return yield* Effect.fail(invalidField("addOnProductIds", M.addOnNotInPlan))
        }
        return { groupId, addOns }
      })

    /** What the buyer would pay: the one computation behind quote and checkout. */
    const price = (communityId: CommunityId, input: QuoteInput) =>
      Effect.gen(function*() {
        const product = yield* orNotFound(Messages.productNotFound)(catalogue.product(communityId, input.productId))
        if (product.status !== "ACTIVE") return yield* Effect.fail(invalidField("productId", M.productNotForSale))
        const { addOns, groupId } = yield* planOf(communityId, product, input)
        if (!product.allowedPaymentMethods.includes(input.paymentMethod)) {
          return yield* Effect.fail(
            invalidField("paymentMethod", M.methodNotAllowed(input.paymentMethod, product.allowedPaymentMethods))
          )
        }
        // Stock is checked before the coupon (a read here; checkout takes the unit with a conditional UPDATE).
        if (product.hasStock && (product.stockQuantity ?? 0) < 1) return yield* Effect.fail(soldOut)
        const coupon = input.couponCode === undefined ? undefined : yield* coupons.apply({
          communityId,
          code: input.couponCode,
          productId: product.id,
          amount: product.price,
          currency: product.currency
        })
        const addOnTotal = addOns.reduce((sum, addOn) => sum + addOn.price, 0)
        const discount = coupon?.discount ?? 0
        const amount = product.price - discount + addOnTotal
        if (amount > MAX_CHARGE_TOTAL) {
          const param = addOns.length > 0 ? "addOnProductIds" : "productId"
          return yield* Effect.fail(invalidField(param, M.totalTooLarge(MAX_CHARGE_TOTAL)))
        }
        const amounts = yield* pricing.price({
          communityId,
          amount,
          currency: product.currency,
          paymentMethod: input.paymentMethod,
          installments: input.installments ?? 1
        })
        if (amounts.total > MAX_CHARGE_TOTAL) {
          return yield* Effect.fail(invalidField("installments", M.totalTooLarge(MAX_CHARGE_TOTAL)))
        }
        return { product, groupId, addOns, coupon, listAmount: product.price + addOnTotal, discount, amounts }
      })

    const quote = traced("Checkout.quote")(function*(visitor: Visitor, input: QuoteInput) {
      yield* requireSelling(visitor.communityId)
      const priced = yield* price(visitor.communityId, input)
      return {
        productId: priced.product.id,
        subscriptionGroupId: priced.groupId,
        addOnProductIds: priced.addOns.map((addOn) => addOn.id),
        couponCode: priced.coupon?.code ?? null,
        listAmount: priced.listAmount,
        discount: priced.discount,
        ...priced.amounts
      }
    })
    return { requireSelling, config, price, quote }
  })
}) {}
