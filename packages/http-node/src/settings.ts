import { problem, type SettingCheck } from "@roda/core/node"
import { isIP } from "node:net"
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

/** An address or a block of them: `203.0.113.7`, `10.0.0.0/8`, `2001:db8::/32`. */
const isAddressOrBlock = (entry: string) => {
  const [address = "", bits, ...rest] = entry.split("/")
  const family = isIP(address)
  if (family === 0 || rest.length > 0) return false
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128))
}

/** `TRUST_PROXY`, its form only: `false`, a number of proxies, or addresses, blocks, `loopback` and `private`. */
const trustProxyCheck: SettingCheck = {
  variables: ["TRUST_PROXY"],
  check: ({ TRUST_PROXY: value }) => {
    if (value === undefined) return []
    const trimmed = value.trim()
    if (trimmed === "false" || /^\d+$/.test(trimmed)) return []
    const wrong = trimmed.split(",").map((entry) => entry.trim()).filter((entry) =>
      entry !== "loopback" && entry !== "private" && !isAddressOrBlock(entry)
    )
    return wrong.length === 0 ? [] : [problem(
      "TRUST_PROXY",
      `${wrong.map((entry) => JSON.stringify(entry)).join(", ")} ${
        wrong.length === 1 ? "is" : "are"
      } not false, a number, an address, a block (CIDR), loopback or private`,
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
