import { Config, Effect, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import {
  DEFAULT_OAUTH_REGISTRATION_LIMIT,
  defaultOptions,
  type OAuthRegistrationLimit,
  type RodaOptions,
  secret
} from "../src/platform/Options"
import { loadStripeSettings } from "../src/platform/stripe/settings"
import type { StripeGatewayOptions } from "../src/platform/stripe/StripeGateway"
import { type DatabaseOptions, DEFAULT_STATEMENT_TIMEOUT_MS } from "../src/sql/Database"
import { DEFAULT_DATA_DIR, embeddedFolder } from "./dataDir"

/**
 * Roda's own environment (conventions.md), read the same way by every process that runs it on
 * Node: the HTTP server (`@roda/http-node`, which adds its port, log and telemetry) and the local
 * MCP server (`@roda/mcp` stdio), so both use the same database and secrets.
 */
export interface RodaEnvironment {
  readonly database: DatabaseOptions
  readonly options: RodaOptions
  /** `PAYMENT_GATEWAY`: `sandbox` (core's default, given the webhook secret) or `stripe`. */
  readonly paymentGateway: PaymentGatewayName
  /** `STRIPE_SECRET_KEY` and `STRIPE_WEBHOOK_SECRET`, with `PAYMENT_GATEWAY=stripe` (pass to `stripeGateway`). */
  readonly stripe?: StripeGatewayOptions | undefined
}

/** Gateways Roda can run; real gateways join the list as they are built. */
const PAYMENT_GATEWAYS = ["sandbox", "stripe"] as const
export type PaymentGatewayName = (typeof PAYMENT_GATEWAYS)[number]

const isGateway = (name: string): name is PaymentGatewayName =>
  (PAYMENT_GATEWAYS as ReadonlyArray<string>).includes(name)

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
    const existing = await readFile(file, "utf8").catch(() => undefined)
    if (existing?.trim()) return existing.trim()
    const created = generate()
    await writeFile(file, created, { mode: 0o600 })
    return created
  })

/** `CORS_ORIGINS`: comma-separated origins (`https://app.example`); `*` is refused, like any non-URL. */
const parseCorsOrigins = (value: string) =>
  Effect.forEach(value.split(",").map((entry) => entry.trim()).filter(Boolean), (entry) => {
    const origin = URL.canParse(entry) ? new URL(entry).origin : "null"
    return origin === "null"
      ? Effect.dieMessage(`CORS_ORIGINS: ${entry} is not an origin such as https://app.example`)
      : Effect.succeed(origin)
  })

/** A count per hour that may be 0 (no limit). */
const hourlyLimit = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.withDefault(fallback),
    Config.validate({ message: "must be a whole number, 0 for no limit", validation: (value) => value >= 0 })
  )

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

