import { serve } from "@hono/node-server"
import { makeHost } from "./app"

const port = Number(process.env.PORT ?? 3000)
const host = await makeHost({
  dataDir: process.env.DATA_DIR ?? "memory",
  jwtSecret: process.env.JWT_SECRET ?? "an-example-secret-of-at-least-32-characters",
  publicBaseUrl: `http://localhost:${port}`,
  trustProxy: process.env.TRUST_PROXY
}).catch((error: unknown) => {
  console.error(`Roda could not start: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})

const server = serve({ fetch: host.app.fetch, port, hostname: "127.0.0.1" }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`)
})

const stop = () => {
  server.close()
  void host.roda.dispose().then(() => process.exit(0))
}
process.once("SIGTERM", stop)
process.once("SIGINT", stop)
