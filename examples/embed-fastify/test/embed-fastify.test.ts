import { describeBodyParsingHost, exampleOptions } from "../../test-support/hostChecks"
import { makeHost } from "../src/app"

describeBodyParsingHost("fastify", async () => {
  const host = await makeHost(exampleOptions)
  return {
    url: await host.app.listen({ port: 0, host: "127.0.0.1" }),
    stop: async () => {
      await host.app.close()
      await host.roda.dispose()
    }
  }
})
