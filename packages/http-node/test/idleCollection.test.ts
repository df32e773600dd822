import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { CHECK_MS, COLLECTIONS_AFTER_BURST, IDLE_MS, idleCollection } from "../src/idleCollection"

describe("idleCollection", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("collects a few times after a burst of requests, once no request came for IDLE_MS", () => {
    const collect = vi.fn()
    const idle = idleCollection(collect)
    vi.advanceTimersByTime(IDLE_MS * 3)
    expect(collect).not.toHaveBeenCalled() // nothing was served: nothing to give back
    for (let i = 0; i < 50; i++) {
      idle.touch()
      vi.advanceTimersByTime(CHECK_MS / 2)
    }
    expect(collect).not.toHaveBeenCalled() // never during a burst
    vi.advanceTimersByTime(IDLE_MS - CHECK_MS)
    expect(collect).not.toHaveBeenCalled() // nor in a pause shorter than IDLE_MS
    vi.advanceTimersByTime(CHECK_MS) // IDLE_MS after the check that saw the last request
    expect(collect).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(IDLE_MS * 20)
    expect(collect).toHaveBeenCalledTimes(COLLECTIONS_AFTER_BURST) // then no more until the next burst
    idle.touch()
    vi.advanceTimersByTime(IDLE_MS + CHECK_MS)
    expect(collect).toHaveBeenCalledTimes(COLLECTIONS_AFTER_BURST + 1)
    idle.touch() // a request during the collections after a burst: they start over once it is over
    vi.advanceTimersByTime(IDLE_MS - CHECK_MS)
    expect(collect).toHaveBeenCalledTimes(COLLECTIONS_AFTER_BURST + 1)
    idle.stop()
    vi.advanceTimersByTime(IDLE_MS * 5)
    expect(collect).toHaveBeenCalledTimes(COLLECTIONS_AFTER_BURST + 1)
  })

  it("does nothing where Node does not expose gc", () => {
    const idle = idleCollection(undefined)
    idle.touch()
    expect(vi.getTimerCount()).toBe(0)
    idle.stop()
  })
})
