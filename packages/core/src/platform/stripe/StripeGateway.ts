import { Clock, Effect, Layer, Option, Redacted } from "effect"
import type Stripe from "stripe"
import type { PaymentMethod } from "../../domain/Money"
import {
  type ChargeOutcome,
  type ChargeReference,
  type ChargeRequest,
  type ChargeState,
  PaymentGateway,
  type RefundOutcome,
  type RefundRequest
} from "../PaymentGateway"
import { ATTEMPT_METADATA, CHARGE_METADATA, COMMUNITY_METADATA, toGatewayEvent } from "./events"
import { StripeStore } from "./StripeStore"

export interface StripeGatewayOptions {
  /** `STRIPE_SECRET_KEY` (`sk_live_…` or `sk_test_…`). */
  readonly secretKey: Redacted.Redacted<string>
  /** `STRIPE_WEBHOOK_SECRET` (`whsec_…`), the signing secret of the webhook endpoint. */
  readonly webhookSecret: Redacted.Redacted<string>
  /** Where the API is (tests point the SDK at a local stand-in); Stripe's own by default. */
  readonly host?: string | undefined
  readonly port?: number | undefined
  readonly protocol?: "http" | "https" | undefined
}

/** How far a webhook's signed timestamp may be from now: Stripe's default tolerance, 5 minutes. */
export const STRIPE_WEBHOOK_TOLERANCE_SECONDS = 300

/** PIX codes Stripe issues are valid for an hour; boletos are due in 3 days (as the sandbox). */
const PIX_EXPIRES_SECONDS = 3600
const BOLETO_EXPIRES_DAYS = 3
/** A card charge waiting for 3-D Secure is given up (canceled at Stripe) after this long. */
const ACTION_EXPIRES_MS = 60 * 60 * 1000

/** The idempotency key of a charge attempt: our charge id, and the attempt number from the second on. */
const chargeKey = (request: ChargeRequest) =>
  `roda-charge-${request.chargeId}${(request.attempt ?? 1) > 1 ? `-attempt-${request.attempt}` : ""}`

/** Stripe offers card installments for cards of these business countries (installments guide). */
const INSTALLMENT_COUNTRIES: ReadonlySet<string> = new Set(["BR", "MX"])

const METHOD_TYPES = { CREDIT_CARD: "card", PIX: "pix", BOLETO: "boleto" } as const satisfies Record<
  PaymentMethod,
  string
>

/** The buyer's name, e-mail and address, only those given (Stripe refuses empty strings). */
const contactOf = (request: ChargeRequest) => {
  const address = request.buyer.address
  const line2 = [address?.complement, address?.neighbourhood].filter(Boolean).join(", ")
  return {
    ...(request.buyer.name ? { name: request.buyer.name } : {}),
    ...(request.buyer.email ? { email: request.buyer.email } : {}),
    ...(address === undefined ? {} : {
      address: {
        line1: `${address.street}, ${address.number}`,
        ...(line2 ? { line2 } : {}),
        city: address.city,
        state: address.state,
        postal_code: address.postalCode,
        country: address.country
      }
    })
  }
}

const seconds = (value: number | null | undefined) =>
  value === null || value === undefined ? undefined : new Date(value * 1000)

/** A PaymentIntent as Roda's charge state. */
const stateOf = (intent: Stripe.PaymentIntent, now: number): ChargeState => {
  const destination = intent.transfer_data?.destination
  const settledTo = typeof destination === "string" ? destination : destination?.id
  const connected = settledTo === undefined ? {} : { settledTo }
  switch (intent.status) {
    case "succeeded":
      return { _tag: "Paid", gatewayChargeId: intent.id, ...connected }
    case "canceled":
      return { _tag: "Failed", gatewayChargeId: intent.id, reason: intent.cancellation_reason ?? "canceled" }
    case "requires_payment_method":
      // Roda confirms on creation: back at this state, the attempt failed.
      return {
        _tag: "Failed",
        gatewayChargeId: intent.id,
        reason: intent.last_payment_error?.decline_code ?? intent.last_payment_error?.code ?? "requires_payment_method"
      }
    default: {
      const action = intent.next_action
      const pix = action?.pix_display_qr_code
      const boleto = action?.boleto_display_details
      return {
        _tag: "Pending",
        gatewayChargeId: intent.id,
        ...connected,
        paymentCode: pix?.data ?? boleto?.number ?? null,
        expiresAt: seconds(pix?.expires_at) ?? seconds(boleto?.expires_at) ?? new Date(now + ACTION_EXPIRES_MS),
        action: action === null
          ? undefined
          : {
            type: action.type,
            details: action,
            ...(intent.client_secret ? { clientSecret: intent.client_secret } : {})
          }
      }
    }
  }
}

