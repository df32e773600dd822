import { Clock, Context, Effect, Layer, Option, Redacted } from "effect"
import { type PaymentMethod, paymentMethods as allPaymentMethods } from "../domain/Money"
import type { PostalAddress } from "../domain/PostalAddress"
import { Ids } from "./Ids"

export interface ChargeRequest {
  /** Our charge id (the gateway keeps it as a reference, and idempotency keys derive from it). */
  readonly chargeId: string
  /** The selling community (a real gateway picks the seller's connected account from it). */
  readonly communityId?: string | undefined
  readonly amount: number
  readonly currency: string
  readonly paymentMethod: PaymentMethod
  readonly installments: number
  readonly cardToken?: string | undefined
  readonly buyer: {
    readonly name: string
    readonly email: string
    readonly taxId: string
    /** The payer's address (a boleto always has one). */
    readonly address?: PostalAddress | undefined
  }
  /** What the platform keeps of `amount` (fee and buyer-paid interest): a real gateway's application fee. */
  readonly platformAmount?: number | undefined
  /** Keep the card for later charges made without the buyer (subscription renewals). */
  readonly saveCard?: boolean | undefined
  /** A charge made without the buyer present (renewals, retries) against a card kept earlier. */
  readonly offSession?: boolean | undefined
  /**
   * Which attempt at charging `chargeId` this is (renewal retries charge one billing again): each
   * attempt is a new charge at the gateway, with its own idempotency key. 1 when absent.
   */
  readonly attempt?: number | undefined
}

/** What a pending charge asks of the buyer (3-D Secure, PIX QR code, boleto PDF), as the gateway gives it. */
export interface PendingAction {
  readonly type: string
  /** The gateway's own action object (e.g. Stripe's `next_action`), passed to the client as is. */
  readonly details: unknown
  /** What the gateway's client library needs to follow the action (Stripe.js: the PaymentIntent's client secret). */
  readonly clientSecret?: string | undefined
}

/** What the gateway answered: paid at once (approved card), pending (PIX, boleto) or declined. */
export type ChargeOutcome =
  | { readonly _tag: "Paid"; readonly gatewayChargeId: string; readonly settledTo?: string | undefined }
  | {
    readonly _tag: "Pending"
    readonly gatewayChargeId: string
    /** The seller's own account the gateway settles the charge into (Stripe Connect destination), if any. */
    readonly settledTo?: string | undefined
    /** PIX copy-and-paste code or boleto digitable line. */
    readonly paymentCode: string | null
    readonly expiresAt: Date
    readonly action?: PendingAction | undefined
  }
  | { readonly _tag: "Declined"; readonly gatewayChargeId: string; readonly reason: string }
  | { readonly _tag: "InvalidCard"; readonly reason: string }

/**
 * What the gateway knows of one of our charges when asked later (reconciliation after a crash,
 * expiry): paid, still pending, failed or canceled, or never received (`Unknown`).
 */
export type ChargeState =
  | { readonly _tag: "Paid"; readonly gatewayChargeId: string; readonly settledTo?: string | undefined }
  | {
    readonly _tag: "Pending"
    readonly gatewayChargeId: string
    readonly settledTo?: string | undefined
    readonly paymentCode?: string | null | undefined
    readonly expiresAt?: Date | undefined
    readonly action?: PendingAction | undefined
  }
  | { readonly _tag: "Failed"; readonly gatewayChargeId: string; readonly reason: string }
  | { readonly _tag: "Unknown" }

/** Our charge as the gateway is asked about it. */
export interface ChargeReference {
  readonly chargeId: string
  readonly gatewayChargeId: string | null
  /** Which attempt at `chargeId` (see `ChargeRequest.attempt`): each is a charge of its own at the gateway. */
  readonly attempt?: number | undefined
}

/** A refund asked of the gateway: part or all of a paid charge's total. */
export interface RefundRequest {
  /** Our refund id: the gateway's idempotency key derives from it, so a retried refund pays once. */
  readonly refundId?: string | undefined
  readonly chargeId: string
  readonly gatewayChargeId: string | null
  readonly amount: number
  readonly currency: string
}

/** What the gateway answered to a refund. */
export type RefundOutcome =
  | { readonly _tag: "Refunded"; readonly gatewayRefundId: string }
  | { readonly _tag: "Refused"; readonly reason: string }

/** A notification from the gateway, once its signature is checked. */
export interface GatewayEvent {
  readonly eventId: string
  /**
   * `charge.paid`; `charge.expired` (never paid: PIX or boleto past due, canceled, failed);
   * `charge.refunded` (money given back at the gateway: `amount` is the charge's refunded total so
   * far); `charge.dispute_lost` (a chargeback the seller lost: `amount` taken back, no dispute
   * known: the sandbox); `charge.dispute` (a dispute opened or closed: `dispute`); anything else is
   * acknowledged and ignored.
   */
  readonly type:
    | "charge.paid"
    | "charge.expired"
    | "charge.refunded"
    | "charge.dispute_lost"
    | "charge.dispute"
    | "other"
  readonly gatewayChargeId: string
  /** Our charge id when the gateway carries it (metadata): found even before we stored theirs. */
  readonly chargeId?: string | undefined
  readonly amount?: number | undefined
  /** `charge.paid`: the seller's own account the gateway settled the charge into, if any. */
  readonly settledTo?: string | undefined
  readonly dispute?: GatewayDispute | undefined
}

