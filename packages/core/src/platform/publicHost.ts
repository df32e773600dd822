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

/** The eight 16-bit groups of an IPv6 text (`::` expanded, a trailing dotted IPv4 read), or undefined. */
const ipv6Groups = (address: string): ReadonlyArray<number> | undefined => {
  let text = address.replace(/%.*$/, "")
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted) {
    const v4 = ipv4Of(dotted[2]!)
    if (v4 === undefined) return undefined
    text = `${dotted[1]}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`
  }
  const halves = text.split("::")
  if (halves.length > 2) return undefined
  const part = (half: string) => (half === "" ? [] : half.split(":"))
  const head = part(halves[0]!)
  const tail = halves.length === 2 ? part(halves[1]!) : []
  const missing = 8 - head.length - tail.length
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined
  const groups = [...head, ...Array<string>(missing).fill("0"), ...tail]
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return undefined
  return groups.map((group) => parseInt(group, 16))
}

const embeddedIpv4 = (
  groups: ReadonlyArray<number>
) => [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff]

/**
 * IPv6 on the public internet. Forms that carry an IPv4 address are judged by it (IPv4-compatible
 * `::a.b.c.d`, IPv4-mapped `::ffff:a.b.c.d` in any notation, so `::ffff:7f00:1` is loopback) or
 * refused outright where a gateway decides what is reached: NAT64 (`64:ff9b::/96`, `64:ff9b:1::/48`),
 * 6to4 (`2002::/16`, whatever IPv4 it embeds) and Teredo (`2001::/32`).
 */
const isPublicIpv6 = (address: string): boolean => {
  const g = ipv6Groups(address)
  if (g === undefined) return false
  const zeros = (count: number) => g.slice(0, count).every((group) => group === 0)
  if (zeros(6)) return isPublicIpv4(embeddedIpv4(g)) // ::, ::1 and IPv4-compatible
  if (zeros(5) && g[5] === 0xffff) return isPublicIpv4(embeddedIpv4(g)) // IPv4-mapped
  if (zeros(4)) return false // the rest of ::/64 (IPv4-translated ::ffff:0:a.b.c.d and unassigned)
  if (g[0] === 0x64 && g[1] === 0xff9b && (g[2] === 0 || g[2] === 1)) return false // NAT64, RFC 6052 and 8215
  if (g[0] === 0x2002) return false // 6to4
  if (g[0] === 0x2001 && g[1] === 0) return false // Teredo
  if (g[0] === 0x100 && g[1] === 0 && g[2] === 0 && g[3] === 0) return false // discard-only 100::/64
  const first = g[0]!
  // fc00::/7 unique local, fe80::/10 link-local, fec0::/10 site-local, ff00::/8 multicast.
  return !((first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 || (first & 0xffc0) === 0xfec0 ||
    (first & 0xff00) === 0xff00)
}
