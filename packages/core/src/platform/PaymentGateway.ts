import { Context, Effect, Layer, Option } from "effect"
import type { PaymentMethod } from "../domain/Money"
import { Ids } from "./Ids"

export interface ChargeRequest {
  /** Our charge id (the gateway keeps it as a reference). */
  readonly chargeId: string
  readonly amount: number
  readonly currency: string
  readonly paymentMethod: PaymentMethod
  readonly installments: number
  readonly cardToken?: string | undefined
  readonly buyer: { readonly name: string; readonly email: string; readonly taxId: string }
}

/** What the gateway answered: paid at once (approved card), pending (PIX, boleto) or declined. */
export type ChargeOutcome =
  | { readonly _tag: "Paid"; readonly gatewayChargeId: string }
  | {
    readonly _tag: "Pending"
    readonly gatewayChargeId: string
    /** PIX copy-and-paste code or boleto digitable line. */
    readonly paymentCode: string
    readonly expiresAt: Date
  }
  | { readonly _tag: "Declined"; readonly gatewayChargeId: string; readonly reason: string }
  | { readonly _tag: "InvalidCard"; readonly reason: string }

/** A notification from the gateway, once its signature is checked. */
export interface GatewayEvent {
  readonly eventId: string
  readonly type: "charge.paid" | "charge.expired" | "other"
  readonly gatewayChargeId: string
}

/**
 * The payment provider (conventions.md "Payments"). The default layer is the sandbox, which needs
 * no network; real gateways are further layers of this service.
 */
export class PaymentGateway extends Context.Tag("@roda/core/PaymentGateway")<PaymentGateway, {
  /** Name used in webhook paths (`/api/checkout/webhooks/{name}`). */
  readonly name: string
  /** The sandbox lets `POST /api/checkout/sandbox/{chargeId}/pay` pay pending charges. */
  readonly isSandbox: boolean
  readonly createCharge: (request: ChargeRequest) => Effect.Effect<ChargeOutcome>
  /** Verifies and reads a webhook; none when it is not authentic or not understood. */
  readonly parseWebhook: (
    headers: Readonly<Record<string, string | undefined>>,
    body: unknown
  ) => Effect.Effect<Option.Option<GatewayEvent>>
}>() {}

const PENDING_HOURS: Record<PaymentMethod, number> = { CREDIT_CARD: 0, PIX: 1, BOLETO: 72 }

/**
 * The sandbox: card token `tok_visa` is approved, `tok_chargeDeclined` declined, any other token is
 * invalid; PIX and boleto stay pending until paid through the sandbox route or a webhook
 * `{"eventId", "type": "charge.paid", "chargeId"}` (the gateway charge id is our charge id).
 */
export const SandboxGateway = Layer.effect(
  PaymentGateway,
  Effect.map(Ids, (ids) => ({
    name: "sandbox",
    isSandbox: true,
    createCharge: (request) =>
      Effect.gen(function*() {
        const gatewayChargeId = request.chargeId
        if (request.paymentMethod === "CREDIT_CARD") {
          if (request.cardToken === "tok_visa") return { _tag: "Paid", gatewayChargeId } as const
          if (request.cardToken === "tok_chargeDeclined") {
            return { _tag: "Declined", gatewayChargeId, reason: "card_declined" } as const
          }
          return { _tag: "InvalidCard", reason: "unknown card token" } as const
        }
        const now = yield* Effect.clockWith((clock) => clock.currentTimeMillis)
        const secret = yield* ids.secret()
        const paymentCode = request.paymentMethod === "PIX"
          ? `00020126580014br.gov.bcb.pix0136${request.chargeId}5204000053039865802BR6304${secret.slice(0, 4)}`
          : `34191.${secret.replace(/\D/g, "").padEnd(5, "0").slice(0, 5)} ${
            request.chargeId.slice(0, 8)
          } ${request.amount}`
        return {
          _tag: "Pending",
          gatewayChargeId,
          paymentCode,
          expiresAt: new Date(now + PENDING_HOURS[request.paymentMethod] * 3_600_000)
        } as const
      }),
    parseWebhook: (_headers, body) => {
      const event = body as { eventId?: unknown; type?: unknown; chargeId?: unknown } | null
      if (
        typeof event?.eventId !== "string" || typeof event.chargeId !== "string" || typeof event.type !== "string"
      ) return Effect.succeed(Option.none())
      const type = event.type === "charge.paid" || event.type === "charge.expired" ? event.type : "other"
      return Effect.succeed(Option.some({ eventId: event.eventId, type, gatewayChargeId: event.chargeId }))
    }
  }))
)
