import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { onboard, RodaLive } from "../src/program"

const runtime = ManagedRuntime.make(Layer.fresh(RodaLive))

afterAll(() => runtime.dispose())

describe("examples/effect-host", () => {
  it("composes servicesLayer and calls Roda's use cases from its own program", async () => {
    const { account, community, mine } = await runtime.runPromise(onboard("effie@example.com"))
    expect(account.email).toBe("effie@example.com")
    expect(community.name).toBe("Effect Host Club")
    expect(mine.map((each) => each.name)).toEqual(["Effect Host Club"])
  })

  it("gets Roda's typed errors as values: a second sign-up with the same e-mail", async () => {
    const again = await runtime.runPromise(Effect.either(onboard("effie@example.com")))
    expect(again._tag).toBe("Left")
  })
})
