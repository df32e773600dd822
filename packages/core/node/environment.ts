import { Config, Effect, Either, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { parseTrustProxy } from "../src/http/proxy/trustProxy"
import {
  DEFAULT_OAUTH_REGISTRATION_LIMIT,
  defaultOptions,
  FEED_STATS_MAX_AGE_SECONDS_DEFAULT,
  type OAuthRegistrationLimit,
  type RodaOptions,
  secret
} from "../src/platform/Options"
import type { RateLimitSettings } from "../src/platform/rateLimitSettings"
import { loadStripeSettings } from "../src/platform/stripe/settings"
import type { StripeGatewayOptions } from "../src/platform/stripe/StripeGateway"
import { type DatabaseOptions, DEFAULT_STATEMENT_TIMEOUT_MS } from "../src/sql/Database"
import { blobLocationFromEnvironment } from "./blobs/blobUrl"
import { DEFAULT_DATA_DIR, embeddedFolder } from "./dataDir"
import { DEFAULT_POOL_MAX } from "./settings/database"
import {
  type CheckContext,
  defaultCheckContext,
  type PaymentGatewayName,
  requireSettings,
  rodaSettingChecks,
  type SettingCheck
} from "./settings/index"

export type { PaymentGatewayName } from "./settings/index"

/**
 * Roda's own environment (conventions.md), read the same way by every process that runs it on
 * Node: the HTTP server (`@roda/http-node`, which adds its port, log and telemetry) and the local
 * MCP server (`@roda/mcp` stdio), so both use the same database and secrets.
 */
export interface RodaEnvironment {
  readonly database: DatabaseOptions
  readonly options: RodaOptions
  /**
   * Whether `PUBLIC_BASE_URL` was set. Without it `options.publicBaseUrl` is the default
   * `http://localhost:$PORT`; a process that serves nothing itself (the CLI, the stdio MCP server) then
   * uses the URL the server recorded instead (`publicUrl: "recorded"` of `RodaConfig`).
   */
  readonly publicBaseUrlGiven: boolean
  /** `PAYMENT_GATEWAY`: `sandbox` (core's default, given the webhook secret) or `stripe`. */
  readonly paymentGateway: PaymentGatewayName
  /** `STRIPE_SECRET_KEY` and `STRIPE_WEBHOOK_SECRET`, with `PAYMENT_GATEWAY=stripe` (pass to `stripeGateway`). */
  readonly stripe?: StripeGatewayOptions | undefined
}

/**
 * In embedded mode the JWT secret (and the sandbox webhook secret, `sandbox-webhook-secret`) is
 * generated once and kept in the data folder (beside the database in `pg/`), so tokens survive
 * restarts; with `DATA_DIR=memory` it lives as long as the process.
 */
const embeddedSecret = (
  dataDir: string,
  name = "jwt-secret",
  generate = () => randomBytes(48).toString("base64url")
) =>
  Effect.promise(async () => {
    if (dataDir === "memory") return generate()
    await mkdir(dataDir, { recursive: true })
    const file = join(dataDir, name)
    const created = generate()
    // "wx": of two processes starting at once on a new folder, one writes it and both use it.
    if (await writeFile(file, created, { mode: 0o600, flag: "wx" }).then(() => true, () => false)) return created
    for (let tries = 0;; tries++) {
      const existing = (await readFile(file, "utf8")).trim()
      if (existing !== "" || tries === 50) return existing
      await new Promise((resolve) => setTimeout(resolve, 20)) // its maker is writing it
    }
  })

/** `CORS_ORIGINS`: comma-separated origins (`https://app.example`), checked by `corsOriginsCheck`. */
const parseCorsOrigins = (value: string) =>
  value.split(",").map((entry) => entry.trim()).filter(Boolean).map((entry) => new URL(entry).origin)

/** A count per hour that may be 0 (no limit), checked by `oauthLimitsCheck`. */
const hourlyLimit = (name: string, fallback: number) => Config.integer(name).pipe(Config.withDefault(fallback))

/** `OAUTH_REGISTRATIONS_PER_ADDRESS_PER_HOUR` (20) and `OAUTH_REGISTRATIONS_PER_HOUR` (1000); 0 is no limit. */
const loadOAuthRegistrationLimit = Effect.gen(function*() {
  return {
    perAddressPerHour: yield* hourlyLimit(
      "OAUTH_REGISTRATIONS_PER_ADDRESS_PER_HOUR",
      DEFAULT_OAUTH_REGISTRATION_LIMIT.perAddressPerHour
    ),
    totalPerHour: yield* hourlyLimit("OAUTH_REGISTRATIONS_PER_HOUR", DEFAULT_OAUTH_REGISTRATION_LIMIT.totalPerHour)
  } satisfies OAuthRegistrationLimit
})

/** `TRUST_PROXY`: unset, `false`, a number of hops, or a comma list of addresses, CIDRs, `loopback`, `private`. */
const loadTrustProxy = Effect.gen(function*() {
  const given = yield* Config.option(Config.string("TRUST_PROXY"))
  if (Option.isNone(given)) return undefined
  const rule = parseTrustProxy(given.value)
  return Either.isLeft(rule) ? yield* Effect.dieMessage(`TRUST_PROXY: ${rule.left}`) : given.value
})

export interface EnvironmentOptions extends Partial<CheckContext> {
  /** The program's own settings, checked with Roda's (all problems are reported together). */
  readonly checks?: ReadonlyArray<SettingCheck> | undefined
}

/** The environment, once checked. */
const readEnvironment = Effect.gen(function*() {
  const port = yield* Config.port("PORT").pipe(Config.withDefault(3000))
  const databaseUrl = yield* Config.option(Config.redacted("DATABASE_URL"))
  const dataDir = yield* Config.string("DATA_DIR").pipe(Config.withDefault(DEFAULT_DATA_DIR))
  const jwtSecret = yield* Config.option(Config.redacted("JWT_SECRET"))
  const givenPublicBaseUrl = yield* Config.option(Config.string("PUBLIC_BASE_URL"))
  const publicBaseUrl = Option.getOrElse(givenPublicBaseUrl, () => `http://localhost:${port}`)
  const admins = yield* Config.string("PLATFORM_ADMIN_EMAILS").pipe(Config.withDefault(""))
  const smtpUrl = yield* Config.option(Config.string("SMTP_URL"))
  const gatewayName = yield* Config.option(Config.string("PAYMENT_GATEWAY"))
  const sandboxSecret = yield* Config.option(Config.redacted("SANDBOX_WEBHOOK_SECRET"))
  const corsOrigins = yield* Config.option(Config.string("CORS_ORIGINS"))
  const oauthRegistrationLimit = yield* loadOAuthRegistrationLimit
  const trustProxy = yield* loadTrustProxy
  const rateLimits = yield* Config.option(Config.string("RATE_LIMITS"))
  // Checked already (feedStatsMaxAgeCheck): a whole number of seconds.
  const feedStatsMaxAgeSeconds = yield* Config.integer("FEED_STATS_MAX_AGE_SECONDS").pipe(
    Config.withDefault(FEED_STATS_MAX_AGE_SECONDS_DEFAULT)
  )
  const webhooksAllowPrivate = yield* Config.boolean("WEBHOOKS_ALLOW_PRIVATE").pipe(Config.withDefault(false))
  const statementTimeoutMs = yield* Config.integer("DATABASE_STATEMENT_TIMEOUT_MS").pipe(
    Config.withDefault(DEFAULT_STATEMENT_TIMEOUT_MS),
    Config.validate({
      message: "must be a whole number of milliseconds, 0 for none",
      validation: (value) => value >= 0
    })
  )

  // Checked already (poolMaxCheck): a whole number from 1.
  const poolMax = yield* Config.integer("PGPOOL_MAX").pipe(Config.withDefault(DEFAULT_POOL_MAX))
  const database: DatabaseOptions = Option.isSome(databaseUrl)
    ? { _tag: "Postgres", url: Redacted.make(Redacted.value(databaseUrl.value).trim()), statementTimeoutMs, poolMax }
    : { _tag: "Embedded", dataDir: embeddedFolder(dataDir) }
  // Checked already: JWT_SECRET is there with DATABASE_URL, PAYMENT_GATEWAY one of the gateways.
  const resolvedSecret = Option.isSome(jwtSecret) ? jwtSecret.value : secret(yield* embeddedSecret(dataDir))
  const paymentGateway = Option.getOrElse(gatewayName, () => "sandbox").trim().toLowerCase() as PaymentGatewayName
  // SANDBOX_WEBHOOK_SECRET: generated and kept like JWT_SECRET (a Standard Webhooks `whsec_` key).
  const sandboxWebhookSecret = Option.isSome(sandboxSecret)
    ? sandboxSecret.value
    : paymentGateway !== "sandbox"
    ? undefined // another gateway: no sandbox, no secret file made for it
    : secret(
      yield* embeddedSecret(dataDir, "sandbox-webhook-secret", () => `whsec_${randomBytes(32).toString("base64")}`)
    )

  const stripe = paymentGateway === "stripe" ? yield* loadStripeSettings : undefined
  const blobStore = yield* blobLocationFromEnvironment(database, dataDir)

  return {
    database,
    publicBaseUrlGiven: Option.isSome(givenPublicBaseUrl),
    paymentGateway,
    ...(stripe === undefined ? {} : { stripe }),
    options: defaultOptions({
      jwtSecret: resolvedSecret,
      publicBaseUrl,
      platformAdminEmails: admins.split(",").map((email) => email.trim().toLowerCase()).filter(Boolean),
      smtpUrl: Option.getOrUndefined(smtpUrl),
      sandboxWebhookSecret,
      blobStore,
      ...(Option.isSome(corsOrigins) ? { corsOrigins: parseCorsOrigins(corsOrigins.value) } : {}),
      oauthRegistrationLimit,
      trustProxy,
      webhooksAllowPrivate,
      feedStatsMaxAgeSeconds,
      // Checked already (rateLimitsCheck): JSON of known limits.
      ...(Option.isSome(rateLimits) && rateLimits.value.trim() !== ""
        ? { rateLimits: JSON.parse(rateLimits.value) as RateLimitSettings }
        : {})
    })
  } satisfies RodaEnvironment
})

/**
 * `DATABASE_URL`, `DATA_DIR`, `JWT_SECRET`, `PUBLIC_BASE_URL` (default `http://localhost:$PORT`) and
 * the rest, once every check of `rodaSettingChecks` (and the program's `checks`) has passed: dies with
 * a `SettingsError` naming every problem otherwise.
 */
export const loadRodaEnvironmentWith = (startup: EnvironmentOptions = {}) =>
  Effect.gen(function*() {
    yield* requireSettings([...rodaSettingChecks, ...(startup.checks ?? [])], {
      missingDataDir: startup.missingDataDir ?? defaultCheckContext.missingDataDir,
      connect: startup.connect ?? defaultCheckContext.connect
    })
    return yield* readEnvironment
  })

/** `loadRodaEnvironmentWith()`: as a server reads it, without connecting to the database first. */
export const loadRodaEnvironment = loadRodaEnvironmentWith()
