import { parseTrustProxy } from "@roda/core"
import { problem, type SettingCheck } from "@roda/core/node"
import { Either } from "effect"
import { LOG_FORMATS, LOG_LEVELS } from "./log"

const oneOf = (variable: string, allowed: ReadonlyArray<string>): SettingCheck => ({
  variables: [variable],
  check: (env) => {
    const value = env[variable]
    return value === undefined || allowed.includes(value.trim().toLowerCase())
      ? []
      : [
        problem(
          variable,
          `${value} is not one of ${allowed.join(", ")}`,
          `set one of ${allowed.join(", ")}, or unset it`
        )
      ]
  }
})

/** `OTEL_EXPORTER_OTLP_ENDPOINT`: the collector's base URL. */
const otlpEndpointCheck: SettingCheck = {
  variables: ["OTEL_EXPORTER_OTLP_ENDPOINT"],
  check: ({ OTEL_EXPORTER_OTLP_ENDPOINT: url }) =>
    url === undefined || URL.canParse(url) ? [] : [problem(
      "OTEL_EXPORTER_OTLP_ENDPOINT",
      `${JSON.stringify(url)} is not a URL`,
      "set the collector's base URL, e.g. http://127.0.0.1:4318, or unset it"
    )]
}

/** `TRUST_PROXY`: `false`, a number of proxies, or addresses, blocks, `loopback` and `private` (core's rule). */
const trustProxyCheck: SettingCheck = {
  variables: ["TRUST_PROXY"],
  check: ({ TRUST_PROXY: value }) => {
    const rule = parseTrustProxy(value)
    return Either.isRight(rule) ? [] : [problem(
      "TRUST_PROXY",
      rule.left,
      "set false, the number of proxies in front, or a comma list such as loopback,10.0.0.0/8"
    )]
  }
}

/** The server's own settings, checked with Roda's (`rodaSettingChecks`) and reported with them. */
export const serverSettingChecks: ReadonlyArray<SettingCheck> = [
  oneOf("LOG_FORMAT", LOG_FORMATS),
  oneOf("LOG_LEVEL", LOG_LEVELS),
  otlpEndpointCheck,
  trustProxyCheck
]
