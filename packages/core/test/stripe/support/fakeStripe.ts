import { randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import Stripe from "stripe"

/** One request the stand-in received: what Roda sent to "Stripe". */
export interface Recorded {
  readonly method: string
  readonly path: string
  readonly idempotencyKey: string | undefined
  readonly params: Record<string, any>
}

type Json = Record<string, any>

/** `a[b][0]=c` form encoding (what the SDK sends) back into nested objects; values stay strings. */
const parseForm = (body: string): Json => {
  const out: Json = {}
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const path = rawKey.replace(/\]/g, "").split("[")
    let node: any = out
    path.forEach((key, index) => {
      if (index === path.length - 1) node[key] = value
      else node = node[key] ??= /^\d+$/.test(path[index + 1]!) ? [] : {}
    })
  }
  return out
}

const id = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 24)}`

/**
 * A local stand-in of Stripe's HTTP API for the calls Roda makes (customers, PaymentIntents create,
 * retrieve, search, cancel, refunds), answering the documented object shapes. Test card tokens
 * behave as in Stripe's test mode: `tok_visa` succeeds, `tok_chargeDeclined` is declined (402
 * `card_error`), `tok_threeDSecure2Required` needs 3-D Secure (`requires_action`, `use_stripe_sdk`);
 * any other token is `resource_missing`. PIX and boleto answer `requires_action` with their display
 * details. An `Idempotency-Key` seen before replays the first answer, as Stripe does. Off-session
 * charges of a customer in `declineOffSession` are declined (`authentication_required`).
 */
export const startFakeStripe = async () => {
  const requests: Array<Recorded> = []
  const intents = new Map<string, Json>()
  const replies = new Map<string, { status: number; body: Json }>()
  const declineOffSession = new Set<string>()
  const refunds: Array<Json> = []

  const intentOf = (params: Json, status: string, extra: Json = {}): Json => {
    const intent = {
      id: id("pi"),
      object: "payment_intent",
      amount: Number(params.amount),
      amount_received: status === "succeeded" ? Number(params.amount) : 0,
      application_fee_amount: params.application_fee_amount === undefined
        ? null
        : Number(params.application_fee_amount),
      cancellation_reason: null,
      client_secret: `${id("pi")}_secret_${id("s")}`,
      created: Math.floor(Date.now() / 1000),
      currency: params.currency,
      customer: params.customer ?? null,
      last_payment_error: null,
      latest_charge: status === "succeeded" ? id("ch") : null,
      livemode: false,
      metadata: params.metadata ?? {},
      next_action: null,
      on_behalf_of: params.on_behalf_of ?? null,
      payment_method: params.payment_method ?? id("pm"),
      payment_method_types: params.allowed_payment_method_types ?? ["card"],
      setup_future_usage: params.setup_future_usage ?? null,
      status,
      transfer_data: params.transfer_data ? { destination: params.transfer_data.destination } : null,
      ...extra
    }
    intents.set(intent.id, intent)
    return intent
  }

  const cardError = (params: Json, code: string, declineCode: string) => {
    const intent = intentOf(params, "requires_payment_method")
    intent.last_payment_error = {
      type: "card_error",
      code,
      decline_code: declineCode,
      message: "Your card was declined."
    }
    return {
      status: 402,
      body: {
        error: {
          type: "card_error",
          code,
          decline_code: declineCode,
          message: "Your card was declined.",
          payment_intent: intent
        }
      }
    }
  }

  const createIntent = (params: Json): { status: number; body: Json } => {
    const type = params.allowed_payment_method_types?.[0] ?? "card"
    const now = Math.floor(Date.now() / 1000)
    if (type === "pix") {
      const expires = now + Number(params.payment_method_options?.pix?.expires_after_seconds ?? 86400)
      return {
        status: 200,
        body: intentOf(params, "requires_action", {
          next_action: {
            type: "pix_display_qr_code",
            pix_display_qr_code: {
              data: `00020101021226880014br.gov.bcb.pix2566qr.stripe.com/${id("pix")}5204000053039865802BR6304ABCD`,
              expires_at: expires,
              hosted_instructions_url: "https://payments.stripe.com/pix/instructions/test",
              image_url_png: "https://qr.stripe.com/test.png",
              image_url_svg: "https://qr.stripe.com/test.svg"
            }
          }
        })
      }
    }
    if (type === "boleto") {
      // As Stripe: a boleto needs the payer's name, e-mail, full address and CPF/CNPJ.
      const data = params.payment_method_data ?? {}
      const address = data.billing_details?.address ?? {}
      const missing = [
        ["billing_details[name]", data.billing_details?.name],
        ["billing_details[email]", data.billing_details?.email],
        ...["line1", "city", "state", "postal_code", "country"].map((key) => [
          `billing_details[address][${key}]`,
          address[key]
        ]),
        ["boleto[tax_id]", data.boleto?.tax_id]
      ].find(([, value]) => !value)
      if (missing) {
        return {
          status: 400,
          body: {
            error: {
              type: "invalid_request_error",
              code: "parameter_missing",
              param: `payment_method_data[${missing[0]}]`,
              message: `Missing required param: payment_method_data[${missing[0]}].`
            }
          }
        }
      }
      const expires = now + Number(params.payment_method_options?.boleto?.expires_after_days ?? 3) * 86400
      return {
        status: 200,
        body: intentOf(params, "requires_action", {
          next_action: {
            type: "boleto_display_details",
            boleto_display_details: {
              expires_at: expires,
              hosted_voucher_url: "https://payments.stripe.com/boleto/voucher/test",
              number: "01010101010101010101010101010101010101010101010",
              pdf: "https://payments.stripe.com/boleto/voucher/test/pdf"
            }
          }
        })
      }
    }
    if (params.off_session === "true") {
      if (declineOffSession.has(params.customer)) {
        return cardError(params, "authentication_required", "authentication_required")
      }
      return { status: 200, body: intentOf(params, "succeeded") }
    }
    const token = params.payment_method_data?.card?.token ?? params.payment_method
    if (token === "tok_visa" || token === "pm_card_visa") return { status: 200, body: intentOf(params, "succeeded") }
    if (token === "tok_chargeDeclined") return cardError(params, "card_declined", "generic_decline")
    if (token === "tok_threeDSecure2Required") {
      return {
        status: 200,
        body: intentOf(params, "requires_action", {
          next_action: {
            type: "use_stripe_sdk",
            use_stripe_sdk: { type: "three_d_secure_redirect", stripe_js: "https://hooks.stripe.com/3d_secure_2/test" }
          }
        })
      }
    }
    return {
      status: 400,
      body: {
        error: {
          type: "invalid_request_error",
          code: "resource_missing",
          param: "payment_method_data[card][token]",
          message: `No such token: '${token}'`
        }
      }
    }
  }

  const route = (method: string, path: string, params: Json, query: URLSearchParams) => {
    if (method === "POST" && path === "/v1/customers") {
      return {
        status: 200,
        body: { id: id("cus"), object: "customer", email: params.email ?? null, metadata: params.metadata ?? {} }
      }
    }
    if (method === "POST" && path === "/v1/payment_intents") return createIntent(params)
    if (method === "GET" && path === "/v1/payment_intents/search") {
      const match = /metadata\['([^']+)'\]:'([^']+)'/.exec(query.get("query") ?? "")
      const data = [...intents.values()].filter((intent) => match && intent.metadata[match[1]!] === match[2])
      return {
        status: 200,
        body: { object: "search_result", data, has_more: false, next_page: null, url: "/v1/payment_intents/search" }
      }
    }
    const cancel = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path)
    if (method === "POST" && cancel) {
      const intent = intents.get(cancel[1]!)
      if (!intent) return { status: 404, body: { error: { type: "invalid_request_error", code: "resource_missing" } } }
      if (intent.status === "succeeded" || intent.status === "canceled") {
        return {
          status: 400,
          body: {
            error: {
              type: "invalid_request_error",
              code: "payment_intent_unexpected_state",
              message: `status ${intent.status}`
            }
          }
        }
      }
      Object.assign(intent, {
        status: "canceled",
        cancellation_reason: params.cancellation_reason ?? null,
        next_action: null
      })
      return { status: 200, body: intent }
    }
    const one = /^\/v1\/payment_intents\/([^/]+)$/.exec(path)
    if (method === "GET" && one) {
      const intent = intents.get(one[1]!)
      return intent
        ? { status: 200, body: intent }
        : { status: 404, body: { error: { type: "invalid_request_error", code: "resource_missing" } } }
    }
    if (method === "POST" && path === "/v1/refunds") {
      const intent = intents.get(params.payment_intent)
      if (!intent || intent.status !== "succeeded") {
        return {
          status: 400,
          body: { error: { type: "invalid_request_error", code: "charge_not_refundable", message: "not refundable" } }
        }
      }
      const refund = {
        id: id("re"),
        object: "refund",
        amount: Number(params.amount ?? intent.amount),
        currency: intent.currency,
        metadata: params.metadata ?? {},
        payment_intent: intent.id,
        status: "succeeded",
        failure_reason: null
      }
      refunds.push(refund)
      return { status: 200, body: refund }
    }
    return {
      status: 404,
      body: { error: { type: "invalid_request_error", message: `stand-in: no route ${method} ${path}` } }
    }
  }

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://stripe.test")
      const params = parseForm(Buffer.concat(chunks).toString("utf8"))
      const key = request.headers["idempotency-key"] as string | undefined
      requests.push({ method: request.method ?? "GET", path: url.pathname, idempotencyKey: key, params })
      const cacheKey = key === undefined ? undefined : `${request.method} ${url.pathname} ${key}`
      const reply = (cacheKey && replies.get(cacheKey)) ||
        route(request.method ?? "GET", url.pathname, params, url.searchParams)
      if (cacheKey) replies.set(cacheKey, reply)
      response.writeHead(reply.status, { "content-type": "application/json", "request-id": id("req") })
      response.end(JSON.stringify(reply.body))
    })
  }

  const server = createServer(handle)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port

  /** The PaymentIntent Roda created for one of our charges. */
  const intentFor = (chargeId: string) =>
    [...intents.values()].find((intent) => intent.metadata.roda_charge_id === chargeId)

  return {
    port,
    requests,
    intents,
    refunds,
    declineOffSession,
    intentFor,
    /** The requests to one path (`POST /v1/payment_intents`). */
    calls: (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path),
    /** The buyer pays (PIX, boleto, 3-D Secure done): the intent succeeds at "Stripe". */
    succeed: (intentId: string) => {
      const intent = intents.get(intentId)!
      Object.assign(intent, {
        status: "succeeded",
        next_action: null,
        amount_received: intent.amount,
        latest_charge: id("ch")
      })
      return intent
    },
    fail: (intentId: string) => {
      const intent = intents.get(intentId)!
      Object.assign(intent, {
        status: "requires_payment_method",
        next_action: null,
        last_payment_error: { type: "card_error", code: "payment_intent_payment_attempt_expired" }
      })
      return intent
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>

export const STRIPE_TEST_WEBHOOK_SECRET = "whsec_test_roda_stand_in_secret"

/** A Stripe event as its API sends it (`object: "event"`, `data.object`). */
export const stripeEvent = (type: string, object: Json, eventId = id("evt")) => ({
  id: eventId,
  object: "event",
  api_version: "2026-10-28.endive",
  created: Math.floor(Date.now() / 1000),
  data: { object },
  livemode: false,
  pending_webhooks: 1,
  request: { id: null, idempotency_key: null },
  type
})

/** The `Stripe-Signature` header of a payload, made with the SDK's own test helper. */
export const signStripe = (payload: string, options: { secret?: string; timestamp?: number } = {}) =>
  Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? STRIPE_TEST_WEBHOOK_SECRET,
    ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp })
  })
