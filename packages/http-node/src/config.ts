import {
  type DatabaseOptions,
  type EnvironmentOptions,
  loadRodaEnvironmentWith,
  type PaymentGatewayName,
  type RodaOptions,
  type StripeGatewayOptions
} from "@roda/core/node"
import { Config, Effect, Option } from "effect"
import { defaultLogSettings, type LogFormat, type LogLevel, type LogSettings } from "./log"
import { serverSettingChecks } from "./settings"

export interface ServerConfig {
  readonly port: number
  readonly host: string
  readonly database: DatabaseOptions
  readonly options: RodaOptions
  /** Whether `PUBLIC_BASE_URL` was set (`options.publicBaseUrl` is otherwise `http://localhost:$PORT`). */
  readonly publicBaseUrlGiven?: boolean | undefined
  /** `PAYMENT_GATEWAY`: `sandbox` (core's default, given the webhook secret) or `stripe` (with `stripe`). */
  readonly paymentGateway?: PaymentGatewayName | undefined
  /** `STRIPE_SECRET_KEY` and `STRIPE_WEBHOOK_SECRET` when `PAYMENT_GATEWAY=stripe`. */
  readonly stripe?: StripeGatewayOptions | undefined
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

export type { PaymentGatewayName } from "@roda/core/node"

/** `LOG_FORMAT` (json|pretty; pretty on a terminal, else json) and `LOG_LEVEL` (debug|info|warn|error; info), checked already. */
const loadLogSettings = Effect.gen(function*() {
  const defaults = defaultLogSettings()
  const format = yield* Config.string("LOG_FORMAT").pipe(Config.withDefault(defaults.format))
  const level = yield* Config.string("LOG_LEVEL").pipe(Config.withDefault(defaults.level))
  return {
    format: format.trim().toLowerCase() as LogFormat,
    level: level.trim().toLowerCase() as LogLevel
  } satisfies LogSettings
})

/**
 * The environment of conventions.md, read once at start-up: Roda's own (`loadRodaEnvironmentWith`) and
 * the server's (`serverSettingChecks`), every problem of both reported together (a `SettingsError`).
 * `options`: whether to connect to DATABASE_URL first, and whether a missing DATA_DIR may be created.
 */
export const loadConfigWith = (startup: Omit<EnvironmentOptions, "checks"> = {}) =>
  Effect.gen(function*() {
    const { database, options, paymentGateway, publicBaseUrlGiven, stripe } = yield* loadRodaEnvironmentWith({
      ...startup,
      checks: serverSettingChecks
    })
    const port = yield* Config.port("PORT").pipe(Config.withDefault(3000))
    const host = yield* Config.string("HOST").pipe(Config.withDefault("127.0.0.1"))
    const log = yield* loadLogSettings
    const otlpEndpoint = yield* Config.option(Config.url("OTEL_EXPORTER_OTLP_ENDPOINT"))
    const serviceName = yield* Config.string("OTEL_SERVICE_NAME").pipe(Config.withDefault("roda"))
    return {
      port,
      host,
      database,
      paymentGateway,
      publicBaseUrlGiven,
      ...(stripe === undefined ? {} : { stripe }),
      log,
      ...(Option.isSome(otlpEndpoint)
        ? { telemetry: { endpoint: otlpEndpoint.value.toString().replace(/\/$/, ""), serviceName } }
        : {}),
      options
    } satisfies ServerConfig
  })

/** `loadConfigWith()`: the server's environment, a missing DATA_DIR to be created, no connection made first. */
export const loadConfig = loadConfigWith()
