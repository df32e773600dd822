import { makeHost } from "./app"

const port = Number(process.env.PORT ?? 3000)
const host = await makeHost({
  dataDir: process.env.DATA_DIR ?? "memory",
  jwtSecret: process.env.JWT_SECRET ?? "an-example-secret-of-at-least-32-characters",
  publicBaseUrl: `http://localhost:${port}`
})
const server = host.app.listen(port, "127.0.0.1", () => console.log(`listening on http://127.0.0.1:${port}`))
const stop = () => server.close(() => void host.roda.dispose().then(() => process.exit(0)))
process.once("SIGTERM", stop)
process.once("SIGINT", stop)
