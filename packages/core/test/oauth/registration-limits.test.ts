import { Clock, Effect } from "effect"
import { randomInt } from "node:crypto"
import { afterAll, describe, expect, it } from "vitest"
import type { Roda } from "../../src/index"
import { client, type Reply, startRoda } from "../support/harness"
import { REDIRECT_URI } from "../support/oauth"
import { query } from "../support/sql"

const HOUR = 60 * 60 * 1000

/**
 * A clock ten minutes into an hour of its own, far from now: the tests of this file share its
 * database, and the count of everyone's registrations ("all") is kept per hour, so each instance here
 * counts alone.
 */
const ownHour = () => {
  const hour = Math.floor(Date.now() / HOUR) + 1000 + randomInt(100_000)
  const offset = hour * HOUR + 10 * 60 * 1000 - Date.now()
  const real = Clock.make()
  const clock: Clock.Clock = {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: () => Date.now() + offset,
    unsafeCurrentTimeNanos: () => BigInt(Date.now() + offset) * 1_000_000n,
    currentTimeMillis: Effect.sync(() => Date.now() + offset),
    currentTimeNanos: Effect.sync(() => BigInt(Date.now() + offset) * 1_000_000n),
    sleep: (duration) => real.sleep(duration)
  }
  return { clock, windowStart: new Date(hour * HOUR) }
}

const address = () => `198.51.100.${randomInt(1, 255)}-${randomInt(1_000_000)}`

const rodaWith = (perAddressPerHour: number, totalPerHour: number) => {
  const hour = ownHour()
  const roda = startRoda({ oauthRegistrationLimit: { perAddressPerHour, totalPerHour } }, { clock: hour.clock })
  const api = client(roda)
  const register = (from: string, body: object = { redirect_uris: [REDIRECT_URI] }) =>
    api.post("/oauth/register", body, { clientAddress: from })
  return { roda, register, windowStart: hour.windowStart }
}

const rowsOf = (roda: Roda, windowStart: Date) =>
  query<{ scope: string; used: number }>(
    roda,
    (sql) => sql`SELECT scope, used FROM oauth_registration_windows WHERE window_start = ${windowStart} ORDER BY scope`
  )

const expectRefused = (reply: Reply) => {
  expect(reply.status).toBe(429)
  expect(reply.body).toEqual({
    error: "temporarily_unavailable",
    error_description: "too many client registrations; try again later"
  })
  // Ten minutes into the hour: the window ends in 50 minutes (less the seconds the test took).
  const retryAfter = Number(reply.headers.get("retry-after"))
  expect(retryAfter).toBeGreaterThan(50 * 60 - 60)
  expect(retryAfter).toBeLessThanOrEqual(50 * 60)
}

describe("OAuth: dynamic registration is limited per client address and in all", () => {
  const started: Array<Roda> = []
  const start = (perAddressPerHour: number, totalPerHour: number) => {
    const instance = rodaWith(perAddressPerHour, totalPerHour)
    started.push(instance.roda)
    return instance
  }
  afterAll(() => Promise.all(started.map((roda) => roda.dispose())))

  it("behind a trusted proxy (trustProxy: 1), counts the client X-Forwarded-For names, never the proxy", async () => {
    const hour = ownHour()
    const roda = startRoda({ oauthRegistrationLimit: { perAddressPerHour: 2, totalPerHour: 0 }, trustProxy: 1 }, {
      clock: hour.clock
    })
    started.push(roda)
    const api = client(roda)
    const viaProxy = (forwardedFor: string) =>
      api.post("/oauth/register", { redirect_uris: [REDIRECT_URI] }, {
        clientAddress: "10.0.0.7",
        headers: { "x-forwarded-for": forwardedFor }
      })
    // The entries left of the proxy's own are the client's to write: they change nothing.
    expect((await viaProxy("6.6.6.1, 198.51.100.20")).status).toBe(201)
    expect((await viaProxy("6.6.6.2, 198.51.100.20")).status).toBe(201)
    expectRefused(await viaProxy("6.6.6.3, 198.51.100.20"))
    expect((await viaProxy("[2001:DB8:0::20]:443")).status).toBe(201)
    expect(await rowsOf(roda, hour.windowStart)).toEqual([
      { scope: "address:198.51.100.20", used: 2 },
      { scope: "address:2001:db8::20", used: 1 }
    ])
  })

  it("lets exactly 3 of 30 parallel registrations from one address through; another address is not affected", async () => {
    const { register } = start(3, 0)
    const from = address()
    // Refused metadata is not counted.
    expect((await register(from, { redirect_uris: [] })).status).toBe(400)
    const replies = await Promise.all(Array.from({ length: 30 }, () => register(from)))
    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(3)
    const refused = replies.filter((reply) => reply.status !== 201)
    expect(refused).toHaveLength(27)
    refused.forEach(expectRefused)
    expect((await register(address())).status).toBe(201)
  })

  it("limits everyone's registrations together", async () => {
    const { register } = start(0, 4)
    for (let index = 0; index < 4; index++) expect((await register(address())).status).toBe(201)
    expectRefused(await register(address()))
  })

  it("does not count an address's refused registrations against everyone's", async () => {
    const { register, roda, windowStart } = start(2, 3)
    const busy = address()
    expect((await register(busy)).status).toBe(201)
    expect((await register(busy)).status).toBe(201)
    for (let index = 0; index < 5; index++) expectRefused(await register(busy))
    expect((await register(address())).status).toBe(201)
    const late = address()
    expectRefused(await register(late))
    // The address counted before the total refused is given back.
    expect((await rowsOf(roda, windowStart)).find((row) => row.scope === `address:${late}`)?.used).toBe(0)
  })

  it("counts nothing with limits of 0, and writes no rows", async () => {
    const { register, roda, windowStart } = start(0, 0)
    const from = address()
    const replies = await Promise.all(Array.from({ length: 25 }, () => register(from)))
    expect(replies.map((reply) => reply.status)).toEqual(Array.from({ length: 25 }, () => 201))
    expect(await rowsOf(roda, windowStart)).toEqual([])
  })
})
