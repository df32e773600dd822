import { Either } from "effect"
import { inRange, type Ip, parseRange, type Range } from "./address"

/**
 * What `TRUST_PROXY` (makeRoda's `trustProxy`) may be: unset or `false` (the socket's address is the
 * client), a number of trusted hops, or the proxies' addresses, CIDRs and the words `loopback` and
 * `private`, as a comma list or an array.
 */
export type TrustProxySetting = boolean | number | string | ReadonlyArray<string>

/** Which hops of a request's path are trusted proxies: `index` 0 is the socket's peer, 1 the hop before it. */
export type TrustRule =
  | { readonly _tag: "None" }
  | { readonly _tag: "Hops"; readonly count: number }
  | { readonly _tag: "Ranges"; readonly ranges: ReadonlyArray<Range> }

const NAMED: Record<string, ReadonlyArray<string>> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  // RFC 1918 and IPv6 unique local addresses (fc00::/7).
  private: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"]
}

const NONE: TrustRule = { _tag: "None" }

const rangesOf = (entries: ReadonlyArray<string>): Either.Either<TrustRule, string> => {
  const ranges: Array<Range> = []
  for (const raw of entries) {
    const entry = raw.trim()
    if (entry === "") continue
    const named = NAMED[entry.toLowerCase()]
    const parsed = named === undefined ? [parseRange(entry)] : named.map(parseRange)
    if (parsed.some((range) => range === undefined)) {
      return Either.left(
        `${JSON.stringify(entry.slice(0, 60))} is not a number of hops, an address, a CIDR (10.0.0.0/8, ` +
          `fd00::/8), loopback or private`
      )
    }
    ranges.push(...(parsed as Array<Range>))
  }
  return Either.right(ranges.length === 0 ? NONE : { _tag: "Ranges", ranges })
}

const hops = (count: number): Either.Either<TrustRule, string> =>
  Number.isSafeInteger(count) && count >= 0
    ? Either.right(count === 0 ? NONE : { _tag: "Hops", count })
    : Either.left(`${count} is not a whole number of hops`)

/** The rule `setting` names, or why it names none (a sentence without the setting's name). */
export const parseTrustProxy = (setting: TrustProxySetting | undefined): Either.Either<TrustRule, string> => {
  if (setting === undefined || setting === false) return Either.right(NONE)
  if (setting === true) {
    return Either.left(
      "true would let any client choose its address; give the number of proxies in front of Roda or their addresses"
    )
  }
  if (typeof setting === "number") return hops(setting)
  if (typeof setting !== "string") return rangesOf(setting)
  const text = setting.trim()
  if (text === "" || text.toLowerCase() === "false") return Either.right(NONE)
  if (text.toLowerCase() === "true") return parseTrustProxy(true)
  if (/^\d+$/.test(text)) return hops(Number(text))
  return rangesOf(text.split(","))
}

/** Whether the hop at `index` (0: the peer) with address `ip` (undefined: unknown) is a trusted proxy. */
export const isTrusted = (rule: TrustRule, ip: Ip | undefined, index: number): boolean => {
  switch (rule._tag) {
    case "None":
      return false
    case "Hops":
      return index < rule.count
    case "Ranges":
      return ip !== undefined && rule.ranges.some((range) => inRange(ip, range))
  }
}
