import type { SqlClient } from "@effect/sql"
import type { Layer } from "effect"
import { testPlatform } from "../../../../../testing/passwords"
import {
  defaultOptions,
  type Ids,
  makeRoda,
  type PaymentGateway,
  RATE_LIMITS_OFF,
  type Roda,
  type RodaConfig,
  type RodaOptions,
  secret,
  stripeGateway
} from "../../../node/index"
import { sandboxWebhook } from "../../commerce/checkout-support"
import type { Client } from "../../support/harness"
import { PLATFORM_ADMIN, SANDBOX_WEBHOOK_SECRET, startRoda, testDatabase } from "../../support/harness"
import { type FakeStripe, signStripe, startFakeStripe, STRIPE_TEST_WEBHOOK_SECRET, stripeEvent } from "./fakeStripe"

type GatewayLayer = ReturnType<typeof stripeGateway>

/** The Stripe layer pointed at the stand-in (as `PAYMENT_GATEWAY=stripe` builds it, with a test host). */
export const stripeLayer = (fake: FakeStripe) =>
  stripeGateway({
    secretKey: secret("sk_test_roda_stand_in"),
    webhookSecret: secret(STRIPE_TEST_WEBHOOK_SECRET),
    host: "127.0.0.1",
    port: fake.port,
    protocol: "http"
  })

/** A Roda selling through `gateway` (a layer of `PaymentGateway`), as the suites start one. */
export const rodaWith = (
  gateway: GatewayLayer | Layer.Layer<PaymentGateway, never, Ids | SqlClient.SqlClient>,
  more: {
    readonly clock?: RodaConfig["clock"]
    readonly options?: Partial<RodaOptions>
    /** Spans on (statement counts: `support/queries.ts`). */
    readonly tracing?: boolean
  } = {}
): Roda =>
  makeRoda({
    database: testDatabase(),
    platform: testPlatform,
    ...(more.clock === undefined ? {} : { clock: more.clock }),
    ...(more.tracing === true ? { tracing: true } : {}),
    options: defaultOptions({
      jwtSecret: secret("test-secret-that-is-long-enough-for-hs256"),
      publicBaseUrl: "http://roda.test",
      platformAdminEmails: [PLATFORM_ADMIN],
      sandboxWebhookSecret: secret(SANDBOX_WEBHOOK_SECRET),
      // the suites run the jobs themselves (no background worker racing them)
      runJobs: false,
      rateLimits: RATE_LIMITS_OFF,
      ...more.options
    }),
    paymentGateway: gateway
  })

/** Posts a Stripe event signed with the suites' endpoint secret (or as the options say). */
export const postStripeEvent = (
  api: Client,
  event: unknown,
  options: { readonly secret?: string; readonly timestamp?: number; readonly signature?: string } = {}
) => {
  const raw = JSON.stringify(event)
  return api.call("POST", "/api/checkout/webhooks/stripe", {
    raw,
    headers: { "stripe-signature": options.signature ?? signStripe(raw, options) }
  })
}

/**
 * A gateway the checkout conformance runs against: its Roda, and how the bank pays a pending charge
 * through the gateway's own webhook.
 */
export interface GatewayDriver {
  readonly name: "sandbox" | "stripe"
  readonly roda: Roda
  readonly fake?: FakeStripe | undefined
  readonly payByWebhook: (
    api: Client,
    chargeId: string,
    eventId?: string
  ) => Promise<Awaited<ReturnType<Client["call"]>>>
  readonly dispose: () => Promise<void>
}

export const sandboxDriver = (): GatewayDriver => {
  const roda = startRoda()
  return {
    name: "sandbox",
    roda,
    payByWebhook: (api, chargeId, eventId = `evt_${chargeId}`) =>
      sandboxWebhook(api, { eventId, type: "charge.paid", chargeId }),
    dispose: () => roda.dispose()
  }
}

export const stripeDriver = async (): Promise<GatewayDriver> => {
  const fake = await startFakeStripe()
  const roda = rodaWith(stripeLayer(fake))
  return {
    name: "stripe",
    roda,
    fake,
    payByWebhook: (api, chargeId, eventId) => {
      const intent = fake.intentFor(chargeId)
      if (intent === undefined) throw new Error(`no PaymentIntent for charge ${chargeId}`)
      // An event already built is re-sent as is (a replay); a new one pays the intent first.
      if (intent.status !== "succeeded") fake.succeed(intent.id)
      return postStripeEvent(api, stripeEvent("payment_intent.succeeded", intent, eventId))
    },
    dispose: async () => {
      await roda.dispose()
      await fake.close()
    }
  }
}