/**
 * A dispute as the gateway reports it: `opened` (the disputed `amount` is taken from the seller
 * until it closes), `won` (given back; an inquiry closed without a chargeback too) or `lost`.
 * `fee`: what the gateway charged for it so far, net of fees it gave back, in `feeCurrency`.
 */
export interface GatewayDispute {
  readonly id: string
  readonly step: "opened" | "won" | "lost"
  readonly amount: number
  /** Upper case; null when the gateway did not say (the charge's currency then). */
  readonly currency: string | null
  readonly reason: string | null
  readonly fee: number
  readonly feeCurrency: string | null
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
  /** The state of a charge at the gateway (called outside any database transaction). */
  readonly lookup: (reference: ChargeReference) => Effect.Effect<ChargeState>
  /** Cancels a charge still pending at the gateway (expiry); its state afterwards (it may have been paid). */
  readonly cancel: (reference: ChargeReference) => Effect.Effect<ChargeState>
  /** Payment methods the gateway takes. */
  readonly paymentMethods: ReadonlyArray<PaymentMethod>
  /** The most installments the gateway offers for cards of a business country (1: none). */
  readonly maxInstallments: (country: string) => number
  /** Gives money of a paid charge back to the buyer; a gateway without it refuses refunds. */
  readonly refund?: ((request: RefundRequest) => Effect.Effect<RefundOutcome>) | undefined
  /**
   * The gateway's account also takes payments of other systems (Stripe): an event about a charge
   * Roda does not know is theirs, acknowledged and ignored (not refused with 404, which makes the
   * gateway retry it for days).
   */
  readonly foreignChargesExist?: boolean | undefined
  /** Days after payment within which the gateway accepts a refund (default 180). */
  readonly refundWindowDays?: number | undefined
  /**
   * Verifies and reads a webhook from its headers (lower-case names) and its raw body, exactly as
   * received (signatures cover the bytes); none when it is not authentic or not understood.
   */
  readonly parseWebhook: (
    headers: Readonly<Record<string, string | undefined>>,
    body: string
  ) => Effect.Effect<Option.Option<GatewayEvent>>
}>() {}

const PENDING_HOURS: Record<PaymentMethod, number> = { CREDIT_CARD: 0, PIX: 1, BOLETO: 72 }

/** How many of its answers the sandbox remembers for reconciliation. */
const SANDBOX_MEMORY = 100_000

/** How far a sandbox webhook's `webhook-timestamp` may be from now (either way). */
export const SANDBOX_WEBHOOK_TOLERANCE_SECONDS = 5 * 60

const encoder = new TextEncoder()

const fromBase64 = (text: string): Uint8Array<ArrayBuffer> | undefined => {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) return undefined
  return new Uint8Array(Array.from(atob(text), (char) => char.charCodeAt(0)))
}

const toBase64 = (bytes: Uint8Array) => btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(""))

