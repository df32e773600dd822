import { makeRodaClient } from "@roda/client"
import { Effect, Either } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { handlerHttpClient } from "../../core/test/support/inProcess"
import { startRoda, uniqueEmail } from "../../core/test/support/harness"

const roda = startRoda()
afterAll(() => roda.dispose())

const run = <A, E>(effect: Effect.Effect<A, E, never>) => Effect.runPromise(Effect.either(effect))
const clientFor = (options: Omit<Parameters<typeof makeRodaClient>[0], "baseUrl">) =>
  makeRodaClient({ baseUrl: "http://roda.test/", ...options } as Parameters<typeof makeRodaClient>[0]).pipe(
    Effect.provide(handlerHttpClient(roda))
  )

describe("makeRodaClient", () => {
  it("signs up, signs in and creates a community, decoding each answer", async () => {
    const email = uniqueEmail("effect")
    const result = await run(Effect.gen(function*() {
      const anonymous = yield* clientFor({})
      const registered = yield* anonymous.identity.register({ payload: { fullName: "Eva Effect", email, password: "Secret123" } })
      return registered
    }))
    console.log(JSON.stringify(result).slice(0, 2000))
  })
})