/** `DATABASE_URL`, `DATA_DIR`, `JWT_SECRET`, `PUBLIC_BASE_URL` (default `http://localhost:$PORT`) and the rest. */
export const loadRodaEnvironment = Effect.gen(function*() {
  const port = yield* Config.port("PORT").pipe(Config.withDefault(3000))
  const databaseUrl = yield* Config.option(Config.redacted("DATABASE_URL"))
  const dataDir = yield* Config.string("DATA_DIR").pipe(Config.withDefault(DEFAULT_DATA_DIR))
  const jwtSecret = yield* Config.option(Config.redacted("JWT_SECRET"))
  const publicBaseUrl = yield* Config.string("PUBLIC_BASE_URL").pipe(Config.withDefault(`http://localhost:${port}`))
  const admins = yield* Config.string("PLATFORM_ADMIN_EMAILS").pipe(Config.withDefault(""))
  const smtpUrl = yield* Config.option(Config.string("SMTP_URL"))
  const gatewayName = yield* Config.option(Config.string("PAYMENT_GATEWAY"))
  const sandboxSecret = yield* Config.option(Config.redacted("SANDBOX_WEBHOOK_SECRET"))
  const corsOrigins = yield* Config.option(Config.string("CORS_ORIGINS"))
  const oauthRegistrationLimit = yield* loadOAuthRegistrationLimit
  const statementTimeoutMs = yield* Config.integer("DATABASE_STATEMENT_TIMEOUT_MS").pipe(
    Config.withDefault(DEFAULT_STATEMENT_TIMEOUT_MS),
    Config.validate({
      message: "must be a whole number of milliseconds, 0 for none",
      validation: (value) => value >= 0
    })
  )

  const database: DatabaseOptions = Option.isSome(databaseUrl)
    ? { _tag: "Postgres", url: databaseUrl.value, statementTimeoutMs }
    : { _tag: "Embedded", dataDir: embeddedFolder(dataDir) }
  const resolvedSecret = Option.isSome(jwtSecret)
    ? jwtSecret.value
    : database._tag === "Postgres"
    ? yield* Effect.dieMessage("JWT_SECRET is required when DATABASE_URL is set")
    : secret(yield* embeddedSecret(dataDir))
  if (Redacted.value(resolvedSecret).length < 32) {
    return yield* Effect.dieMessage("JWT_SECRET must be at least 32 characters long")
  }
  // PAYMENT_GATEWAY: the sandbox by default only on the embedded database (never by accident in production).
  const paymentGateway = Option.isSome(gatewayName)
    ? gatewayName.value.trim().toLowerCase()
    : database._tag === "Postgres"
    ? yield* Effect.dieMessage(
      `PAYMENT_GATEWAY is required when DATABASE_URL is set (available: ${PAYMENT_GATEWAYS.join(", ")})`
    )
    : "sandbox"
  if (!isGateway(paymentGateway)) {
    return yield* Effect.dieMessage(
      `PAYMENT_GATEWAY: unknown gateway ${paymentGateway} (available: ${PAYMENT_GATEWAYS.join(", ")})`
    )
  }
  // SANDBOX_WEBHOOK_SECRET: generated and kept like JWT_SECRET (a Standard Webhooks `whsec_` key).
  const sandboxWebhookSecret = Option.isSome(sandboxSecret)
    ? sandboxSecret.value
    : paymentGateway !== "sandbox"
    ? undefined // another gateway: no sandbox, no secret file made for it
    : database._tag === "Postgres"
    ? yield* Effect.dieMessage(
      "SANDBOX_WEBHOOK_SECRET is required when DATABASE_URL is set and PAYMENT_GATEWAY is sandbox"
    )
    : secret(
      yield* embeddedSecret(dataDir, "sandbox-webhook-secret", () => `whsec_${randomBytes(32).toString("base64")}`)
    )
  if (sandboxWebhookSecret !== undefined && Redacted.value(sandboxWebhookSecret).length < 32) {
    return yield* Effect.dieMessage("SANDBOX_WEBHOOK_SECRET must be at least 32 characters long")
  }

  const stripe = paymentGateway === "stripe" ? yield* loadStripeSettings : undefined

  return {
    database,
    paymentGateway,
    ...(stripe === undefined ? {} : { stripe }),
    options: defaultOptions({
      jwtSecret: resolvedSecret,
      publicBaseUrl,
      platformAdminEmails: admins.split(",").map((email) => email.trim().toLowerCase()).filter(Boolean),
      smtpUrl: Option.getOrUndefined(smtpUrl),
      sandboxWebhookSecret,
      // Stored files (certificate PDFs and images): under DATA_DIR, or in memory with DATA_DIR=memory.
      blobDir: dataDir === "memory" ? undefined : join(dataDir, "blobs"),
      ...(Option.isSome(corsOrigins) ? { corsOrigins: yield* parseCorsOrigins(corsOrigins.value) } : {}),
      oauthRegistrationLimit
    })
  } satisfies RodaEnvironment
})
