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

/**
 * `WORKERS`: how many processes serve the port (`workers.ts`). A whole number from 1; more than one
 * needs PostgreSQL (the embedded database belongs to one process) and at least one pooled connection
 * each (`PGPOOL_MAX`, 10 unless set, is shared among them).
 */
const workersCheck: SettingCheck = {
  variables: ["WORKERS", "DATABASE_URL", "PGPOOL_MAX"],
  check: ({ WORKERS: value, DATABASE_URL: url, PGPOOL_MAX: poolMax }) => {
    if (value === undefined) return []
    if (!/^[1-9]\d{0,2}$/.test(value.trim())) {
      return [problem("WORKERS", `${value} is not a whole number of processes from 1`, "set e.g. 2, or unset it")]
    }
    const workers = Number(value.trim())
    if (workers > 1 && url === undefined) {
      return [problem(
        "WORKERS",
        `${workers} processes cannot share the embedded database (it belongs to one process)`,
        "set DATABASE_URL to a PostgreSQL database, or unset WORKERS"
      )]
    }
    const connections = poolMax !== undefined && /^\d+$/.test(poolMax.trim()) ? Number(poolMax.trim()) : 10
    return workers > connections
      ? [problem(
        "WORKERS",
        `${workers} processes need at least one PostgreSQL connection each (PGPOOL_MAX is ${connections})`,
        `set PGPOOL_MAX to ${workers} or more, or fewer WORKERS`
      )]
      : []
  }
}

/** The server's own settings, checked with Roda's (`rodaSettingChecks`) and reported with them. */
export const serverSettingChecks: ReadonlyArray<SettingCheck> = [
  oneOf("LOG_FORMAT", LOG_FORMATS),
  oneOf("LOG_LEVEL", LOG_LEVELS),
  otlpEndpointCheck,
  trustProxyCheck,
  workersCheck
]
