import { Context } from "effect"

/**
 * The client's address, resolved once per request from the peer's address and the trusted proxies'
 * headers (`options.trustProxy`, `http/proxy/`) by the adapter: makeRoda's web handler, or the Node
 * server through `RodaHttpApp.clientAddress`. Every per-client limit (sign-in, OAuth registration)
 * and the audit log read it; undefined when the adapter knows no address (the CLI, a host that
 * gives none).
 */
export class ClientAddress extends Context.Reference<ClientAddress>()("@roda/core/ClientAddress", {
  defaultValue: (): string | undefined => undefined
}) {}

/** The request's client address (`ClientAddress`). */
export const clientAddress = ClientAddress
