import { formatIp, parseIp } from "./address"
import { type HeaderLookup, hopsOf } from "./forwarded"
import { isTrusted, type TrustRule } from "./trustProxy"

/** The client of a request, as the trusted proxies in front of Roda describe it. */
export interface ResolvedClient {
  /** Canonical when it is an address (`::ffff:10.0.0.1` is `10.0.0.1`); the peer as given otherwise. */
  readonly address: string | undefined
  /** The scheme and host the client used, as the trusted hop that received it said (never from an untrusted one). */
  readonly proto?: string | undefined
  readonly host?: string | undefined
}

/**
 * The client behind `peer` (the socket's address): the hops named by the headers are walked from
 * the right, from the peer, for as long as the hop just reached is a trusted proxy; the first one
 * that is not is the client. A hop naming no usable address (`unknown`, garbage) stops the walk at
 * the trusted proxy that sent it; when every named hop is trusted, the leftmost is the client. The
 * headers are not even read when the peer is not trusted.
 */
export const resolveClient = (rule: TrustRule, peer: string | undefined, header: HeaderLookup): ResolvedClient => {
  // No proxy trusted (the default): an IPv4 peer is already canonical, and nothing else is read.
  if (rule._tag === "None" && (peer === undefined || !peer.includes(":"))) return { address: peer }
  const peerIp = peer === undefined ? undefined : parseIp(peer)
  let client: ResolvedClient = { address: peerIp === undefined ? peer : formatIp(peerIp) }
  if (!isTrusted(rule, peerIp, 0)) return client
  const hops = hopsOf(header)
  let ip = peerIp
  for (let index = 0; isTrusted(rule, ip, index); index++) {
    const hop = hops[hops.length - 1 - index]
    if (hop?.ip === undefined) return client
    ip = hop.ip
    client = { address: formatIp(hop.ip), proto: hop.proto, host: hop.host }
  }
  return client
}
