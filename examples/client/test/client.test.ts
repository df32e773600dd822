import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startRoda } from "../src/server"
import { onboardWithEffect } from "../src/withEffect"
import { onboardWithFetch } from "../src/withFetch"

let roda: Awaited<ReturnType<typeof startRoda>>
beforeAll(async () => {
  roda = await startRoda()
})
afterAll(() => roda.stop())

const expected = (community: string) => ({
  community,
  sections: ["Welcome"],
  again: "409: Este e-mail já está cadastrado."
})

describe("examples/client", () => {
  it("the Effect client signs up, opens a community and gets a 409 as a typed error", async () => {
    expect(await Effect.runPromise(onboardWithEffect(roda.url, "eva@example.com"))).toEqual(expected("Effect Readers"))
  })

  it("the fetch client does the same", async () => {
    expect(await onboardWithFetch(roda.url, "fia@example.com")).toEqual(expected("Fetch Readers"))
  })
})
