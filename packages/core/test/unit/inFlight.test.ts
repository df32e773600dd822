import { describe, expect, it } from "vitest"
import { makeInFlight } from "../../src/app/inFlight"

describe("requests in flight", () => {
  it("settle at once when none runs", async () => {
    expect(await makeInFlight().settled(10_000)).toBe(true)
  })

  it("are counted once each, however often their end is called", async () => {
    const inFlight = makeInFlight()
    const first = inFlight.enter()
    const second = inFlight.enter()
    first()
    first()
    expect(inFlight.running()).toBe(1)
    second()
    expect(inFlight.running()).toBe(0)
  })

  it("wake those waiting as the last one ends, before the time is up", async () => {
    const inFlight = makeInFlight()
    const leave = inFlight.enter()
    const started = Date.now()
    const waits = [inFlight.settled(10_000), inFlight.settled(10_000)]
    setTimeout(leave, 20)
    expect(await Promise.all(waits)).toEqual([true, true])
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it("answer false when the time is up first, and forget that wait", async () => {
    const inFlight = makeInFlight()
    const leave = inFlight.enter()
    expect(await inFlight.settled(20)).toBe(false)
    expect(inFlight.running()).toBe(1)
    leave()
    expect(await inFlight.settled(20)).toBe(true)
  })

  it("track work until it settles, failed or not", async () => {
    const inFlight = makeInFlight()
    let fail = (_: Error) => {}
    inFlight.track(new Promise((_, reject) => (fail = reject)))
    inFlight.track(Promise.resolve(1))
    await Promise.resolve()
    expect(inFlight.running()).toBe(1)
    fail(new Error("gone"))
    expect(await inFlight.settled(10_000)).toBe(true)
  })
})
