import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import { Profiles } from "../../communities/Profiles"
import {
  conflict,
  fieldError,
  forbidden,
  invalidField,
  notFound,
  paymentRequired,
  unauthorized
} from "../../domain/AppError"
import type { Member, Visitor } from "../../domain/Caller"
import { type CommunityId, type ProfileId, Uuid } from "../../domain/Ids"
import { Messages } from "../../domain/Messages"
import { type PageQuery, paginate } from "../../domain/Pagination"
import type { PostalAddress } from "../../domain/PostalAddress"
import { managerRoles } from "../../domain/Role"
import { brazilianTaxIdKind } from "../../domain/TaxId"
import { Ids } from "../../platform/Ids"
import { type ChargeRequest, PaymentGateway } from "../../platform/PaymentGateway"
import { traced } from "../../platform/traced"
import { transactional } from "../../sql/transaction"
import { Stock } from "../catalogue/Stock"
import { CouponRedemption } from "../coupons/CouponRedemption"
import { checkoutMessages as M } from "./messages"
import { CheckoutQuotes, type QuoteInput, soldOut } from "./Quotes"
import { CheckoutRepo } from "./Repo"
import { Settlement } from "./Settlement"
import { chargeView } from "./view"
import { CheckoutWebhooks } from "./Webhooks"

export { MAX_CHARGE_TOTAL, type QuoteInput } from "./Quotes"

const PurchaseCursor = Schema.Tuple(Uuid)

/** SHA-256 in hex through Web Crypto (Node, Deno, Bun and workers alike). */
const sha256Hex = (text: string) =>
  Effect.promise(() => crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))).pipe(
    Effect.map((digest) => Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join(""))
  )

/** A request holding the same Idempotency-Key is waited for this many rounds of `KEY_WAIT_MS`. */
const KEY_WAIT_ROUNDS = 600
const KEY_WAIT_MS = "50 millis"

export interface Buyer {
  readonly name: string
  readonly email?: string | undefined
  readonly taxId: string
}

export interface CheckoutInput extends QuoteInput {
  readonly cardToken?: string | undefined
  readonly buyer?: Buyer | undefined
  readonly billingAddress?: PostalAddress | undefined
}

/**
 * Checkout (issue: selling): prices a product or a plan's billing option (coupon, installments),
 * creates the buyer's membership when missing, holds stock and coupon, charges through the
 * `PaymentGateway`, and settles paid charges (`Settlement`). Everything a checkout writes commits
 * together or not at all. Prices come from `CheckoutQuotes`, gateway notifications go to
 * `CheckoutWebhooks`; this service offers both.
 */
