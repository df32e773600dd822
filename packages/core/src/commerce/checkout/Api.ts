import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Ok, Page } from "../../domain/Envelope"
import { Body, Email, Name } from "../../domain/Fields"
import { Uuid } from "../../domain/Ids"
import { PaymentMethod } from "../../domain/Money"
import { PageQuery } from "../../domain/Pagination"
import { BadRequest, Conflict, Forbidden, NotFound, PaymentRequired, Unauthorized } from "../../http/ApiErrors"
import { MemberScope, PublicScope } from "../../http/Security"

const Installments = Schema.Number.pipe(Schema.int(), Schema.between(1, 12)).annotations({
  message: () => ({ message: "must be an integer between 1 and 12", override: true })
})

const quoteFields = {
  productId: Uuid,
  subscriptionGroupId: Schema.optional(Uuid),
  addOnProductIds: Schema.optional(Schema.Array(Uuid).pipe(Schema.maxItems(20))),
  paymentMethod: PaymentMethod,
  installments: Schema.optional(Installments),
  couponCode: Schema.optional(Name(40))
}

export const QuoteBody = Body(quoteFields)

export const CheckoutBody = Body({
  ...quoteFields,
  cardToken: Schema.optional(Name(200)),
  buyer: Schema.optional(Schema.Struct({ name: Name(200), email: Schema.optional(Email), taxId: Name(40) }))
})

const IdempotencyHeaders = Schema.Struct({
  "idempotency-key": Schema.optional(Name(255))
})

const Amounts = {
  listAmount: Schema.Number,
  discount: Schema.Number,
  amount: Schema.Number,
  currency: Schema.String,
  paymentMethod: Schema.String,
  installments: Schema.Number,
  installmentAmount: Schema.Number,
  interest: Schema.Number,
  total: Schema.Number
}

const Quote = Schema.Struct({
  productId: Schema.String,
  subscriptionGroupId: Schema.NullOr(Schema.String),
  addOnProductIds: Schema.Array(Schema.String),
  couponCode: Schema.NullOr(Schema.String),
  interestRateBps: Schema.Number,
  ...Amounts
})

const Charge = Schema.Struct({
  chargeId: Schema.String,
  status: Schema.String,
  productId: Schema.String,
  subscriptionGroupId: Schema.NullOr(Schema.String),
  addOnProductIds: Schema.Array(Schema.String),
  ...Amounts,
  paymentCode: Schema.NullOr(Schema.String),
  expiresAt: Schema.NullOr(Schema.String),
  paidAt: Schema.NullOr(Schema.String),
  createdAt: Schema.NullOr(Schema.String),
  purchaseId: Schema.NullOr(Schema.String),
  subscriptionId: Schema.NullOr(Schema.String)
})

const CheckoutResult = Schema.Struct({
  id: Schema.String,
  ...Charge.fields,
  profileId: Schema.String
})

const Config = Schema.Struct({
  currency: Schema.String,
  country: Schema.String,
  paymentMethods: Schema.Array(
    Schema.Struct({ method: Schema.String, maxInstallments: Schema.Number, interestRateBps: Schema.Number })
  ),
  gateway: Schema.String,
  sandbox: Schema.Boolean
})

const WebhookResult = Schema.Struct({
  eventId: Schema.String,
  duplicate: Schema.Boolean,
  chargeId: Schema.NullOr(Schema.String),
  status: Schema.NullOr(Schema.String)
})

const Purchase = Schema.Struct({
  id: Schema.String,
  productId: Schema.String,
  title: Schema.String,
  chargeId: Schema.String,
  paymentMethod: Schema.String,
  installments: Schema.Number,
  currency: Schema.String,
  amount: Schema.Number,
  discount: Schema.Number,
  total: Schema.Number,
  createdAt: Schema.String
})

const REFUSALS =
  "Refused with 403 `Community must have approved business information to enable paid products` and, when the payout settings are not approved, 400 `Payment configuration has not been set up for this community`."
const PRICING =
  "A ONE_TIME product (`productId`), or a SUBSCRIPTION billing option (`productId`) of a plan (`subscriptionGroupId`; found from the product when absent) with optional `addOnProductIds` of that plan. The coupon (`couponCode`) discounts the main product, never below 0; add-ons are added at their price; installments (1..12, CREDIT_CARD only) add buyer-paid interest (Price table) on the discounted amount. The total of one charge is at most 10000000000 minor units (R$ 100 million; money is stored as bigint): above it, 400 with param `addOnProductIds` (or `productId` without add-ons) when the amount before interest passes it, else `installments`."
const CHARGE_ID = Schema.Struct({ chargeId: Uuid })

