import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import { describeBodyParsingHost, exampleOptions } from "../../test-support/hostChecks"
import { makeHost } from "../src/app"

describeBodyParsingHost("koa", async () => {
  const host = await makeHost(exampleOptions)
  const server = await new Promise<Server>((resolve) => {
    const started = host.app.listen(0, "127.0.0.1", () => resolve(started))
  })
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await host.roda.dispose()
    }
  }
})
