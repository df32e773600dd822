import { type DatabaseOptions, defaultOptions, type RodaOptions, secret } from "@roda/core"
import { Config, Effect, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { defaultLogSettings, LOG_FORMATS, LOG_LEVELS, type LogSettings } from "./log"

export interface ServerConfig {
  readonly port: number
  readonly host: string
  readonly database: DatabaseOptions
  readonly options: RodaOptions
  /** `PAYMENT_GATEWAY`: the sandbox is the only gateway for now (core's default, given the webhook secret). */
  readonly paymentGateway?: PaymentGatewayName | undefined
  /** `LOG_FORMAT` and `LOG_LEVEL`: the request log and the server's own lines (`defaultLogSettings` when absent). */
  readonly log?: LogSettings | undefined
  /** `OTEL_EXPORTER_OTLP_ENDPOINT` (and `OTEL_SERVICE_NAME`): export traces over OTLP/HTTP. */
  readonly telemetry?: TelemetrySettings | undefined
}

export interface TelemetrySettings {
  /** The collector's base URL; spans go to `<endpoint>/v1/traces`. */
  readonly endpoint: string
  readonly serviceName: string
}

/** Gateways this server can run; real gateways join the list as they are built. */
const PAYMENT_GATEWAYS = ["sandbox"] as const
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

/** `LOG_FORMAT` (json|pretty; pretty on a terminal, else json) and `LOG_LEVEL` (debug|info|warn|error; info). */
const loadLogSettings = Effect.gen(function*() {
  const defaults = defaultLogSettings()
  const format = yield* Config.string("LOG_FORMAT").pipe(Config.withDefault(defaults.format))
  const level = yield* Config.string("LOG_LEVEL").pipe(Config.withDefault(defaults.level))
  const oneOf = <A extends string>(name: string, value: string, allowed: ReadonlyArray<A>) => {
    const normalized = value.trim().toLowerCase()
    return (allowed as ReadonlyArray<string>).includes(normalized)
      ? Effect.succeed(normalized as A)
      : Effect.dieMessage(`${name}: ${value} is not one of ${allowed.join(", ")}`)
  }
  return {
    format: yield* oneOf("LOG_FORMAT", format, LOG_FORMATS),
    level: yield* oneOf("LOG_LEVEL", level, LOG_LEVELS)
  } satisfies LogSettings
})

/** The environment of conventions.md, read once at start-up. */
export const loadConfig = Effect.gen(function*() {
  const port = yield* Config.port("PORT").pipe(Config.withDefault(3000))
  const host = yield* Config.string("HOST").pipe(Config.withDefault("127.0.0.1"))
  const databaseUrl = yield* Config.option(Config.redacted("DATABASE_URL"))
  const dataDir = yield* Config.string("DATA_DIR").pipe(Config.withDefault("./.roda/data"))
  const jwtSecret = yield* Config.option(Config.redacted("JWT_SECRET"))
  const publicBaseUrl = yield* Config.string("PUBLIC_BASE_URL").pipe(Config.withDefault(`http://localhost:${port}`))
  const admins = yield* Config.string("PLATFORM_ADMIN_EMAILS").pipe(Config.withDefault(""))
  const smtpUrl = yield* Config.option(Config.string("SMTP_URL"))
  const gatewayName = yield* Config.option(Config.string("PAYMENT_GATEWAY"))
  const sandboxSecret = yield* Config.option(Config.redacted("SANDBOX_WEBHOOK_SECRET"))
  const corsOrigins = yield* Config.option(Config.string("CORS_ORIGINS"))
  const log = yield* loadLogSettings
  const otlpEndpoint = yield* Config.option(Config.url("OTEL_EXPORTER_OTLP_ENDPOINT"))
  const serviceName = yield* Config.string("OTEL_SERVICE_NAME").pipe(Config.withDefault("roda"))

  const database: DatabaseOptions = Option.isSome(databaseUrl)
    ? { _tag: "Postgres", url: databaseUrl.value }
    : { _tag: "Embedded", dataDir: dataDir === "memory" ? "memory" : join(dataDir, "pg") }
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
    : database._tag === "Postgres"
    ? yield* Effect.dieMessage(
      "SANDBOX_WEBHOOK_SECRET is required when DATABASE_URL is set and PAYMENT_GATEWAY is sandbox"
    )
    : secret(
      yield* embeddedSecret(dataDir, "sandbox-webhook-secret", () => `whsec_${randomBytes(32).toString("base64")}`)
    )
  if (Redacted.value(sandboxWebhookSecret).length < 32) {
    return yield* Effect.dieMessage("SANDBOX_WEBHOOK_SECRET must be at least 32 characters long")
  }

  return {
    port,
    host,
    database,
    paymentGateway,
    log,
    ...(Option.isSome(otlpEndpoint)
      ? { telemetry: { endpoint: otlpEndpoint.value.toString().replace(/\/$/, ""), serviceName } }
      : {}),
    options: defaultOptions({
      jwtSecret: resolvedSecret,
      publicBaseUrl,
      platformAdminEmails: admins.split(",").map((email) => email.trim().toLowerCase()).filter(Boolean),
      smtpUrl: Option.getOrUndefined(smtpUrl),
      sandboxWebhookSecret,
      // Stored files (certificate PDFs and images): under DATA_DIR, or in memory with DATA_DIR=memory.
      blobDir: dataDir === "memory" ? undefined : join(dataDir, "blobs"),
      ...(Option.isSome(corsOrigins) ? { corsOrigins: yield* parseCorsOrigins(corsOrigins.value) } : {})
    })
  } satisfies ServerConfig
})
