import { Clock, Effect } from "effect"
import { expect } from "vitest"
import { Messages } from "../../src/domain/Messages"
import type { RateLimitSettings } from "../../src/index"
import { client, type Reply, startRoda } from "../support/harness"

/** A clock that a test moves forward (windows end without waiting). */
export const movableClock = () => {
  let offset = 0
  const real = Clock.make()
  const now = () => Date.now() + offset
  const clock: Clock.Clock = {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: now,
    unsafeCurrentTimeNanos: () => BigInt(now()) * 1_000_000n,
    currentTimeMillis: Effect.sync(now),
    currentTimeNanos: Effect.sync(() => BigInt(now()) * 1_000_000n),
    sleep: (duration) => real.sleep(duration)
  }
  return { clock, advance: (ms: number) => void (offset += ms) }
}

/** A Roda with the production limits (the harness turns them off), `rateLimits` over them. */
export const limitedRoda = (rateLimits?: RateLimitSettings, clock?: Clock.Clock) => {
  const roda = startRoda({ rateLimits }, clock === undefined ? {} : { clock })
  return { roda, api: client(roda) }
}

/** The rate-limit headers of an answer, parsed: `{ policy, q, w, r, t }`. */
export const limitHeaders = (reply: Reply) => {
  const policy = reply.headers.get("ratelimit-policy")
  const state = reply.headers.get("ratelimit")
  if (policy === null || state === null) return undefined
  const p = /^"([a-zA-Z]+)";q=(\d+);w=(\d+)$/.exec(policy)
  const s = /^"([a-zA-Z]+)";r=(\d+);t=(\d+)$/.exec(state)
  expect(p, policy).not.toBeNull()
  expect(s, state).not.toBeNull()
  expect(s![1]).toBe(p![1])
  return { policy: p![1]!, q: Number(p![2]), w: Number(p![3]), r: Number(s![2]), t: Number(s![3]) }
}

/** 429 with the envelope's message, `Retry-After` and the headers of `policy` (nothing left). */
export const expectLimited = (reply: Reply, policy: string, windowSeconds: number) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(429)
  expect(reply.body).toEqual({ success: false, code: "rate_limited", message: Messages.rateLimited.pt })
  const retryAfter = Number(reply.headers.get("retry-after"))
  expect(retryAfter).toBeGreaterThan(0)
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds)
  const headers = limitHeaders(reply)
  expect(headers).toMatchObject({ policy, w: windowSeconds, r: 0 })
  expect(headers!.t).toBe(retryAfter)
}
