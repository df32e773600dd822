import { rateLimitProblems } from "../../src/platform/rateLimitSettings"
import { problem, type SettingCheck } from "./checks"

const isHttpUrl = (value: string) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)

/** `PORT`: 1 to 65535. */
export const portCheck: SettingCheck = {
  variables: ["PORT"],
  check: ({ PORT }) => {
    if (PORT === undefined) return []
    const port = Number(PORT)
    return /^\d+$/.test(PORT) && port >= 1 && port <= 65535
      ? []
      : [problem("PORT", `${PORT} is not a port`, "set a whole number from 1 to 65535, or unset it for 3000")]
  }
}

/** `PUBLIC_BASE_URL`: an absolute http(s) URL. */
export const publicBaseUrlCheck: SettingCheck = {
  variables: ["PUBLIC_BASE_URL"],
  check: ({ PUBLIC_BASE_URL: url }) =>
    url === undefined || isHttpUrl(url.trim()) ? [] : [problem(
      "PUBLIC_BASE_URL",
      `${JSON.stringify(url)} is not an absolute http(s) URL`,
      "set the URL the service is reached at, e.g. https://community.example.com"
    )]
}

/** `CORS_ORIGINS`: comma-separated origins; `*` is refused like anything that is not one. */
export const corsOriginsCheck: SettingCheck = {
  variables: ["CORS_ORIGINS"],
  check: ({ CORS_ORIGINS: value }) =>
    (value ?? "").split(",").map((entry) => entry.trim()).filter(Boolean).flatMap((entry) =>
      URL.canParse(entry) && new URL(entry).origin !== "null" ? [] : [problem(
        "CORS_ORIGINS",
        `${entry} is not an origin such as https://app.example`,
        "list browser origins (scheme, host and port), separated by commas; * is not accepted"
      )]
    )
}

/** `SMTP_URL`: an smtp:// or smtps:// URL (never printed: it may hold a password). */
export const smtpUrlCheck: SettingCheck = {
  variables: ["SMTP_URL"],
  check: ({ SMTP_URL: url }) =>
    url === undefined || (URL.canParse(url.trim()) && /^smtps?:$/.test(new URL(url.trim()).protocol)) ? [] : [problem(
      "SMTP_URL",
      "is not an smtp:// or smtps:// URL",
      "set it to smtp://user:password@host:587 (or smtps://…:465), or unset it to keep e-mails in the outbox table"
    )]
}

/** `OAUTH_REGISTRATIONS_PER_ADDRESS_PER_HOUR` and `OAUTH_REGISTRATIONS_PER_HOUR`: whole numbers, 0 for no limit. */
export const oauthLimitsCheck: SettingCheck = {
  variables: ["OAUTH_REGISTRATIONS_PER_ADDRESS_PER_HOUR", "OAUTH_REGISTRATIONS_PER_HOUR"],
  check: (env) =>
    ["OAUTH_REGISTRATIONS_PER_ADDRESS_PER_HOUR", "OAUTH_REGISTRATIONS_PER_HOUR"].flatMap((name) => {
      const value = env[name]
      return value === undefined || /^\d+$/.test(value.trim())
        ? []
        : [
          problem(name, `${value} is not a whole number`, "set a whole number of registrations an hour, 0 for no limit")
        ]
    })
}

/** `FEED_STATS_MAX_AGE_SECONDS`: a whole number of seconds, 0 to count on every request. */
export const feedStatsMaxAgeCheck: SettingCheck = {
  variables: ["FEED_STATS_MAX_AGE_SECONDS"],
  check: ({ FEED_STATS_MAX_AGE_SECONDS: value }) =>
    value === undefined || /^\d{1,9}$/.test(value.trim()) ? [] : [problem(
      "FEED_STATS_MAX_AGE_SECONDS",
      `${value} is not a whole number of seconds`,
      "set how old the feed's statistics may be, e.g. 60, 0 to count them on every request, or unset it for 60"
    )]
}

/** `RATE_LIMITS`: a JSON object `{ name: { limit, windowSeconds } }` of known limits (`0` turns one off). */
export const rateLimitsCheck: SettingCheck = {
  variables: ["RATE_LIMITS"],
  check: ({ RATE_LIMITS: value }) => {
    if (value === undefined || value.trim() === "") return []
    const fix =
      `set JSON such as {"register":{"limit":10,"windowSeconds":3600},"posting":0}, or unset it for the defaults`
    let parsed: unknown
    try {
      parsed = JSON.parse(value)
    } catch {
      return [problem("RATE_LIMITS", "is not JSON", fix)]
    }
    return rateLimitProblems(parsed).map((found) => problem("RATE_LIMITS", found, fix))
  }
}
