/**
 * Whether a Client ID Metadata Document's host may be fetched: a public name or address. Loopback,
 * private, link-local and shared addresses, `localhost` and names without a dot are refused, so a
 * client_id cannot make Roda call into its own network (SSRF). A public name that resolves to a
 * private address is not caught here: the platform's `PublicFetch` checks the addresses it resolves
 * (`isPublicAddress`) where the runtime has a resolver.
 */
export const isPublicHost = (hostname: string): boolean => {
  const host = hostname.toLowerCase().replace(/\.$/, "")
  if (host.startsWith("[")) return isPublicIpv6(host.slice(1, -1))
  const v4 = ipv4Of(host)
  if (v4 !== undefined) return isPublicIpv4(v4)
  if (!host.includes(".")) return false
  return !/(^|\.)(localhost|local|internal|home\.arpa)$/.test(host)
}

/** Whether an address a name resolved to (dotted IPv4 or IPv6 text) is on the public internet. */
export const isPublicAddress = (address: string): boolean => {
  const v4 = /^\d{1,3}(\.\d{1,3}){3}$/.test(address) ? ipv4Of(address) : undefined
  if (v4 !== undefined) return isPublicIpv4(v4)
  return address.includes(":") && isPublicIpv6(address.toLowerCase())
}

const ipv4Of = (host: string): ReadonlyArray<number> | undefined => {
  const parts = host.split(".")
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return undefined
  const bytes = parts.map(Number)
  return bytes.every((byte) => byte <= 255) ? bytes : undefined
}

const isPublicIpv4 = ([a, b]: ReadonlyArray<number>): boolean =>
  !(a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168) || (a === 100 && b! >= 64 && b! <= 127) || a! >= 224)

const isPublicIpv6 = (address: string): boolean => {
  if (address === "::" || address === "::1") return false
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address)
  if (mapped) return isPublicIpv4(ipv4Of(mapped[1]!) ?? [0])
  // URL keeps an IPv4-mapped address in hex (::ffff:7f00:1); any ::ffff: form is refused.
  if (address.startsWith("::ffff:")) return false
  const first = parseInt(address.split(":")[0] || "0", 16)
  // 0000::/16 (unspecified, loopback, IPv4-compatible), fc00::/7 unique local, fe80::/10 link-local,
  // ff00::/8 multicast.
  return !(first === 0 || (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 || (first & 0xff00) === 0xff00)
}
