import { Cause, ConfigProvider, Effect, Exit, Redacted } from "effect"
import { mkdtemp, readFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { loadConfig } from "../src/config"

const load = (env: Record<string, string>) =>
  Effect.runPromiseExit(
    loadConfig.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))
  )

describe("configuration", () => {
  it("defaults to the embedded database and keeps a generated JWT secret in the data folder", async () => {
    const dir = await mkdtemp(join(tmpdir(), "roda-config-"))
    const first = await load({ DATA_DIR: dir })
    const second = await load({ DATA_DIR: dir })
    if (!Exit.isSuccess(first) || !Exit.isSuccess(second)) throw new Error("config failed")
    expect(first.value.database).toEqual({ _tag: "Embedded", dataDir: join(dir, "pg") })
    expect(first.value.port).toBe(3000)
    expect(first.value.host).toBe("127.0.0.1")
    expect(first.value.options.publicBaseUrl).toBe("http://localhost:3000")
    const stored = (await readFile(join(dir, "jwt-secret"), "utf8")).trim()
    expect(Redacted.value(first.value.options.jwtSecret)).toBe(stored)
    expect(Redacted.value(second.value.options.jwtSecret)).toBe(stored)
  })

  it("uses PostgreSQL with DATABASE_URL and then requires JWT_SECRET", async () => {
    expect(Exit.isFailure(await load({ DATABASE_URL: "postgres://localhost/x" }))).toBe(true)
    const exit = await load({
      DATABASE_URL: "postgres://localhost/x",
      JWT_SECRET: "s".repeat(40),
      PAYMENT_GATEWAY: "sandbox",
      SANDBOX_WEBHOOK_SECRET: "w".repeat(40),
      PORT: "8080"
    })
    if (!Exit.isSuccess(exit)) throw new Error("config failed")
    expect(exit.value.database._tag).toBe("Postgres")
    expect(exit.value.port).toBe(8080)
  })

  it("reads platform operators, lower-cased", async () => {
    const exit = await load({ DATA_DIR: "memory", PLATFORM_ADMIN_EMAILS: " Root@Roda.test, ops@roda.test ," })
    if (!Exit.isSuccess(exit)) throw new Error("config failed")
    expect(exit.value.options.platformAdminEmails).toEqual(["root@roda.test", "ops@roda.test"])
    expect(exit.value.database).toEqual({ _tag: "Embedded", dataDir: "memory" })
  })

  it("reads CORS_ORIGINS as origins, and refuses * or anything that is not one", async () => {
    const exit = await load({ DATA_DIR: "memory", CORS_ORIGINS: " https://app.example/ , http://localhost:5173" })
    if (!Exit.isSuccess(exit)) throw new Error("config failed")
    expect(exit.value.options.corsOrigins).toEqual(["https://app.example", "http://localhost:5173"])
    const unset = await load({ DATA_DIR: "memory" })
    if (!Exit.isSuccess(unset)) throw new Error("config failed")
    expect(unset.value.options.corsOrigins).toBeUndefined()
    expect(Exit.isFailure(await load({ DATA_DIR: "memory", CORS_ORIGINS: "*" }))).toBe(true)
    expect(Exit.isFailure(await load({ DATA_DIR: "memory", CORS_ORIGINS: "app.example" }))).toBe(true)
  })

  it("reads the OAuth registration limits (20 and 1,000 an hour by default; 0 is no limit)", async () => {
    const unset = await load({ DATA_DIR: "memory" })
    if (!Exit.isSuccess(unset)) throw new Error("config failed")
    expect(unset.value.options.oauthRegistrationLimit).toEqual({ perAddressPerHour: 20, totalPerHour: 1000 })
    const given = await load({
      DATA_DIR: "memory",
      OAUTH_REGISTRATIONS_PER_ADDRESS_PER_HOUR: "0",
      OAUTH_REGISTRATIONS_PER_HOUR: "50"
    })
    if (!Exit.isSuccess(given)) throw new Error("config failed")
    expect(given.value.options.oauthRegistrationLimit).toEqual({ perAddressPerHour: 0, totalPerHour: 50 })
    expect(Exit.isFailure(await load({ DATA_DIR: "memory", OAUTH_REGISTRATIONS_PER_HOUR: "-1" }))).toBe(true)
    expect(Exit.isFailure(await load({ DATA_DIR: "memory", OAUTH_REGISTRATIONS_PER_ADDRESS_PER_HOUR: "many" }))).toBe(
      true
    )
  })

  it("runs the sandbox gateway by default on the embedded database, with a webhook secret kept in the data folder", async () => {
    const dir = await mkdtemp(join(tmpdir(), "roda-config-"))
    const first = await load({ DATA_DIR: dir })
    const second = await load({ DATA_DIR: dir })
    if (!Exit.isSuccess(first) || !Exit.isSuccess(second)) throw new Error("config failed")
    expect(first.value.paymentGateway).toBe("sandbox")
    const stored = (await readFile(join(dir, "sandbox-webhook-secret"), "utf8")).trim()
    expect(stored).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(Redacted.value(first.value.options.sandboxWebhookSecret!)).toBe(stored)
    expect(Redacted.value(second.value.options.sandboxWebhookSecret!)).toBe(stored)
    expect(stored).not.toBe(Redacted.value(first.value.options.jwtSecret))
    const given = await load({ DATA_DIR: "memory", PAYMENT_GATEWAY: "sandbox", SANDBOX_WEBHOOK_SECRET: "x".repeat(32) })
    if (!Exit.isSuccess(given)) throw new Error("config failed")
    expect(Redacted.value(given.value.options.sandboxWebhookSecret!)).toBe("x".repeat(32))
  })

  it("reads TRUST_PROXY as it is given, and refuses a bad value naming TRUST_PROXY", async () => {
    const unset = await load({ DATA_DIR: "memory" })
    if (!Exit.isSuccess(unset)) throw new Error("config failed")
    expect(unset.value.options.trustProxy).toBeUndefined()
    for (const value of ["1", "loopback, 10.0.0.0/8, fd00::/8", "false"]) {
      const given = await load({ DATA_DIR: "memory", TRUST_PROXY: value })
      if (!Exit.isSuccess(given)) throw new Error(`config failed for ${value}`)
      expect(given.value.options.trustProxy).toBe(value)
    }
    for (const value of ["true", "-1", "loopback, proxy.internal", "10.0.0.0/40"]) {
      const refused = await load({ DATA_DIR: "memory", TRUST_PROXY: value })
      if (!Exit.isFailure(refused)) throw new Error(`TRUST_PROXY=${value} was accepted`)
      expect(Cause.pretty(refused.cause)).toContain("TRUST_PROXY: ")
    }
    const named = await load({ DATA_DIR: "memory", TRUST_PROXY: "loopback,proxy.internal" })
    if (!Exit.isFailure(named)) throw new Error("accepted")
    expect(Cause.pretty(named.cause)).toContain(
      "TRUST_PROXY: \"proxy.internal\" is not a number of hops, an address, a CIDR (10.0.0.0/8, fd00::/8), loopback or private"
    )
  })

  it("reads LOG_FORMAT and LOG_LEVEL, and refuses unknown values", async () => {
    const unset = await load({ DATA_DIR: "memory" })
    if (!Exit.isSuccess(unset)) throw new Error("config failed")
    expect(unset.value.log).toEqual({ format: process.stdout.isTTY ? "pretty" : "json", level: "info" })
    const given = await load({ DATA_DIR: "memory", LOG_FORMAT: "Pretty", LOG_LEVEL: " WARN " })
    if (!Exit.isSuccess(given)) throw new Error("config failed")
    expect(given.value.log).toEqual({ format: "pretty", level: "warn" })
    const json = await load({ DATA_DIR: "memory", LOG_FORMAT: "json", LOG_LEVEL: "debug" })
    if (!Exit.isSuccess(json)) throw new Error("config failed")
    expect(json.value.log).toEqual({ format: "json", level: "debug" })
    const format = await load({ DATA_DIR: "memory", LOG_FORMAT: "xml" })
    if (!Exit.isFailure(format)) throw new Error("config should have failed")
    expect(Cause.pretty(format.cause)).toContain("LOG_FORMAT: xml is not one of json, pretty")
    const level = await load({ DATA_DIR: "memory", LOG_LEVEL: "verbose" })
    if (!Exit.isFailure(level)) throw new Error("config should have failed")
    expect(Cause.pretty(level.cause)).toContain("LOG_LEVEL: verbose is not one of debug, info, warn, error")
  })

  it("requires PAYMENT_GATEWAY with DATABASE_URL, and SANDBOX_WEBHOOK_SECRET for the sandbox there", async () => {
    const postgres = { DATABASE_URL: "postgres://localhost/x", JWT_SECRET: "s".repeat(40) }
    const failure = async (env: Record<string, string>) => {
      const exit = await load(env)
      if (!Exit.isFailure(exit)) throw new Error("config should have failed")
      return Cause.pretty(exit.cause)
    }
    expect(await failure(postgres)).toContain("PAYMENT_GATEWAY: is required when DATABASE_URL is set")
    expect(await failure({ ...postgres, PAYMENT_GATEWAY: "sandbox" })).toContain(
      "SANDBOX_WEBHOOK_SECRET: is required"
    )
    expect(await failure({ ...postgres, PAYMENT_GATEWAY: "paypal", SANDBOX_WEBHOOK_SECRET: "w".repeat(40) }))
      .toContain("PAYMENT_GATEWAY: unknown gateway paypal — set it to sandbox or stripe")
    expect(await failure({ ...postgres, PAYMENT_GATEWAY: "stripe" })).toContain(
      "STRIPE_SECRET_KEY: is required when PAYMENT_GATEWAY is stripe"
    )
    const stripe = await load({
      ...postgres,
      PAYMENT_GATEWAY: "stripe",
      STRIPE_SECRET_KEY: "sk_test_1",
      STRIPE_WEBHOOK_SECRET: "whsec_1"
    })
    if (Exit.isFailure(stripe)) throw new Error("stripe configuration refused")
    expect(stripe.value).toMatchObject({ paymentGateway: "stripe", stripe: { secretKey: expect.anything() } })
    expect(await failure({ DATA_DIR: "memory", PAYMENT_GATEWAY: "sandbox", SANDBOX_WEBHOOK_SECRET: "short" }))
      .toContain("SANDBOX_WEBHOOK_SECRET: must be at least 32 characters long")
    const exit = await load({ ...postgres, PAYMENT_GATEWAY: "sandbox", SANDBOX_WEBHOOK_SECRET: "w".repeat(40) })
    if (!Exit.isSuccess(exit)) throw new Error("config failed")
    expect(exit.value.paymentGateway).toBe("sandbox")
    expect(Redacted.value(exit.value.options.sandboxWebhookSecret!)).toBe("w".repeat(40))
  })
})
