import { Either, Redacted } from "effect"
import { parseTrustProxy } from "../http/proxy/trustProxy"
import { rateLimitProblems } from "../platform/rateLimitSettings"
import type { RodaConfig } from "./config"

/** A `makeRoda` option that cannot work: thrown by `makeRoda` itself, before any request. */
export class RodaConfigError extends Error {
  override readonly name = "RodaConfigError"
}

const MIN_SECRET_LENGTH = 32

/** The problem of a config without `platform` (core alone cannot open a database or hash a password). */
export const missingPlatform =
  `platform is missing: on Node, import makeRoda (or servicesLayer) from "@roda/core/node" instead of ` +
  `"@roda/core"; on another runtime, pass config.platform (a RodaPlatform)`

const isOrigin = (value: string) => URL.canParse(value) && new URL(value).origin !== "null"

/** `Name <address>` or a bare address. */
const MAIL_FROM = /^(?:[^<>]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/

/** Every problem of `config`, one sentence each (empty when it is usable). */
export const configProblems = (config: RodaConfig): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const { database, options } = config
  if (config.platform === undefined) problems.push(missingPlatform)
  if (database?._tag !== "Postgres" && database?._tag !== "Embedded") {
    problems.push(`database must be { _tag: "Postgres", url } or { _tag: "Embedded", dataDir }`)
  } else if (database._tag === "Postgres" && !Redacted.isRedacted(database.url)) {
    problems.push("database.url must be wrapped with secret(...)")
  } else if (database._tag === "Postgres" && !/^postgres(ql)?:\/\//.test(Redacted.value(database.url))) {
    problems.push("database.url must be a postgres:// URL (wrap it with secret(...))")
  } else if (database._tag === "Embedded" && !database.dataDir) {
    problems.push(`database.dataDir must be a folder or "memory"`)
  }
  if (options === undefined) return [...problems, "options are required (use defaultOptions({ jwtSecret }))"]
  const jwtSecret = Redacted.isRedacted(options.jwtSecret) ? Redacted.value(options.jwtSecret) : undefined
  if (typeof jwtSecret !== "string") problems.push("options.jwtSecret must be secret(\"...\")")
  else if (jwtSecret.length < MIN_SECRET_LENGTH) {
    problems.push(
      `options.jwtSecret must be at least ${MIN_SECRET_LENGTH} characters long (it has ${jwtSecret.length})`
    )
  }
  if (options.sandboxWebhookSecret !== undefined && Redacted.isRedacted(options.sandboxWebhookSecret)) {
    const webhook = Redacted.value(options.sandboxWebhookSecret)
    if (webhook.length < MIN_SECRET_LENGTH) {
      problems.push(`options.sandboxWebhookSecret must be at least ${MIN_SECRET_LENGTH} characters long`)
    }
  }
  if (!URL.canParse(options.publicBaseUrl)) {
    problems.push(`options.publicBaseUrl must be an absolute URL (got ${JSON.stringify(options.publicBaseUrl)})`)
  }
  for (const origin of options.corsOrigins ?? []) {
    if (!isOrigin(origin)) problems.push(`options.corsOrigins: ${origin} is not an origin such as https://app.example`)
  }
  if (options.smtpUrl !== undefined && !/^smtps?:\/\//.test(options.smtpUrl)) {
    problems.push("options.smtpUrl must be an smtp:// or smtps:// URL")
  }
  if (options.mailFrom !== undefined && !MAIL_FROM.test(options.mailFrom.trim())) {
    problems.push(`options.mailFrom must be an address or "Name <address>" (got ${JSON.stringify(options.mailFrom)})`)
  }
  for (const name of ["loginAttemptsPerAccount", "loginAttemptsPerAddress", "loginWindowSeconds"] as const) {
    if (!Number.isInteger(options[name]) || options[name] < 1) {
      problems.push(`options.${name} must be a positive integer`)
    }
  }
  for (const name of ["perAddressPerHour", "totalPerHour"] as const) {
    const value = options.oauthRegistrationLimit?.[name] ?? 0
    if (!Number.isInteger(value) || value < 0) {
      problems.push(`options.oauthRegistrationLimit.${name} must be a whole number, 0 for no limit`)
    }
  }
  const feedStatsMaxAge = options.feedStatsMaxAgeSeconds
  if (feedStatsMaxAge !== undefined && (!Number.isSafeInteger(feedStatsMaxAge) || feedStatsMaxAge < 0)) {
    problems.push(
      "options.feedStatsMaxAgeSeconds (FEED_STATS_MAX_AGE_SECONDS) must be a whole number of seconds, 0 for no cache"
    )
  }
  for (const found of rateLimitProblems(options.rateLimits)) problems.push(`options.rateLimits (RATE_LIMITS): ${found}`)
  const trustProxy = parseTrustProxy(options.trustProxy)
  if (Either.isLeft(trustProxy)) problems.push(`options.trustProxy (TRUST_PROXY): ${trustProxy.left}`)
  return problems
}

/** Throws a `RodaConfigError` naming every problem of `config`. */
export const validateConfig = (config: RodaConfig) => {
  const problems = configProblems(config)
  if (problems.length > 0) throw new RodaConfigError(`Invalid Roda configuration: ${problems.join("; ")}`)
}
