/**
 * IP addresses as the proxy rules need them: parsed strictly (no ports, no names), written back in
 * one canonical form (dotted IPv4; RFC 5952 IPv6; an IPv4-mapped IPv6 address as its IPv4), and
 * matched against CIDR ranges. An IPv4 address is held as its IPv4-mapped IPv6 form, so one range
 * test serves both families.
 */

/** 16 bytes: an IPv6 address, or `::ffff:a.b.c.d` for an IPv4 one. */
export type Ip = Uint8Array

export interface Range {
  readonly base: Ip
  /** Leading bits that must match, out of 128. */
  readonly bits: number
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/
const HEX_GROUP = /^[0-9a-f]{1,4}$/i
const MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]

const ipv4Bytes = (text: string): Array<number> | undefined => {
  const parts = IPV4.exec(text)
  if (parts === null) return undefined
  const bytes = parts.slice(1).map((part) => (part.length > 1 && part.startsWith("0") ? 256 : Number(part)))
  // A leading zero (`010`) is refused: some parsers read it as octal.
  return bytes.every((byte) => byte <= 255) ? bytes : undefined
}

/** The 16-bit groups of one side of `::` (the last may be a dotted IPv4, two groups). */
const groupsOf = (side: string, last: boolean): Array<number> | undefined => {
  if (side === "") return []
  const groups: Array<number> = []
  const parts = side.split(":")
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    if (last && i === parts.length - 1 && part.includes(".")) {
      const v4 = ipv4Bytes(part)
      if (v4 === undefined) return undefined
      groups.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!)
    } else if (HEX_GROUP.test(part)) groups.push(parseInt(part, 16))
    else return undefined
  }
  return groups
}

const ipv6Bytes = (text: string): Array<number> | undefined => {
  const halves = text.split("::")
  if (halves.length > 2) return undefined
  const head = groupsOf(halves[0]!, halves.length === 1)
  const tail = halves.length === 2 ? groupsOf(halves[1]!, true) : []
  if (head === undefined || tail === undefined) return undefined
  const missing = 8 - head.length - tail.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail]
  return groups.flatMap((group) => [group >> 8, group & 0xff])
}

/** The address `text` names (IPv4 or IPv6, an IPv6 zone ignored), or undefined for anything else. */
export const parseIp = (text: string): Ip | undefined => {
  if (text.length > 64) return undefined
  const v4 = ipv4Bytes(text)
  if (v4 !== undefined) return Uint8Array.from([...MAPPED_PREFIX, ...v4])
  if (!text.includes(":")) return undefined
  const zone = text.indexOf("%")
  const v6 = ipv6Bytes(zone === -1 ? text : text.slice(0, zone))
  return v6 === undefined ? undefined : Uint8Array.from(v6)
}

const isMapped = (ip: Ip) => MAPPED_PREFIX.every((byte, i) => ip[i] === byte)

/** The canonical text of `ip`: dotted for IPv4 (mapped or not), RFC 5952 for IPv6. */
export const formatIp = (ip: Ip): string => {
  if (isMapped(ip)) return Array.from(ip.subarray(12)).join(".")
  const groups = Array.from({ length: 8 }, (_, i) => (ip[2 * i]! << 8) | ip[2 * i + 1]!)
  // The longest run of two or more zero groups (the first of equals) becomes `::`.
  let bestStart = -1
  let bestLength = 1
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++
      continue
    }
    let end = i
    while (end < 8 && groups[end] === 0) end++
    if (end - i > bestLength) {
      bestStart = i
      bestLength = end - i
    }
    i = end
  }
  const hex = groups.map((group) => group.toString(16))
  if (bestStart === -1) return hex.join(":")
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`
}

/** `text` in canonical form when it is an address, else undefined. */
export const canonicalIp = (text: string): string | undefined => {
  const ip = parseIp(text)
  return ip === undefined ? undefined : formatIp(ip)
}

/** A range written `address/bits` (IPv4 bits out of 32, IPv6 out of 128) or a single address. */
export const parseRange = (text: string): Range | undefined => {
  const slash = text.indexOf("/")
  const base = parseIp(slash === -1 ? text : text.slice(0, slash))
  if (base === undefined) return undefined
  const v4 = ipv4Bytes(slash === -1 ? text : text.slice(0, slash)) !== undefined
  if (slash === -1) return { base, bits: 128 }
  const bitsText = text.slice(slash + 1)
  if (!/^\d{1,3}$/.test(bitsText)) return undefined
  const bits = Number(bitsText)
  if (bits > (v4 ? 32 : 128)) return undefined
  return { base, bits: v4 ? bits + 96 : bits }
}

/** Whether `ip` lies in `range`. */
export const inRange = (ip: Ip, range: Range): boolean => {
  const whole = range.bits >> 3
  for (let i = 0; i < whole; i++) if (ip[i] !== range.base[i]) return false
  const rest = range.bits & 7
  if (rest === 0) return true
  const mask = (0xff << (8 - rest)) & 0xff
  return (ip[whole]! & mask) === (range.base[whole]! & mask)
}
