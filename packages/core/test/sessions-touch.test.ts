import { Clock, Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { expectOk } from "./support/envelope"
import { client, register, startRoda } from "./support/harness"
import { statements } from "./support/queries"

/** A clock that can be moved forward: a session's `lastUsedAt` is written at most once a minute. */
let offset = 0
const real = Clock.make()
const clock: Clock.Clock = {
  [Clock.ClockTypeId]: Clock.ClockTypeId,
  unsafeCurrentTimeMillis: () => Date.now() + offset,
  unsafeCurrentTimeNanos: () => BigInt(Date.now() + offset) * 1_000_000n,
  currentTimeMillis: Effect.sync(() => Date.now() + offset),
  currentTimeNanos: Effect.sync(() => BigInt(Date.now() + offset) * 1_000_000n),
  sleep: (duration) => real.sleep(duration)
}

const roda = startRoda({}, { clock, tracing: true })
const api = client(roda)
afterAll(() => roda.dispose())

describe("marking a session used", () => {
  it("is a write of its own, never a statement of the request (however long since the last)", async () => {
    const user = await register(api)
    const quiet = await statements(() => api.get("/api/auth/me", { token: user.token }))
    expectOk(quiet.result)
    // A minute later the session is marked used again: in the background, not in the request's count.
    offset += 2 * 60 * 1000
    const marked = await statements(() => api.get("/api/auth/me", { token: user.token }))
    expectOk(marked.result)
    expect([quiet.n, marked.n]).toEqual([1, 1])
  })
})
