import { Layer } from "effect"
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns"
import http from "node:http"
import https from "node:https"
import type { LookupFunction } from "node:net"
import { isPublicAddress } from "../src/oauth/publicHost"
import { type PublicAnswer, PublicFetch, type PublicFetchInit } from "../src/platform/PublicFetch"

/** What resolves a name to all its addresses (`dns.lookup` with `all: true`). */
export type Resolve = (hostname: string) => Promise<ReadonlyArray<LookupAddress>>

const systemResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)))
  )

const isLoopback = (address: string) => /^127\./.test(address) || address === "::1" || address === "::ffff:127.0.0.1"

/**
 * A `lookup` for the socket that resolves the name and keeps only the addresses it may reach, so
 * the check is made on the address connected to (a name cannot resolve to a public address when
 * checked and to an internal one when connected).
 */
export const reachableLookup = (resolve: Resolve, loopback: boolean): LookupFunction =>
(
  hostname: string,
  options: LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | Array<LookupAddress>, family?: number) => void
) => {
  resolve(hostname).then(
    (addresses) => {
      const family = options.family === 4 || options.family === 6 ? options.family : undefined
      const usable = addresses.filter((a) =>
        (family === undefined || a.family === family) &&
        (isPublicAddress(a.address) || (loopback && isLoopback(a.address)))
      )
      const first = usable[0]
      if (first === undefined) {
        const refused: NodeJS.ErrnoException = new Error(`${hostname} resolves to no public address`)
        refused.code = "ENOTFOUND"
        callback(refused, "", 4)
      } else if (options.all === true) callback(null, usable)
      else callback(null, first.address, first.family)
    },
    (error: NodeJS.ErrnoException) => callback(error, "", 4)
  )
}

/** One GET over node:http(s), connected only through `reachableLookup`; redirects are answers, not followed. */
const get = (resolve: Resolve) => (url: string, init: PublicFetchInit): Promise<PublicAnswer> =>
  new Promise((settle, fail) => {
    const target = new URL(url)
    const client = target.protocol === "https:" ? https : http
    const request = client.request(target, {
      method: "GET",
      headers: init.headers,
      signal: init.signal,
      lookup: reachableLookup(resolve, init.loopback === true)
    }, (response) => settle({ status: response.statusCode ?? 0, body: response }))
    request.once("error", fail)
    request.end()
  })

/** `PublicFetch` on Node: every address a name resolves to is checked before the connection. */
export const nodePublicFetch = (resolve: Resolve = systemResolve) => Layer.succeed(PublicFetch, { get: get(resolve) })