/** Standard Webhooks keys: `whsec_` + base64 of the key; any other secret is the key's UTF-8 bytes. */
const hmacKey = (secret: string) => {
  const bytes = secret.startsWith("whsec_")
    ? fromBase64(secret.slice(6)) ?? encoder.encode(secret)
    : encoder.encode(secret)
  return crypto.subtle.importKey("raw", bytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"])
}

const signedContent = (id: string, timestamp: string, body: string) => encoder.encode(`${id}.${timestamp}.${body}`)

/**
 * The headers of a sandbox webhook signed as the sandbox gateway expects (Standard Webhooks):
 * `webhook-id`, `webhook-timestamp` (Unix seconds; now by default) and `webhook-signature:
 * v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`. For tests, the CLI and anyone simulating
 * the bank; `body` is the exact text to send.
 */
export const signSandboxWebhook = (
  secret: string,
  body: string,
  options: { readonly id?: string | undefined; readonly timestamp?: number | undefined } = {}
): Effect.Effect<Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string>> =>
  Effect.gen(function*() {
    const id = options.id ?? `msg_${crypto.randomUUID()}`
    const timestamp = String(options.timestamp ?? Math.floor((yield* Clock.currentTimeMillis) / 1000))
    const signature = yield* Effect.promise(async () =>
      crypto.subtle.sign("HMAC", await hmacKey(secret), signedContent(id, timestamp, body))
    )
    return {
      "webhook-id": id,
      "webhook-timestamp": timestamp,
      "webhook-signature": `v1,${toBase64(new Uint8Array(signature))}`
    }
  })

/**
 * True when one of the `v1,` signatures of `webhook-signature` (space-separated, so keys can be
 * rotated) is the HMAC of `{id}.{timestamp}.{body}` with the secret, checked by WebCrypto's `verify`
 * (constant time), and the timestamp is within the tolerance of now.
 */
const verifySandboxWebhook = (
  secret: Redacted.Redacted<string> | undefined,
  headers: Readonly<Record<string, string | undefined>>,
  body: string
) =>
  Effect.gen(function*() {
    const id = headers["webhook-id"]
    const timestamp = headers["webhook-timestamp"]
    const signatures = headers["webhook-signature"]
    if (secret === undefined || !id || !timestamp || !signatures || !/^\d{1,12}$/.test(timestamp)) return false
    const now = yield* Clock.currentTimeMillis
    if (Math.abs(now / 1000 - Number(timestamp)) > SANDBOX_WEBHOOK_TOLERANCE_SECONDS) return false
    const candidates = signatures.split(" ").flatMap((entry) => {
      const [version, value] = entry.split(",", 2)
      const bytes = version === "v1" && value !== undefined ? fromBase64(value) : undefined
      return bytes === undefined ? [] : [bytes]
    })
    if (candidates.length === 0) return false
    return yield* Effect.promise(async () => {
      const key = await hmacKey(Redacted.value(secret))
      const content = signedContent(id, timestamp, body)
      for (const candidate of candidates) {
        if (await crypto.subtle.verify("HMAC", key, candidate, content)) return true
      }
      return false
    })
  })

export interface SandboxGatewayOptions {
  /** The HMAC secret webhooks are signed with; none refuses every webhook. */
  readonly webhookSecret?: Redacted.Redacted<string> | undefined
}

/**
 * The sandbox: card token `tok_visa` is approved, `tok_chargeDeclined` declined, any other token is
 * invalid; PIX and boleto stay pending until paid through the sandbox route or a signed webhook
 * (`signSandboxWebhook`) with the body `{"eventId", "type": "charge.paid", "chargeId"}` (the gateway
 * charge id is our charge id).
 */
export const sandboxGateway = (options: SandboxGatewayOptions) =>
  Layer.effect(
    PaymentGateway,
    Effect.map(Ids, (ids) => {
      // What this process's sandbox answered: the "gateway side" a reconciliation asks (lost on restart,
      // like a charge that never reached a gateway).
      const known = new Map<string, ChargeState>()
      const remember = <A extends ChargeOutcome>(chargeId: string, outcome: A) => {
        // bounded: a long-running sandbox forgets its oldest answers (as a restart would)
        if (known.size >= SANDBOX_MEMORY) known.delete(known.keys().next().value!)
        if (outcome._tag === "Paid" || outcome._tag === "Pending") known.set(chargeId, outcome)
        if (outcome._tag === "Declined") known.set(chargeId, { ...outcome, _tag: "Failed" })
        return outcome
      }
      return {
        name: "sandbox",
        isSandbox: true,
        paymentMethods: allPaymentMethods,
        maxInstallments: () => 12,
        createCharge: (request) =>
          Effect.gen(function*() {
            const gatewayChargeId = request.chargeId
            if (request.paymentMethod === "CREDIT_CARD") {
              if (request.cardToken === "tok_visa") {
                return remember(request.chargeId, { _tag: "Paid", gatewayChargeId } as const)
              }
              if (request.cardToken === "tok_chargeDeclined") {
                return remember(
                  request.chargeId,
                  { _tag: "Declined", gatewayChargeId, reason: "card_declined" } as const
                )
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
            return remember(
              request.chargeId,
              {
                _tag: "Pending",
                gatewayChargeId,
                paymentCode,
                expiresAt: new Date(now + PENDING_HOURS[request.paymentMethod] * 3_600_000)
              } as const
            )
          }),
        lookup: (reference) =>
          Effect.sync((): ChargeState => {
            const state = known.get(reference.chargeId)
            return state ?? { _tag: "Unknown" }
          }),
        cancel: (reference) =>
          Effect.sync((): ChargeState => {
            const state = known.get(reference.chargeId)
            if (state?._tag !== "Pending") return state ?? { _tag: "Unknown" }
            const canceled = { _tag: "Failed", gatewayChargeId: state.gatewayChargeId, reason: "canceled" } as const
            known.set(reference.chargeId, canceled)
            return canceled
          }),
        refundWindowDays: 180,
        refund: (request) =>
          Effect.map(
            ids.next,
            (id) => ({ _tag: "Refunded", gatewayRefundId: `re_${request.chargeId.slice(0, 8)}_${id}` } as const)
          ),
        parseWebhook: (headers, body) =>
          Effect.gen(function*() {
            if (!(yield* verifySandboxWebhook(options.webhookSecret, headers, body))) return Option.none()
            const event = parseJson(body) as { eventId?: unknown; type?: unknown; chargeId?: unknown } | null
            if (
              typeof event?.eventId !== "string" || typeof event.chargeId !== "string" ||
              typeof event.type !== "string"
            ) return Option.none()
            const type = event.type === "charge.paid" || event.type === "charge.expired" ? event.type : "other"
            return Option.some<GatewayEvent>({ eventId: event.eventId, type, gatewayChargeId: event.chargeId })
          })
      }
    })
  )

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}
