import { defaultOptions, makeRoda, secret } from "@roda/core/node"
import { toNodeHandler } from "@roda/http-node"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

/** Roda in this process, listening on a free port of 127.0.0.1: what the clients call. */
export const startRoda = async () => {
  const roda = makeRoda({
    database: { _tag: "Embedded", dataDir: "memory" },
    options: defaultOptions({
      jwtSecret: secret("an-example-secret-of-at-least-32-characters"),
      publicBaseUrl: "http://localhost"
    })
  })
  await roda.ready()
  const server = createServer(toNodeHandler(roda))
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      await new Promise<void>((closed) => server.close(() => closed()))
      await roda.dispose()
    }
  }
}
