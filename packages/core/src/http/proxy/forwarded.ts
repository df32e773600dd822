import { type Ip, parseIp } from "./address"

/** One proxy's account of the connection it received: who from, over which scheme, for which host. */
export interface Hop {
  /** Undefined when the hop named no usable address (`unknown`, an obfuscated `_name`, garbage). */
  readonly ip: Ip | undefined
  readonly proto?: string | undefined
  readonly host?: string | undefined
}

/** A request's header by lower-case name (web `Headers.get`, or Node's headers joined by commas). */
export type HeaderLookup = (name: string) => string | null | undefined

const PROTO = /^[a-z][a-z0-9+.-]{0,15}$/i
const HOST = /^[a-z0-9.\-_~%[\]:]{1,255}$/i

const protoOf = (value: string | undefined) => {
  const text = value?.trim()
  return text !== undefined && PROTO.test(text) ? text.toLowerCase() : undefined
}

const hostOf = (value: string | undefined) => {
  const text = value?.trim()
  return text !== undefined && HOST.test(text) ? text.toLowerCase() : undefined
}

/**
 * The address a node names: `192.0.2.1`, `192.0.2.1:4711`, `2001:db8::1`, `[2001:db8::1]:4711`.
 * Names, `unknown` and obfuscated identifiers name none.
 */
export const nodeAddress = (node: string): Ip | undefined => {
  const text = node.trim()
  if (text.startsWith("[")) {
    const end = text.indexOf("]")
    const rest = end === -1 ? "" : text.slice(end + 1)
    if (end === -1 || (rest !== "" && !/^:\d{1,5}$/.test(rest))) return undefined
    return parseIp(text.slice(1, end))
  }
  const whole = parseIp(text)
  if (whole !== undefined) return whole
  const withPort = /^([\d.]+):\d{1,5}$/.exec(text)
  return withPort === null ? undefined : parseIp(withPort[1]!)
}

/**
 * Splits `text` at `separator` outside quoted strings (RFC 7230), unquoting values; a quote left
 * open runs to the end.
 */
const splitOutsideQuotes = (text: string, separator: string): Array<string> => {
  const parts: Array<string> = []
  let current = ""
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!
    if (quoted && char === "\\" && i + 1 < text.length) current += char + text[++i]
    else if (char === "\"") {
      quoted = !quoted
      current += char
    } else if (!quoted && char === separator) {
      parts.push(current)
      current = ""
    } else current += char
  }
  parts.push(current)
  return parts
}

const unquote = (value: string) => {
  const text = value.trim()
  if (!text.startsWith("\"")) return text
  return text.slice(1, text.endsWith("\"") && text.length > 1 ? -1 : undefined).replace(/\\(.)/g, "$1")
}

/** The hops of an RFC 7239 `Forwarded` header, first proxy's first; an element without `for=` names no address. */
export const forwardedHops = (header: string): Array<Hop> =>
  splitOutsideQuotes(header, ",").map((element) => {
    const pairs = new Map<string, string>()
    for (const pair of splitOutsideQuotes(element, ";")) {
      const equals = pair.indexOf("=")
      if (equals === -1) continue
      const name = pair.slice(0, equals).trim().toLowerCase()
      if (!pairs.has(name)) pairs.set(name, unquote(pair.slice(equals + 1)))
    }
    const node = pairs.get("for")
    return {
      ip: node === undefined ? undefined : nodeAddress(node),
      proto: protoOf(pairs.get("proto")),
      host: hostOf(pairs.get("host"))
    }
  })

/**
 * The hops of `X-Forwarded-For`, with the `X-Forwarded-Proto` and `X-Forwarded-Host` value at the
 * same place from the right (a proxy appends to all three together); none where a list is shorter.
 */
export const xForwardedHops = (forwardedFor: string, proto?: string | null, host?: string | null): Array<Hop> => {
  const entries = forwardedFor.split(",")
  const protos = proto ? proto.split(",") : []
  const hosts = host ? host.split(",") : []
  const aligned = (list: Array<string>, index: number) => list[list.length - entries.length + index]
  return entries.map((entry, index) => ({
    ip: nodeAddress(entry),
    proto: protoOf(aligned(protos, index)),
    host: hostOf(aligned(hosts, index))
  }))
}

/** The hops a request's headers describe: `Forwarded` when present, else `X-Forwarded-For` and its companions. */
export const hopsOf = (header: HeaderLookup): Array<Hop> => {
  const forwarded = header("forwarded")
  if (forwarded !== null && forwarded !== undefined && forwarded.trim() !== "") return forwardedHops(forwarded)
  const forwardedFor = header("x-forwarded-for")
  if (forwardedFor === null || forwardedFor === undefined || forwardedFor.trim() === "") return []
  return xForwardedHops(forwardedFor, header("x-forwarded-proto"), header("x-forwarded-host"))
}
