import { defaultOptions, makeRoda, secret } from "@roda/core/node"
import { Hono } from "hono"

export interface HostSettings {
  /** `memory`, or a folder for the embedded database. */
  readonly dataDir: string
  readonly jwtSecret: string
  readonly publicBaseUrl: string
}

/** A Hono app of its own (`/`), with Roda mounted at `/api/*`. */
export const makeHost = async (settings: HostSettings) => {
  const roda = makeRoda({
    database: { _tag: "Embedded", dataDir: settings.dataDir },
    options: defaultOptions({ jwtSecret: secret(settings.jwtSecret), publicBaseUrl: settings.publicBaseUrl })
  })
  // Migrations run here, before the first request; a database that cannot open fails here too.
  await roda.ready()
  const app = new Hono()
  app.get("/", (c) => c.json({ host: "hono", roda: "/api" }))
  app.all("/api/*", (c) => roda.handler(c.req.raw, { clientAddress: c.req.header("x-real-ip") }))
  return { app, roda }
}
