import { makeHost } from "./app"

const port = Number(process.env.PORT ?? 3000)
const host = await makeHost({
  dataDir: process.env.DATA_DIR ?? "memory",
  jwtSecret: process.env.JWT_SECRET ?? "an-example-secret-of-at-least-32-characters",
  publicBaseUrl: `http://localhost:${port}`
})
console.log(`listening on ${await host.app.listen({ port, host: "127.0.0.1" })}`)
const stop = () => void host.app.close().then(() => host.roda.dispose()).then(() => process.exit(0))
process.once("SIGTERM", stop)
process.once("SIGINT", stop)
