import { getConnInfo } from "@hono/node-server/conninfo"
import { defaultOptions, makeRoda, secret } from "@roda/core/node"
import { Hono } from "hono"

export interface HostSettings {
  /** `memory`, or a folder for the embedded database. */
  readonly dataDir: string
  readonly jwtSecret: string
  readonly publicBaseUrl: string
  /** The proxies in front (`TRUST_PROXY`: a number of hops, or their addresses); unset: none. */
  readonly trustProxy?: string | undefined
}

/** A Hono app of its own (`/`), with Roda mounted at `/api/*`. */
export const makeHost = async (settings: HostSettings) => {
  const roda = makeRoda({
    database: { _tag: "Embedded", dataDir: settings.dataDir },
    options: defaultOptions({
      jwtSecret: secret(settings.jwtSecret),
      publicBaseUrl: settings.publicBaseUrl,
      trustProxy: settings.trustProxy
    })
  })
  // Migrations run here, before the first request; a database that cannot open fails here too.
  await roda.ready()
  const app = new Hono()
  app.get("/", (c) => c.json({ host: "hono", roda: "/api" }))
  // The socket's address: Roda finds the client behind it when `trustProxy` trusts it as a proxy.
  app.all("/api/*", (c) => roda.handler(c.req.raw, { clientAddress: getConnInfo(c).remote.address }))
  return { app, roda }
}
