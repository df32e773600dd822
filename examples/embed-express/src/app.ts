import { defaultOptions, makeRoda, type Roda, secret } from "@roda/core/node"
import { toNodeHandler } from "@roda/http-node"
import express, { type Express } from "express"

export interface HostSettings {
  readonly dataDir: string
  readonly jwtSecret: string
  readonly publicBaseUrl: string
}

/** An Express app with a global JSON parser and routes of its own; Roda mounted at `/api`. */
export const makeHost = async (settings: HostSettings): Promise<{ app: Express; roda: Roda }> => {
  const roda = makeRoda({
    database: { _tag: "Embedded", dataDir: settings.dataDir },
    options: defaultOptions({ jwtSecret: secret(settings.jwtSecret), publicBaseUrl: settings.publicBaseUrl })
  })
  await roda.ready()
  const app = express()
  // The host's parser reads every JSON body first; toNodeHandler passes what it read on to Roda.
  app.use(express.json())
  app.post("/echo", (req, res) => {
    res.json({ host: "express", received: req.body })
  })
  app.use("/api", toNodeHandler(roda, { clientAddress: (req) => (req as express.Request).ip }))
  return { app, roda }
}
