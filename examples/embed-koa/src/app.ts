import { bodyParser } from "@koa/bodyparser"
import { defaultOptions, makeRoda, type Roda, secret } from "@roda/core/node"
import { toNodeHandler } from "@roda/http-node"
import Koa from "koa"

export interface HostSettings {
  readonly dataDir: string
  readonly jwtSecret: string
  readonly publicBaseUrl: string
}

/**
 * A Koa app with a global body parser and routes of its own; Roda answers `/api/*` (the README's
 * line). The parser leaves the body on `ctx.request.body`: it is handed to Roda as `req.body`.
 */
export const makeHost = async (settings: HostSettings): Promise<{ app: Koa; roda: Roda }> => {
  const roda = makeRoda({
    database: { _tag: "Embedded", dataDir: settings.dataDir },
    options: defaultOptions({ jwtSecret: secret(settings.jwtSecret), publicBaseUrl: settings.publicBaseUrl })
  })
  await roda.ready()
  const app = new Koa()
  app.use(bodyParser())
  const handle = toNodeHandler(roda)
  app.use((ctx, next) =>
    ctx.path.startsWith("/api/")
      ? (ctx.respond = false, handle(Object.assign(ctx.req, { body: ctx.request.body }), ctx.res))
      : next()
  )
  app.use((ctx) => {
    if (ctx.method === "POST" && ctx.path === "/echo") ctx.body = { host: "koa", received: ctx.request.body }
  })
  return { app, roda }
}