export class CheckoutApi extends HttpApiGroup.make("checkout")
  .add(
    HttpApiEndpoint.get("config", "/checkout/config")
      .addSuccess(Ok(Config))
      .addError(BadRequest)
      .addError(Forbidden)
      .annotate(
        OpenApi.Description,
        `Public. What a pricing page needs to offer checkout: currency and country of the approved business information, payment methods with their maximum installments and the monthly interest rate the buyer pays in installments (\`interestRateBps\`, basis points: 289 = 2.89 %, Price table), and whether the gateway is the sandbox. ${REFUSALS}`
      )
  )
  .add(
    HttpApiEndpoint.post("quote", "/checkout/quote")
      .setPayload(QuoteBody)
      .addSuccess(Ok(Quote))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        `Public. The price a checkout with the same fields would charge, computed by the same code (409 when the product is sold out); writes nothing. ${PRICING} ${REFUSALS}`
      )
  )
  .add(
    HttpApiEndpoint.post("checkout", "/checkout")
      .setPayload(CheckoutBody)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(Ok(CheckoutResult), { status: 201 })
      .addError(BadRequest)
      .addError(PaymentRequired)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        `Public (token optional). Answers 201 with the new charge's id in \`data.id\` (also \`chargeId\`; it is what \`GET /api/checkout/charges/{chargeId}\` reads, paid or pending), with \`purchaseId\` (ONE_TIME, once paid) and \`subscriptionId\` (plans) beside it. Buys for the caller when signed in; otherwise for \`buyer\` {name, email, taxId}: the profile of that e-mail in this community, made when missing (account created with a set-password e-mail when the e-mail has none). The answer has the same shape whether or not the e-mail already had an account (nothing tells it apart). \`buyer.taxId\` must be a valid CPF or CNPJ when the community sells from BR. ${PRICING} \`paymentMethod\` must be one the product allows (400). Sandbox cards: \`cardToken\` \`tok_visa\` is approved at once (\`status: paid\`), \`tok_chargeDeclined\` answers 402 and nothing is kept; PIX and BOLETO answer \`status: pending\` with \`paymentCode\` and \`expiresAt\` (PIX 1 hour, boleto 3 days) and are settled when paid (sandbox route or gateway webhook). Stock (hasStock) is taken in the same transaction, never below zero (409 when sold out) and returned when a pending charge expires; a coupon use is held the same way and counted when paid. A paid charge creates the purchase (ONE_TIME) or activates the subscription for its first period (created \`incomplete\` until then), grants the entitlements that open the spaces whose access lists the product or plan, writes the ledger entries and e-mails the sales notice (notification settings) and a receipt. \`Idempotency-Key\` header (optional, per community and per caller: the signed-in account, else the anonymous buyer's \`buyer.email\`): the first successful answer (201 and its body) is stored with the key and replayed for the same key to the same caller only; another caller with the same key is processed afresh as a request of its own (never given the first caller's charge); the same key with another body from the same caller answers 409 (\`param: Idempotency-Key\`); concurrent requests with one key make one charge (the key row is inserted first under a unique constraint and the others wait for it). A refused request (4xx, a declined card included) keeps nothing, the key included, so it may be retried with the same key. Order of checks: business information (403), payout settings (400), product or plan (404 for another community's), payment method, stock (409 when sold out), coupon, price. ${REFUSALS}`
      )
  )
  .add(
    HttpApiEndpoint.get("charge", "/checkout/charges/:chargeId")
      .setPath(CHARGE_ID)
      .addSuccess(Ok(Charge))
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(
        OpenApi.Description,
        "Public. A charge by id (what a buyer polls while a PIX or boleto is pending): status `pending`, `paid` or `expired`, amounts, payment code, and the purchase or subscription it created."
      )
  )
  .add(
    HttpApiEndpoint.post("sandboxPay", "/checkout/sandbox/:chargeId/pay")
      .setPath(CHARGE_ID)
      .addSuccess(Ok(Charge))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        "Sandbox only (404 with a real gateway). Needs a token: the buyer's account (the charge's buyer), or an owner or admin of the community; without a token 401, any other caller (another member, a moderator, a non-member) 403 (the charge itself is no secret: `GET /api/checkout/charges/{chargeId}` is public), a charge of another community 404. Pays a pending PIX or boleto charge as the bank would; a charge that is not pending (paid, expired, or past its `expiresAt`) answers 409."
      )
  )
  .middleware(PublicScope)
  .addError(Unauthorized)
  .prefix("/api")
{}

export class CheckoutWebhooksApi extends HttpApiGroup.make("checkoutWebhooks")
  .add(
    HttpApiEndpoint.post("receive", "/checkout/webhooks/:gateway")
      .setPath(Schema.Struct({ gateway: Schema.String }))
      .setPayload(Schema.Unknown)
      .addSuccess(Ok(WebhookResult))
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(
        OpenApi.Description,
        "Notifications from the payment gateway (no token, no X-CommunityId: a gateway cannot send them; the charge names the community). An unknown gateway answers 404; the gateway layer verifies the notification (400 when it is not authentic). Each event id is handled once (`duplicate: true` afterwards). `charge.paid` settles the charge as the sandbox route does; `charge.expired` expires it (stock and coupon returned). An event for a charge no longer pending changes nothing (a late payment of an expired charge is left to reconciliation, a later issue). The sandbox takes `{\"eventId\", \"type\", \"chargeId\"}` signed as Standard Webhooks do: headers `webhook-id`, `webhook-timestamp` (Unix seconds, at most 5 minutes from the server's clock either way) and `webhook-signature: v1,<base64 HMAC-SHA256 of \"{webhook-id}.{webhook-timestamp}.{raw body}\">` with the server's `SANDBOX_WEBHOOK_SECRET` (`whsec_` + base64 key, or any other string as its UTF-8 bytes; several space-separated signatures are accepted for key rotation, compared in constant time); a missing, malformed, stale or wrong signature answers 400 and changes nothing."
      )
  )
  .prefix("/api")
{}

export class PurchasesApi extends HttpApiGroup.make("purchases")
  .add(
    HttpApiEndpoint.get("mine", "/purchases/me")
      .setUrlParams(PageQuery)
      .addSuccess(Page(Purchase))
      .addError(BadRequest)
      .addError(Forbidden)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "Member. The caller's own purchases of ONE_TIME products in this community, newest first (keyset: `limit`, `cursor`)."
      )
  )
  .addError(Unauthorized)
  .prefix("/api")
{}
