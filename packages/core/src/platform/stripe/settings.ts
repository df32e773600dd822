import { Config, Effect, Option, Redacted } from "effect"
import type { StripeGatewayOptions } from "./StripeGateway"

const required = (name: string, what: string, prefixes: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const value = yield* Config.option(Config.redacted(name))
    if (Option.isNone(value) || Redacted.value(value.value).trim() === "") {
      return yield* Effect.dieMessage(`${name} is required when PAYMENT_GATEWAY is stripe (${what})`)
    }
    const text = Redacted.value(value.value).trim()
    if (!prefixes.some((prefix) => text.startsWith(prefix))) {
      return yield* Effect.dieMessage(`${name} must start with ${prefixes.join(" or ")} (${what})`)
    }
    return Redacted.make(text)
  })

/**
 * `STRIPE_SECRET_KEY` and `STRIPE_WEBHOOK_SECRET`, read at start-up when `PAYMENT_GATEWAY=stripe`:
 * start-up fails with a message naming the missing or malformed one.
 */
export const loadStripeSettings: Effect.Effect<StripeGatewayOptions> = Effect.gen(function*() {
  const secretKey = yield* required(
    "STRIPE_SECRET_KEY",
    "the secret or restricted key of the platform's Stripe account",
    ["sk_", "rk_"]
  )
  const webhookSecret = yield* required(
    "STRIPE_WEBHOOK_SECRET",
    "the signing secret of the endpoint POST /api/checkout/webhooks/stripe in the Stripe dashboard",
    ["whsec_"]
  )
  return { secretKey, webhookSecret }
}).pipe(Effect.orDie)
