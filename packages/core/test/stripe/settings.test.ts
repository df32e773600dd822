import { ConfigProvider, Effect, Exit, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { loadRodaEnvironment } from "../../node/index"

const load = (env: Record<string, string>) =>
  Effect.runPromiseExit(
    loadRodaEnvironment.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))
  )

const base = {
  DATABASE_URL: "postgres://roda@localhost/roda",
  JWT_SECRET: "a-jwt-secret-that-is-long-enough-for-hs256",
  PAYMENT_GATEWAY: "stripe"
}

const failure = (exit: Exit.Exit<unknown, unknown>) => (Exit.isFailure(exit) ? String(exit.cause) : "succeeded")

describe("PAYMENT_GATEWAY=stripe at start-up", () => {
  it("fails with a clear message when STRIPE_SECRET_KEY or STRIPE_WEBHOOK_SECRET is missing or malformed", async () => {
    expect(failure(await load(base))).toContain("STRIPE_SECRET_KEY: is required when PAYMENT_GATEWAY is stripe")
    expect(failure(await load({ ...base, STRIPE_SECRET_KEY: "sk_test_123" }))).toContain(
      "STRIPE_WEBHOOK_SECRET: is required when PAYMENT_GATEWAY is stripe"
    )
    expect(failure(await load({ ...base, STRIPE_SECRET_KEY: "pk_test_123", STRIPE_WEBHOOK_SECRET: "whsec_1" })))
      .toContain("STRIPE_SECRET_KEY: must start with sk_ or rk_")
    expect(failure(await load({ ...base, STRIPE_SECRET_KEY: "sk_test_123", STRIPE_WEBHOOK_SECRET: "secret" })))
      .toContain("STRIPE_WEBHOOK_SECRET: must start with whsec_")
  })

  it("starts with both, needing no sandbox secret", async () => {
    const exit = await load({ ...base, STRIPE_SECRET_KEY: "sk_test_123", STRIPE_WEBHOOK_SECRET: "whsec_abc" })
    expect(Exit.isSuccess(exit)).toBe(true)
    if (Exit.isSuccess(exit)) {
      expect(exit.value.paymentGateway).toBe("stripe")
      expect(Redacted.value(exit.value.stripe!.secretKey)).toBe("sk_test_123")
      expect(Redacted.value(exit.value.stripe!.webhookSecret)).toBe("whsec_abc")
    }
    expect(failure(await load({ ...base, PAYMENT_GATEWAY: "paypal" }))).toContain(
      "PAYMENT_GATEWAY: unknown gateway paypal — set it to sandbox or stripe"
    )
  })
})