export class Checkout extends Effect.Service<Checkout>()("@roda/core/Checkout", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* CheckoutRepo
    const coupons = yield* CouponRedemption
    const gateway = yield* PaymentGateway
    const profiles = yield* Profiles
    const stock = yield* Stock
    const settlement = yield* Settlement
    const ids = yield* Ids
    const quotes = yield* CheckoutQuotes
    const webhooks = yield* CheckoutWebhooks
    const transaction = transactional(sql)
    const { price, requireSelling } = quotes

    /** The buyer's profile: the caller's, or the member with the buyer's e-mail (created when missing). */
    const buyerProfile = (visitor: Visitor, buyer: Buyer | undefined, country: string) =>
      Effect.gen(function*() {
        if (buyer !== undefined && country === "BR" && brazilianTaxIdKind(buyer.taxId) === undefined) {
          return yield* Effect.fail(invalidField("buyer.taxId", M.taxIdInvalid))
        }
        if (Option.isSome(visitor.member)) return { profileId: visitor.member.value.profileId }
        const email = Option.isSome(visitor.account) ? visitor.account.value.email : buyer?.email
        if (buyer === undefined && Option.isNone(visitor.account)) {
          return yield* Effect.fail(invalidField("buyer", M.buyerRequired))
        }
        if (email === undefined) return yield* Effect.fail(invalidField("buyer.email", M.buyerEmailRequired))
        const fullName = Option.isSome(visitor.account) ? visitor.account.value.fullName : buyer?.name
        const joined = yield* profiles.join(visitor.communityId, {
          email,
          fullName,
          role: "member",
          invite: false,
          existingIsFine: true,
          // Buying with one's own token is consent; an e-mail typed by an anonymous buyer is not.
          holderConsents: Option.isSome(visitor.account)
        })
        // Whether the e-mail had an account is not told (enumeration): the answer has one shape.
        return { profileId: joined.profileId }
      })

    /**
     * The first half of a checkout, inside the caller's transaction: prices, makes the buyer's
     * membership, takes the stock unit and holds the coupon use, writes the pending charge (its
     * gateway answer not yet known) and schedules its reconciliation. What the gateway is asked.
     */
    const reserve = (visitor: Visitor, input: CheckoutInput, country: string) =>
      Effect.gen(function*() {
        const { communityId } = visitor
        const priced = yield* price(communityId, input)
        if (input.paymentMethod === "CREDIT_CARD" && input.cardToken === undefined) {
          return yield* Effect.fail(invalidField("cardToken", M.cardTokenRequired))
        }
        if (input.paymentMethod === "BOLETO" && input.billingAddress === undefined) {
          return yield* Effect.fail(invalidField("billingAddress", M.billingAddressRequired))
        }
        if (input.paymentMethod === "BOLETO" && input.buyer === undefined) {
          return yield* Effect.fail(invalidField("buyer.taxId", M.boletoTaxIdRequired))
        }
        if (!gateway.paymentMethods.includes(input.paymentMethod)) {
          return yield* Effect.fail(
            invalidField("paymentMethod", M.methodNotAllowed(input.paymentMethod, gateway.paymentMethods))
          )
        }
        const maxInstallments = gateway.maxInstallments(country)
        if (priced.amounts.installments > maxInstallments) {
          return yield* Effect.fail(invalidField("installments", M.installmentsNotOffered(maxInstallments)))
        }
        const buyer = yield* buyerProfile(visitor, input.buyer, country)
        if (priced.product.hasStock && !(yield* stock.take(communityId, priced.product.id))) {
          return yield* Effect.fail(soldOut)
        }
        const chargeId = yield* ids.next
        if (priced.coupon !== undefined) {
          yield* coupons.reserve(communityId, priced.coupon.couponId, chargeId, {
            profileId: buyer.profileId,
            amount: priced.product.price,
            discount: priced.discount,
            currency: priced.product.currency
          })
        }
        const contact = yield* repo.buyerEmail(buyer.profileId)
        yield* repo.insertCharge({
          id: chargeId,
          communityId,
          profileId: buyer.profileId,
          productId: priced.product.id,
          subscriptionGroupId: priced.groupId,
          addOnProductIds: `{${priced.addOns.map((addOn) => addOn.id).join(",")}}`,
          paymentMethod: input.paymentMethod,
          installments: priced.amounts.installments,
          currency: priced.amounts.currency,
          listAmount: priced.listAmount,
          discount: priced.discount,
          amount: priced.amounts.amount,
          interest: priced.amounts.interest,
          total: priced.amounts.total,
          fee: priced.amounts.fee,
          net: priced.amounts.net,
          amounts: JSON.stringify(priced.amounts),
          couponId: priced.coupon?.couponId ?? null,
          stockReserved: priced.product.hasStock,
          status: "pending",
          gateway: gateway.name,
          gatewayChargeId: null,
          paymentCode: null,
          expiresAt: null
        })
        if (priced.groupId !== null) {
          yield* settlement.openSubscription(communityId, chargeId, input.cardToken, priced.coupon ?? null)
        }
        yield* settlement.scheduleReconcile(communityId, chargeId)
        return {
          chargeId,
          profileId: buyer.profileId,
          request: {
            chargeId,
            communityId,
            amount: priced.amounts.total,
            currency: priced.amounts.currency,
            paymentMethod: input.paymentMethod,
            installments: priced.amounts.installments,
            cardToken: input.cardToken,
            buyer: {
              name: input.buyer?.name ?? Option.getOrUndefined(contact)?.fullName ?? "",
              email: Option.getOrUndefined(contact)?.email ?? "",
              taxId: input.buyer?.taxId ?? "",
              ...(input.billingAddress === undefined ? {} : { address: input.billingAddress })
            },
            platformAmount: priced.amounts.total - priced.amounts.net,
            saveCard: priced.groupId !== null
          } satisfies ChargeRequest
        }
      })

    type CheckoutAnswer = Effect.Effect.Success<ReturnType<typeof answerOf>>

    /** The answer of a checkout: the charge as its buyer sees it, with what it created. */
    const answerOf = (communityId: CommunityId, chargeId: string, profileId: ProfileId) =>
      Effect.gen(function*() {
        const row = yield* settlement.chargeRow(communityId, chargeId)
        return {
          id: row.id,
          ...chargeView(row),
          profileId,
          ...(yield* settlement.outcomeOf(row.id))
        }
      })

    /**
     * Whose an idempotency key is: the signed-in account, else the anonymous buyer's e-mail (a
     * digest, so the key row keeps no buyer data). Another caller's key is another key.
     */
    const keyScope = (visitor: Visitor, input: CheckoutInput) =>
      Option.isSome(visitor.account)
        ? Effect.succeed(`account:${visitor.account.value.id}`)
        : Effect.map(
          sha256Hex((input.buyer?.email ?? "").trim().normalize("NFC").toLowerCase()),
          (digest) => `buyer:${digest}`
        )

    /**
     * `POST /api/checkout`, in two transactions with the gateway asked between them (no network
     * call holds a database transaction): `reserve`, `gateway.createCharge`, then the answer applied
     * (`Settlement.applyOutcome`). A crash between the two leaves a pending charge that the
     * reconciliation job settles or releases. With an `Idempotency-Key`, the key is claimed in the
     * first transaction; a concurrent request with the same key waits for the first one's answer
     * (stored in the second transaction) and replays it, to the same caller only (`keyScope`); a
     * refused request lets the key go.
     */
    const checkout = traced("Checkout.checkout")(
      function*(visitor: Visitor, input: CheckoutInput, idempotencyKey: string | undefined) {
        const business = yield* requireSelling(visitor.communityId)
        // A digest, so the stored key row keeps no buyer data or card token.
        const fingerprint = yield* sha256Hex(JSON.stringify(input))
        const scope = yield* keyScope(visitor, input)
        const { communityId } = visitor
        for (let wait = 0;; wait++) {
          const reserved = yield* transaction(Effect.gen(function*() {
            if (idempotencyKey !== undefined) {
              const claimed = yield* repo.claimKey(communityId, scope, idempotencyKey, fingerprint)
              if (claimed.requestHash !== fingerprint) {
                return yield* Effect.fail(
                  conflict(M.idempotencyMismatch, [fieldError("Idempotency-Key", M.idempotencyMismatch, "headers")])
                )
              }
              if (claimed.response !== null) {
                return { _tag: "Replay", answer: claimed.response as CheckoutAnswer } as const
              }
              if (!claimed.claimed) return { _tag: "InFlight" } as const
            }
            return { _tag: "Reserved", ...(yield* reserve(visitor, input, business.country)) } as const
          }))
          if (reserved._tag === "Replay") return reserved.answer
          if (reserved._tag === "InFlight") {
            if (wait >= KEY_WAIT_ROUNDS) {
              return yield* Effect.fail(
                conflict(M.idempotencyInFlight, [fieldError("Idempotency-Key", M.idempotencyInFlight, "headers")])
              )
            }
            yield* Effect.sleep(KEY_WAIT_MS)
            continue
          }
          const outcome = yield* gateway.createCharge(reserved.request)
          const answer = yield* transaction(Effect.gen(function*() {
            const row = yield* settlement.applyOutcome(communityId, reserved.chargeId, outcome)
            if (row.status === "failed") {
              if (idempotencyKey !== undefined) yield* repo.dropKey(communityId, scope, idempotencyKey)
              return null
            }
            const answer = yield* answerOf(communityId, reserved.chargeId, reserved.profileId)
            if (idempotencyKey !== undefined) yield* repo.storeAnswer(communityId, scope, idempotencyKey, answer)
            return answer
          }))
          if (answer === null) {
            return yield* Effect.fail(
              outcome._tag === "InvalidCard"
                ? invalidField("cardToken", M.cardTokenInvalid)
                : paymentRequired(M.declined)
            )
          }
          return answer
        }
      }
    )

    const chargeOf = traced("Checkout.charge")(function*(visitor: Visitor, chargeId: string) {
      const row = yield* settlement.chargeRow(visitor.communityId, chargeId.toLowerCase())
      return { ...chargeView(row), ...(yield* settlement.outcomeOf(row.id)) }
    })

    /**
     * Sandbox only: pays a pending PIX or boleto charge, as the bank would; for the buyer's account
     * or an owner or admin of the community.
     */
    const sandboxPay = traced("Checkout.sandboxPay")(function*(visitor: Visitor, chargeId: string) {
      if (!gateway.isSandbox) return yield* Effect.fail(notFound(M.notSandbox))
      if (Option.isNone(visitor.account)) return yield* Effect.fail(unauthorized(Messages.tokenRequired))
      const account = visitor.account.value
      const id = chargeId.toLowerCase()
      yield* transaction(Effect.gen(function*() {
        const row = yield* settlement.chargeRow(visitor.communityId, id, true)
        const manager = Option.isSome(visitor.member) && managerRoles.includes(visitor.member.value.role)
        if (!manager && Option.getOrUndefined(yield* repo.accountOf(row.profileId)) !== account.id) {
          return yield* Effect.fail(forbidden(M.sandboxPayForbidden))
        }
        const now = yield* Clock.currentTimeMillis
        if (row.status !== "pending" || (row.expiresAt !== null && new Date(row.expiresAt).getTime() <= now)) {
          const text = M.notPending(row.status === "pending" ? "expired" : row.status)
          return yield* Effect.fail(conflict(text, [fieldError("status", text)]))
        }
        yield* settlement.settle(visitor.communityId, id)
      }))
      return yield* chargeOf(visitor, id)
    })
    /** The member's own purchases, newest first. */
    const purchases = traced("Checkout.purchases")(function*(member: Member, query: PageQuery) {
      return yield* paginate(
        query,
        PurchaseCursor,
        (after, limit) =>
          Effect.map(
            repo.purchasesOf(member.communityId, member.profileId, after?.[0], limit),
            (rows) => rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }))
          ),
        (row) => [row.id]
      )
    })

    return {
      config: quotes.config,
      quote: quotes.quote,
      checkout,
      charge: chargeOf,
      sandboxPay,
      webhook: webhooks.webhook,
      purchases,
      expireDue: settlement.expireDue
    }
  }),
  dependencies: [CheckoutRepo.Default, CheckoutQuotes.Default, CheckoutWebhooks.Default]
}) {}
