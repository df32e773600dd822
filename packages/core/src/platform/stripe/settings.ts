import { Config, Effect, Option, Redacted } from "effect"
import type { StripeGatewayOptions } from "./StripeGateway"

const KEYS = [
  {
    variable: "STRIPE_SECRET_KEY",
    what: "the secret or restricted key of the platform's Stripe account",
    where: "Stripe dashboard, Developers → API keys",
    prefixes: ["sk_", "rk_"]
  },
  {
    variable: "STRIPE_WEBHOOK_SECRET",
    what: "the signing secret of the endpoint POST /api/checkout/webhooks/stripe",
    where: "Stripe dashboard, Developers → Webhooks → the endpoint → Signing secret",
    prefixes: ["whsec_"]
  }
] as const

/**
 * What is wrong with `STRIPE_SECRET_KEY` and `STRIPE_WEBHOOK_SECRET` when `PAYMENT_GATEWAY=stripe`
 * (missing, or not the kind of key it must be), each naming its variable and the fix.
 */
export const stripeKeyProblems = (env: Readonly<Record<string, string | undefined>>) =>
  KEYS.flatMap(({ prefixes, variable, what, where }) => {
    const value = env[variable]?.trim() ?? ""
    if (value === "") {
      return [{
        variable,
        problem: `is required when PAYMENT_GATEWAY is stripe (${what})`,
        fix: `copy it from the ${where}`
      }]
    }
    return prefixes.some((prefix) => value.startsWith(prefix)) ? [] : [{
      variable,
      problem: `must start with ${prefixes.join(" or ")} (${what})`,
      fix: `copy it from the ${where}`
    }]
  })

/**
 * `STRIPE_SECRET_KEY` and `STRIPE_WEBHOOK_SECRET`, read at start-up when `PAYMENT_GATEWAY=stripe`:
 * start-up fails with a line per missing or malformed one, naming it.
 */
export const loadStripeSettings: Effect.Effect<StripeGatewayOptions> = Effect.gen(function*() {
  const env: Record<string, string | undefined> = {}
  for (const { variable } of KEYS) {
    env[variable] = Option.getOrUndefined(yield* Config.option(Config.string(variable)))
  }
  const problems = stripeKeyProblems(env)
  if (problems.length > 0) {
    return yield* Effect.dieMessage(
      problems.map((found) => `${found.variable}: ${found.problem} — ${found.fix}`).join("\n")
    )
  }
  return {
    secretKey: Redacted.make(env.STRIPE_SECRET_KEY!.trim()),
    webhookSecret: Redacted.make(env.STRIPE_WEBHOOK_SECRET!.trim())
  }
}).pipe(Effect.orDie)
