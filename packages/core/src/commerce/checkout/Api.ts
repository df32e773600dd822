import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, InvalidInput, NotFound, PaymentRequired, Unauthenticated } from "../../domain/AppError"
import { Ok, Page } from "../../domain/Envelope"
import { declared } from "../../domain/Failure"
import { Body, Email, Name, Trimmed } from "../../domain/Fields"
import { Uuid } from "../../domain/Ids"
import { PaymentMethod } from "../../domain/Money"
import { PageQuery } from "../../domain/Pagination"
import { PostalAddressBody } from "../../domain/PostalAddress"
import { BodyRefused, ParametersRefused, WriteRefused } from "../../http/requestFailures"
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

/** The payer's address, which a registered boleto must carry (and Stripe asks for it). */
const BillingAddress = PostalAddressBody(
  Schema.compose(Trimmed(2, "must be an ISO 3166-1 alpha-2 country code such as BR"), Schema.Uppercase).pipe(
    Schema.filter((value) => /^[A-Z]{2}$/.test(value) || "must be an ISO 3166-1 alpha-2 country code such as BR")
  )
)

export const CheckoutBody = Body({
  ...quoteFields,
  cardToken: Schema.optional(Name(200)),
  buyer: Schema.optional(Schema.Struct({ name: Name(200), email: Schema.optional(Email), taxId: Name(40) })),
  billingAddress: Schema.optional(BillingAddress)
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
  /** What a pending charge asks of the buyer, as the gateway gives it (Stripe's `next_action`). */
  nextAction: Schema.NullOr(Schema.Unknown),
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
  status: Schema.NullOr(Schema.String),
  /** Acknowledged without effect: not about a charge of Roda's (recorded as ignored). */
  ignored: Schema.Boolean
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
  .annotateContext(OpenApi.annotations({
    title: "Checkout",
    description: "Quotes, checkout (card, PIX, boleto), charges and the sandbox gateway."
  }))
  .add(
    HttpApiEndpoint.get("config", "/checkout/config")
      .addSuccess(Ok(Config))
      .addError(declared(InvalidInput, "payment_not_configured"))
      .addError(declared(Forbidden, "checkout_needs_approved_business"))
      .annotate(
        OpenApi.Description,
        `Public. What a pricing page needs to offer checkout: currency and country of the approved business information, payment methods with their maximum installments and the monthly interest rate the buyer pays in installments (\`interestRateBps\`, basis points: 289 = 2.89 %, Price table), and whether the gateway is the sandbox. \`gateway\` names the active gateway (\`sandbox\` or \`stripe\`, the server's \`PAYMENT_GATEWAY\`); \`paymentMethods\` lists only the methods it takes, and \`maxInstallments\` is the smaller of the community's fee terms and what the gateway offers for cards of the business country (Stripe: card installments for BR and MX, else 1; a checkout asking for more answers 400 \`installments\`). ${REFUSALS}`
      )
      .annotate(OpenApi.Summary, "Get the checkout configuration")
  )
  .add(
    HttpApiEndpoint.post("quote", "/checkout/quote")
      .setPayload(QuoteBody)
      .addSuccess(Ok(Quote))
      .addError(
        declared(
          InvalidInput,
          "add_on_not_in_plan",
          "add_ons_only_with_plan",
          "amount_range",
          "coupon_not_found",
          "currency_mismatch",
          "exhausted",
          "expired",
          "inactive",
          "installments_only_card",
          "installments_range",
          "installments_too_small",
          "method_not_allowed",
          "not_a_plan_option",
          "not_applicable",
          "payment_not_configured",
          "plan_ambiguous",
          "plan_required",
          "product_not_for_sale",
          "total_too_large",
          "unknown_code"
        )
      )
      .addError(declared(Forbidden, "checkout_needs_approved_business"))
      .addError(declared(NotFound, "product_not_found"))
      .addError(declared(Conflict, "sold_out"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        `Public. The price a checkout with the same fields would charge, computed by the same code (409 when the product is sold out); writes nothing. ${PRICING} ${REFUSALS}`
      )
      .annotate(OpenApi.Summary, "Quote a checkout")
  )
  .add(
    HttpApiEndpoint.post("checkout", "/checkout")
      .setPayload(CheckoutBody)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(Ok(CheckoutResult), { status: 201 })
      .addError(
        declared(
          InvalidInput,
          "add_on_not_in_plan",
          "add_ons_only_with_plan",
          "amount_range",
          "billing_address_required",
          "boleto_tax_id_required",
          "buyer_email_required",
          "buyer_required",
          "card_token_invalid",
          "card_token_required",
          "coupon_not_found",
          "currency_mismatch",
          "exhausted",
          "expired",
          "inactive",
          "installments_not_offered",
          "installments_only_card",
          "installments_range",
          "installments_too_small",
          "method_not_allowed",
          "not_a_plan_option",
          "not_applicable",
          "payment_not_configured",
          "plan_ambiguous",
          "plan_required",
          "product_not_for_sale",
          "tax_id_invalid",
          "total_too_large",
          "unknown_code"
        )
      )
      .addError(declared(PaymentRequired, "declined"))
      .addError(declared(Forbidden, "banned_self", "checkout_needs_approved_business"))
      .addError(declared(NotFound, "charge_not_found", "product_not_found"))
      .addError(
        declared(
          Conflict,
          "already_invited",
          "already_member",
          "email_taken",
          "idempotency_in_flight",
          "idempotency_mismatch",
          "member_banned",
          "sold_out"
        )
      )
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        `Public (token optional). Answers 201 with the new charge's id in \`data.id\` (also \`chargeId\`; it is what \`GET /api/checkout/charges/{chargeId}\` reads, paid or pending), with \`purchaseId\` (ONE_TIME, once paid) and \`subscriptionId\` (plans) beside it. Buys for the caller when signed in; otherwise for \`buyer\` {name, email, taxId}: the profile of that e-mail in this community, made when missing (account created with a set-password e-mail when the e-mail has none). The answer has the same shape whether or not the e-mail already had an account (nothing tells it apart). \`buyer.taxId\` must be a valid CPF or CNPJ when the community sells from BR. ${PRICING} \`paymentMethod\` must be one the product allows (400). A BOLETO names its payer as banks register it: \`billingAddress\` {street, number, complement?, neighbourhood?, city, state, postalCode, country} (400 \`billingAddress\` when absent) and \`buyer.taxId\` (CPF or CNPJ; a signed-in buyer sends \`buyer\` {name, taxId} too, else 400 \`buyer.taxId\`); with other methods \`billingAddress\` is optional and, when sent, goes to the gateway with the buyer. Sandbox cards: \`cardToken\` \`tok_visa\` is approved at once (\`status: paid\`), \`tok_chargeDeclined\` answers 402; PIX and BOLETO answer \`status: pending\` with \`paymentCode\` and \`expiresAt\` (PIX 1 hour, boleto 3 days) and are settled when paid (sandbox route or gateway webhook). Stock (hasStock) is taken in the same transaction, never below zero (409 when sold out) and returned when a pending charge expires; a coupon use is held the same way and counted when paid. A paid charge creates the purchase (ONE_TIME) or activates the subscription for its first period (created \`incomplete\` until then), grants the entitlements that open the spaces whose access lists the product or plan, writes the ledger entries and e-mails the sales notice (notification settings) and a receipt. \`Idempotency-Key\` header (optional, per community and per caller: the signed-in account, else the anonymous buyer's \`buyer.email\`): the first successful answer (201 and its body) is stored with the key and replayed for the same key to the same caller only; another caller with the same key is processed afresh as a request of its own (never given the first caller's charge); the same key with another body from the same caller answers 409 (\`param: Idempotency-Key\`); concurrent requests with one key make one charge (the key row is inserted first under a unique constraint and the others wait for it). A refused request (4xx, a declined card included) keeps no key, so it may be retried with the same key; a request arriving while the first with its key is still at the gateway waits for that answer (up to 30 s, then 409 \`Idempotency-Key\`). No network call is made inside a database transaction: the checkout reserves (stock unit, coupon use, the \`pending\` charge) in one transaction, asks the gateway, and applies its answer in a second; a declined or invalid card makes the reserved charge final \`failed\` (kept, with its reason, stock and coupon given back, a plan's subscription \`incomplete_expired\`) and answers 402 (400 \`cardToken\` for an invalid card). A crash between the two leaves the charge \`pending\` without a gateway answer; a durable job (\`checkout.reconcile\`, 10 minutes after the reservation) asks the gateway for it and settles it (paid) or releases it (failed or never received) exactly once. With \`PAYMENT_GATEWAY=stripe\`: the charge is a PaymentIntent created and confirmed at once with the idempotency key \`roda-charge-{chargeId}\` and \`metadata.roda_charge_id\`; \`cardToken\` is a Stripe.js token (\`tok_…\`) or PaymentMethod (\`pm_…\`); installments are sent as Stripe's fixed-count monthly plan over the total with Roda's interest; a card needing 3-D Secure answers \`status: pending\` with \`nextAction\` \`{type, clientSecret, details}\` (\`details\` is Stripe's \`next_action\` unchanged; the client completes it with Stripe.js \`handleNextAction({clientSecret})\`) and is settled by the webhook, or expires after 1 hour; PIX answers \`paymentCode\` (copy-paste code), \`expiresAt\` (1 hour) and \`nextAction.details.pix_display_qr_code\` (QR image URLs); boleto answers \`paymentCode\` (the digitable number), \`expiresAt\` (due in 3 days) and \`nextAction.details.boleto_display_details\` (\`pdf\`, \`hosted_voucher_url\`). The seller is the community's Stripe Connect account when one is configured (destination charge \`on_behalf_of\` it, \`transfer_data.destination\`, \`application_fee_amount\` = the platform's fee plus the buyer-paid interest, i.e. \`total - net\`, the same cents the ledger credits the platform), else the platform account (no application fee). Plan checkouts save the card (a Stripe customer, \`setup_future_usage: off_session\`) for renewals. An account banned from the community by moderation cannot buy its way back in: 403 \`banned_self\` for the signed-in holder, 409 \`member_banned\` for an anonymous buyer's e-mail. Order of checks: business information (403), payout settings (400), product or plan (404 for another community's), payment method, stock (409 when sold out), coupon, price. ${REFUSALS}`
      )
      .annotate(OpenApi.Summary, "Check out")
  )
  .add(
    HttpApiEndpoint.get("charge", "/checkout/charges/:chargeId")
      .setPath(CHARGE_ID)
      .addSuccess(Ok(Charge))
      .addError(declared(NotFound, "charge_not_found"))
      .addError(ParametersRefused)
      .annotate(
        OpenApi.Description,
        "Public. A charge by id (what a buyer polls while a PIX, boleto or 3-D Secure card is pending): status `pending`, `paid`, `expired` or `failed` (declined at the gateway, final), amounts, payment code, `nextAction` (what a pending charge asks of the buyer, see `POST /api/checkout`; null otherwise), and the purchase or subscription it created."
      )
      .annotate(OpenApi.Summary, "Get a charge")
  )
  .add(
    HttpApiEndpoint.post("sandboxPay", "/checkout/sandbox/:chargeId/pay")
      .setPath(CHARGE_ID)
      .addSuccess(Ok(Charge))
      .addError(declared(Unauthenticated, "token_required"))
      .addError(declared(Forbidden, "sandbox_pay_forbidden"))
      .addError(declared(NotFound, "charge_not_found", "not_sandbox"))
      .addError(declared(Conflict, "not_pending"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "Sandbox only (404 when `PAYMENT_GATEWAY` is not `sandbox`). Needs a token: the buyer's account (the charge's buyer), or an owner or admin of the community; without a token 401, any other caller (another member, a moderator, a non-member) 403 (the charge itself is no secret: `GET /api/checkout/charges/{chargeId}` is public), a charge of another community 404. Pays a pending PIX or boleto charge as the bank would; a charge that is not pending (paid, expired, or past its `expiresAt`) answers 409."
      )
      .annotate(OpenApi.Summary, "Pay a sandbox charge")
  )
  .middleware(PublicScope)
  .prefix("/api")
{}

export class CheckoutWebhooksApi extends HttpApiGroup.make("checkoutWebhooks")
  .annotateContext(OpenApi.annotations({
    title: "Gateway webhooks",
    description: "Signed notifications from the payment gateway."
  }))
  .add(
    HttpApiEndpoint.post("receive", "/checkout/webhooks/:gateway")
      .setPath(Schema.Struct({ gateway: Schema.String.pipe(Schema.maxLength(50)) }))
      .setPayload(Schema.Unknown)
      .addSuccess(Ok(WebhookResult))
      .addError(declared(InvalidInput, "webhook_invalid"))
      .addError(declared(NotFound, "charge_not_found", "unknown_gateway"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "Notifications from the payment gateway (no token, no X-CommunityId: a gateway cannot send them; the charge names the community). An unknown gateway answers 404; the gateway layer verifies the notification (400 when it is not authentic). Each event id is handled once (`duplicate: true` afterwards). `charge.paid` settles the charge as the sandbox route does; `charge.expired` expires it (stock and coupon returned). An event for a charge no longer pending changes nothing, except a payment of a charge already over here (expired, failed or canceled: a boleto paid past its due date, a PIX paid as it expired): nothing was sold, so it is refunded in full automatically through the gateway (idempotency key `roda-refund-late-{chargeId}`, asked after the event is committed, and by the job `checkout.lateRefund` after a crash), recorded in the ledger as the payment and its refund (the community's balance unchanged) and as a refund row of the charge; the buyer gets a refund receipt. An event about a subscription's own charge (a renewal, retry, pay-now, change or add-on billing, `metadata.roda_charge_id` = the billing id) is handled by subscriptions: a refund posts what Roda did not know of, a lost dispute a chargeback, and either ends the subscription now (final `canceled`, access closed) once the billing is refunded in full, or at once for a lost dispute; the same holds for the checkout charge that opened a subscription. The event id is stored in the same transaction as its effect, so the answer is 2xx only once both are committed (a failure answers 5xx and the gateway's retry is handled afresh), and events are safe in any order: a refund or lost dispute of a charge still pending settles the sale first, then takes the money back. `POST /api/checkout/webhooks/stripe` (with `PAYMENT_GATEWAY=stripe`; the endpoint's signing secret is `STRIPE_WEBHOOK_SECRET`): verified by the official SDK (`stripe.webhooks.constructEventAsync`, the Web Crypto form of `constructEvent`, tolerance 300 s: a missing or wrong `Stripe-Signature` or an older timestamp answers 400); `payment_intent.succeeded` settles the charge of `metadata.roda_charge_id`, `payment_intent.payment_failed` and `payment_intent.canceled` expire it (a boleto or PIX left unpaid, a 3-D Secure given up), `charge.refunded` posts what Stripe refunded beyond the refunds Roda made (a refund from the Stripe dashboard), `charge.dispute.created` holds the disputed amount (the balance's `disputed`, taken from `available`) and `charge.dispute.closed` releases it (`won`, `warning_closed`, `prevented`) or, for `lost`, posts a chargeback of the disputed amount (ledger: pending first, then available; a row of kind `chargeback` in the refunds) and the dispute fee Stripe charged (the fees of the dispute's `balance_transactions`), once per dispute whatever the order of the events (see `GET /api/payouts/balance`; a dispute of a subscription renewal is booked only when lost); the owners get a `dispute.opened` / `dispute.closed` e-mail; a PaymentIntent with `transfer_data.destination` (Stripe Connect) is a sale settled to the community's own account: its net is the balance's `settledByGateway`, never `available`, and its refunds (`reverse_transfer`) and disputes are taken from that account, not from the balance Roda pays out; PaymentIntents without Roda's metadata, events about PaymentIntents Roda does not know (another system selling on the same Stripe account) and other event types are acknowledged (200, `chargeId: null`, `ignored: true`) and recorded as ignored, so Stripe does not retry them for days; a bad signature is still refused (400). The sandbox refuses an event for a charge it does not know (404). The sandbox takes `{\"eventId\", \"type\", \"chargeId\"}` signed as Standard Webhooks do: headers `webhook-id`, `webhook-timestamp` (Unix seconds, at most 5 minutes from the server's clock either way) and `webhook-signature: v1,<base64 HMAC-SHA256 of \"{webhook-id}.{webhook-timestamp}.{raw body}\">` with the server's `SANDBOX_WEBHOOK_SECRET` (`whsec_` + base64 key, or any other string as its UTF-8 bytes; several space-separated signatures are accepted for key rotation, compared in constant time); a missing, malformed, stale or wrong signature answers 400 and changes nothing."
      )
      .annotate(OpenApi.Summary, "Receive a payment gateway webhook")
  )
  .prefix("/api")
{}

export class PurchasesApi extends HttpApiGroup.make("purchases")
  .annotateContext(OpenApi.annotations({
    title: "Purchases",
    description: "The caller's own purchases."
  }))
  .add(
    HttpApiEndpoint.get("mine", "/purchases/me")
      .setUrlParams(PageQuery)
      .addSuccess(Page(Purchase))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(ParametersRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "Member. The caller's own purchases of ONE_TIME products in this community, newest first (keyset: `limit`, `cursor`)."
      )
      .annotate(OpenApi.Summary, "List the caller's purchases")
  )
  .prefix("/api")
{}