/**
 * Stripe as a layer of `PaymentGateway` (issue 17), through the official SDK on `fetch` (any
 * runtime). Every call carries an idempotency key derived from our ids (`roda-charge-{chargeId}`,
 * `roda-refund-{refundId}`, …), so a retried job never charges or refunds twice, and every
 * PaymentIntent our charge id and community in its metadata. The seller is the community's
 * connected account when it has one (`gateway_accounts`: a destination charge `on_behalf_of` it,
 * with the platform's part, fee and buyer-paid interest, as the application fee, so the ledger's
 * fee and Stripe's agree to the cent), else the platform account.
 */
export const stripeGateway = (options: StripeGatewayOptions) =>
  Layer.effect(
    PaymentGateway,
    Effect.gen(function*() {
      const store = yield* StripeStore
      // Loaded here, not with the module: the SDK costs every start ~85 ms, and most deployments
      // that import Roda never configure Stripe.
      const { default: Stripe } = yield* Effect.promise(() => import("stripe"))
      const isStripeError = (error: unknown): error is Stripe.errors.StripeError =>
        error instanceof Stripe.errors.StripeError
      const stripe = new Stripe(Redacted.value(options.secretKey), {
        httpClient: Stripe.createFetchHttpClient(),
        maxNetworkRetries: 2,
        ...(options.host === undefined ? {} : { host: options.host }),
        ...(options.port === undefined ? {} : { port: options.port }),
        ...(options.protocol === undefined ? {} : { protocol: options.protocol })
      })
      const crypto = Stripe.createSubtleCryptoProvider()
      const call = <A>(run: () => Promise<A>) => Effect.tryPromise({ try: run, catch: (error) => error })

      /** The customer a card is saved to for renewals (one per charge that saves a card). */
      const customerFor = (request: ChargeRequest) =>
        Effect.orDie(call(() =>
          stripe.customers.create(
            { ...contactOf(request), metadata: { [CHARGE_METADATA]: request.chargeId } },
            { idempotencyKey: `roda-customer-${request.chargeId}` }
          )
        ))

      const cardParams = (request: ChargeRequest) =>
        Effect.gen(function*() {
          const token = request.cardToken ?? ""
          // Off-session (renewals): the customer and payment method the card was saved as on its first charge.
          const saved = request.offSession ? yield* store.savedCard(token) : Option.none()
          if (Option.isSome(saved)) {
            return {
              customer: saved.value.customerId,
              payment_method: saved.value.paymentMethodId,
              off_session: true
            } satisfies Partial<Stripe.PaymentIntentCreateParams>
          }
          const method = token.startsWith("pm_")
            ? { payment_method: token }
            : { payment_method_data: { type: "card" as const, card: { token } } }
          const customer = request.saveCard ? { customer: (yield* customerFor(request)).id } : {}
          return {
            ...method,
            ...customer,
            ...(request.saveCard ? { setup_future_usage: "off_session" as const } : {}),
            ...(request.installments > 1
              ? {
                payment_method_options: {
                  card: {
                    installments: { plan: { count: request.installments, interval: "month", type: "fixed_count" } }
                  }
                }
              }
              : {})
          } as Partial<Stripe.PaymentIntentCreateParams>
        })

      const methodParams = (request: ChargeRequest): Partial<Stripe.PaymentIntentCreateParams> => {
        const billing = contactOf(request)
        return request.paymentMethod === "PIX"
          ? {
            payment_method_data: { type: "pix", billing_details: billing },
            payment_method_options: { pix: { expires_after_seconds: PIX_EXPIRES_SECONDS } }
          }
          : {
            payment_method_data: {
              type: "boleto",
              billing_details: billing,
              boleto: { tax_id: request.buyer.taxId.replace(/\D/g, "") }
            },
            payment_method_options: { boleto: { expires_after_days: BOLETO_EXPIRES_DAYS } }
          }
      }

      const createCharge = (request: ChargeRequest) =>
        Effect.gen(function*() {
          const seller = request.communityId === undefined ? Option.none() : yield* store.seller(request.communityId)
          const params: Stripe.PaymentIntentCreateParams = {
            amount: request.amount,
            currency: request.currency.toLowerCase(),
            allowed_payment_method_types: [METHOD_TYPES[request.paymentMethod]],
            confirm: true,
            metadata: {
              [CHARGE_METADATA]: request.chargeId,
              ...(request.communityId === undefined ? {} : { [COMMUNITY_METADATA]: request.communityId }),
              ...(request.attempt === undefined ? {} : { [ATTEMPT_METADATA]: String(request.attempt) })
            },
            ...(Option.isSome(seller)
              ? {
                on_behalf_of: seller.value,
                transfer_data: { destination: seller.value },
                application_fee_amount: request.platformAmount ?? 0
              }
              : {}),
            ...(request.paymentMethod === "CREDIT_CARD" ? yield* cardParams(request) : methodParams(request))
          }
          const now = yield* Clock.currentTimeMillis
          const created = yield* Effect.either(
            call(() => stripe.paymentIntents.create(params, { idempotencyKey: chargeKey(request) }))
          )
          if (created._tag === "Left") {
            const error = created.left
            if (isStripeError(error) && error.type === "StripeCardError") {
              return {
                _tag: "Declined",
                gatewayChargeId: error.payment_intent?.id ?? request.chargeId,
                reason: error.decline_code ?? error.code ?? "card_declined"
              } satisfies ChargeOutcome
            }
            if (
              isStripeError(error) && error.type === "StripeInvalidRequestError" && error.code === "resource_missing"
            ) {
              return { _tag: "InvalidCard", reason: error.message } satisfies ChargeOutcome
            }
            // Anything else (network, Stripe down): the charge stays reserved and the reconciliation asks later.
            return yield* Effect.die(error)
          }
          const intent = created.right
          const state = stateOf(intent, now)
          if (state._tag === "Paid" && request.saveCard && typeof intent.customer === "string") {
            const method = typeof intent.payment_method === "string" ? intent.payment_method : intent.payment_method?.id
            if (method !== undefined && request.cardToken !== undefined) {
              yield* store.saveCard(request.cardToken, intent.customer, method)
            }
          }
          if (state._tag === "Failed") {
            return { _tag: "Declined", gatewayChargeId: intent.id, reason: state.reason } satisfies ChargeOutcome
          }
          if (state._tag === "Pending") {
            return {
              _tag: "Pending",
              gatewayChargeId: intent.id,
              ...(state.settledTo === undefined ? {} : { settledTo: state.settledTo }),
              paymentCode: state.paymentCode ?? null,
              expiresAt: state.expiresAt ?? new Date(now + ACTION_EXPIRES_MS),
              action: state.action
            } satisfies ChargeOutcome
          }
          return state as ChargeOutcome
        })

      /** The PaymentIntent of one of our charges: by its id, else found by our charge id in its metadata. */
      const find = (reference: ChargeReference) =>
        Effect.orDie(
          reference.gatewayChargeId?.startsWith("pi_")
            ? Effect.map(
              call(() => stripe.paymentIntents.retrieve(reference.gatewayChargeId!)),
              Option.some
            )
            : Effect.map(
              call(() =>
                stripe.paymentIntents.search({
                  query: `metadata['${CHARGE_METADATA}']:'${reference.chargeId}'`,
                  limit: reference.attempt === undefined ? 1 : 100
                })
              ),
              // each attempt at one of our charges (renewal retries) is a PaymentIntent of its own
              (found) =>
                Option.fromNullable(
                  reference.attempt === undefined
                    ? found.data[0]
                    : found.data.find((intent) =>
                      (intent.metadata?.[ATTEMPT_METADATA] ?? "1") === String(reference.attempt)
                    )
                )
            )
        )

      const lookup = (reference: ChargeReference) =>
        Effect.gen(function*() {
          const found = yield* find(reference)
          if (Option.isNone(found)) return { _tag: "Unknown" } satisfies ChargeState
          return stateOf(found.value, yield* Clock.currentTimeMillis)
        })

      const cancellable = new Set([
        "requires_payment_method",
        "requires_confirmation",
        "requires_action",
        "requires_capture"
      ])

      const cancel = (reference: ChargeReference) =>
        Effect.gen(function*() {
          const found = yield* find(reference)
          if (Option.isNone(found)) return { _tag: "Unknown" } satisfies ChargeState
          const now = yield* Clock.currentTimeMillis
          if (!cancellable.has(found.value.status)) return stateOf(found.value, now)
          const canceled = yield* Effect.either(
            call(() =>
              stripe.paymentIntents.cancel(found.value.id, { cancellation_reason: "abandoned" }, {
                idempotencyKey: `roda-cancel-${reference.chargeId}${
                  (reference.attempt ?? 1) > 1 ? `-attempt-${reference.attempt}` : ""
                }`
              })
            )
          )
          // Refused (paid meanwhile, or processing): what Stripe says now.
          return canceled._tag === "Right" ? stateOf(canceled.right, now) : yield* lookup(reference)
        })

      const refund = (request: RefundRequest) =>
        Effect.gen(function*() {
          const found = yield* find({ chargeId: request.chargeId, gatewayChargeId: request.gatewayChargeId })
          if (Option.isNone(found)) {
            return { _tag: "Refused", reason: "payment not found at Stripe" } satisfies RefundOutcome
          }
          const intent = found.value
          const connected = intent.transfer_data !== null && intent.transfer_data !== undefined
          const created = yield* Effect.either(call(() =>
            stripe.refunds.create(
              {
                payment_intent: intent.id,
                amount: request.amount,
                metadata: {
                  [CHARGE_METADATA]: request.chargeId,
                  ...(request.refundId === undefined ? {} : { roda_refund_id: request.refundId })
                },
                // The connected account gives its part back, and the platform its fee (proportionally).
                ...(connected ? { reverse_transfer: true, refund_application_fee: true } : {})
              },
              { idempotencyKey: `roda-refund-${request.refundId ?? `${request.chargeId}-${request.amount}`}` }
            )
          ))
          if (created._tag === "Left") {
            if (isStripeError(created.left)) {
              return { _tag: "Refused", reason: created.left.message } satisfies RefundOutcome
            }
            return yield* Effect.die(created.left)
          }
          const result = created.right
          return result.status === "failed" || result.status === "canceled"
            ? { _tag: "Refused", reason: result.failure_reason ?? result.status } satisfies RefundOutcome
            : { _tag: "Refunded", gatewayRefundId: result.id } satisfies RefundOutcome
        })

      const parseWebhook = (headers: Readonly<Record<string, string | undefined>>, body: string) =>
        Effect.gen(function*() {
          const signature = headers["stripe-signature"]
          if (signature === undefined || signature === "") return Option.none()
          // the SDK takes the receipt time in milliseconds; Roda's clock (tests move it)
          const now = yield* Clock.currentTimeMillis
          const event = yield* Effect.option(call(() =>
            stripe.webhooks.constructEventAsync(
              body,
              signature,
              Redacted.value(options.webhookSecret),
              STRIPE_WEBHOOK_TOLERANCE_SECONDS,
              crypto,
              now
            )
          ))
          // authentic but not an event (no id or type): refused like a forged one
          return Option.map(
            Option.filter(event, (value) => typeof value.id === "string" && typeof value.type === "string"),
            toGatewayEvent
          )
        })

      return PaymentGateway.of({
        name: "stripe",
        isSandbox: false,
        // the Stripe account may sell for other systems too: their events are acknowledged and ignored
        foreignChargesExist: true,
        paymentMethods: ["CREDIT_CARD", "PIX", "BOLETO"],
        maxInstallments: (country) => INSTALLMENT_COUNTRIES.has(country) ? 12 : 1,
        createCharge,
        lookup,
        cancel,
        refund,
        // Stripe takes PIX refunds for 90 days after payment; one window for every method keeps it simple.
        refundWindowDays: 90,
        parseWebhook
      })
    })
  ).pipe(Layer.provide(StripeStore.Default))
