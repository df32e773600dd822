import { defaultOptions, makeRoda, type Roda, secret } from "@roda/core/node"
import { toNodeHandler } from "@roda/http-node"
import Fastify, { type FastifyInstance } from "fastify"

export interface HostSettings {
  readonly dataDir: string
  readonly jwtSecret: string
  readonly publicBaseUrl: string
}

/**
 * A Fastify app with routes of its own; Roda answers `/api/*` (the README's line). Fastify's own
 * JSON parser reads the body first: it is handed to Roda as `req.body`.
 */
export const makeHost = async (settings: HostSettings): Promise<{ app: FastifyInstance; roda: Roda }> => {
  const roda = makeRoda({
    database: { _tag: "Embedded", dataDir: settings.dataDir },
    options: defaultOptions({ jwtSecret: secret(settings.jwtSecret), publicBaseUrl: settings.publicBaseUrl })
  })
  await roda.ready()
  const app = Fastify()
  app.post("/echo", async (request) => ({ host: "fastify", received: request.body }))
  const handle = toNodeHandler(roda)
  app.all("/api/*", (request, reply) => {
    reply.hijack()
    handle(Object.assign(request.raw, { body: request.body }), reply.raw)
  })
  return { app, roda }
}
