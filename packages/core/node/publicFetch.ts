import { Layer } from "effect"
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns"
import http from "node:http"
import https from "node:https"
import { isIP, type LookupFunction } from "node:net"
import { type PublicAnswer, PublicFetch, type PublicFetchInit } from "../src/platform/PublicFetch"
import { isPublicAddress } from "../src/platform/publicHost"

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
export const reachableLookup = (resolve: Resolve, loopback: boolean, anyAddress = false): LookupFunction =>
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
        (anyAddress || isPublicAddress(a.address) || (loopback && isLoopback(a.address)))
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

/**
 * Connections kept open between requests (webhook deliveries to one receiver reuse them); a kept
 * connection was checked when it was made, by the lookup of the request that made it.
 */
const agents = {
  strict: { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) },
  loopback: { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) },
  any: { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) }
}

/** One request over node:http(s), connected only through `reachableLookup`; redirects are answers, not followed. */
const send =
  (resolve: Resolve) =>
  (method: "GET" | "POST", url: string, init: PublicFetchInit, body?: string): Promise<PublicAnswer> =>
    new Promise((settle, fail) => {
      const target = new URL(url)
      // an address written in the URL is connected to without a lookup: it is checked here instead
      const literal = target.hostname.replace(/^\[|\]$/g, "")
      if (
        init.anyAddress !== true && isIP(literal) !== 0 &&
        !(isPublicAddress(literal) || (init.loopback === true && isLoopback(literal)))
      ) {
        const refused: NodeJS.ErrnoException = new Error(`${literal} is not a public address`)
        refused.code = "ENOTFOUND"
        return fail(refused)
      }
      const secure = target.protocol === "https:"
      const client = secure ? https : http
      // each reach has its own pool, so a connection made under looser rules never serves a stricter call
      const pool = init.anyAddress === true ? agents.any : init.loopback === true ? agents.loopback : agents.strict
      const request = client.request(target, {
        method,
        headers: init.headers,
        signal: init.signal,
        agent: secure ? pool.https : pool.http,
        lookup: reachableLookup(resolve, init.loopback === true, init.anyAddress === true)
      }, (response) => settle({ status: response.statusCode ?? 0, body: response }))
      request.once("error", fail)
      request.end(body)
    })

/** `PublicFetch` on Node: every address a name resolves to is checked before the connection. */
export const nodePublicFetch = (resolve: Resolve = systemResolve) => {
  const request = send(resolve)
  return Layer.succeed(PublicFetch, {
    get: (url, init) => request("GET", url, init),
    post: (url, init) => request("POST", url, init, init.body)
  })
}
