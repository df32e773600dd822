import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { identityMessages } from "../../src/identity/messages"
import { RateLimits } from "../../src/index"
import { uniqueAddress } from "../support/auth"
import { expectOk } from "../support/envelope"
import { PASSWORD, register, registerUnverified, uniqueEmail } from "../support/harness"
import { outboxFor, waitForMail } from "../support/outbox"
import { query } from "../support/sql"
import { expectLimited, limitedRoda, limitHeaders, movableClock } from "./support"

/** Issue 52, item 2: the limits of the authentication routes, with the production defaults. */
const time = movableClock()
const { api, roda } = limitedRoda(undefined, time.clock)
afterAll(() => roda.dispose())

const HOUR = 3600
const signUp = (clientAddress: string, email = uniqueEmail()) =>
  api.post("/api/auth/register", { fullName: "Rita Limite", email, password: PASSWORD }, { clientAddress })
const recover = (email: string, clientAddress: string) =>
  api.post("/api/auth/recovery-password", { email }, { clientAddress })
const recoveryMails = async (email: string) =>
  (await outboxFor(roda, email)).filter((m) => m.kind === "password-recovery")

/** Recovery e-mails are written after the answer: give the forked work time to finish. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300))

describe("register: 10 an hour per client address", () => {
  it("answers 10 with the headers counting down, then 429 with Retry-After; another address is not affected", async () => {
    const address = uniqueAddress()
    for (let i = 0; i < 10; i++) {
      const reply = await signUp(address)
      expect(reply.status).toBe(201)
      expect(limitHeaders(reply)).toMatchObject({ policy: "register", q: 10, w: HOUR, r: 9 - i })
      expect(limitHeaders(reply)!.t).toBeLessThanOrEqual(HOUR)
    }
    expectLimited(await signUp(address), "register", HOUR)
    expect((await signUp(uniqueAddress())).status).toBe(201)
  })

  it("counts a refused sign-up too (409), and its answer carries the headers", async () => {
    const address = uniqueAddress()
    const email = uniqueEmail()
    expect((await signUp(address, email)).status).toBe(201)
    const taken = await signUp(address, email)
    expect(taken.status).toBe(409)
    expect(limitHeaders(taken)).toMatchObject({ policy: "register", r: 8 })
  })

  it("allows again once the window has ended", async () => {
    const address = uniqueAddress()
    for (let i = 0; i < 10; i++) expect((await signUp(address)).status).toBe(201)
    expectLimited(await signUp(address), "register", HOUR)
    time.advance(HOUR * 1000)
    const again = await signUp(address)
    expect(again.status).toBe(201)
    expect(limitHeaders(again)).toMatchObject({ r: 9 })
  })
})

describe("recovery: 3 an hour per target e-mail (silent), 20 an hour per client address", () => {
  it("answers the same 200 past the target's limit, sends only 3 e-mails, and shows the client's limit", async () => {
    const user = await register(api)
    const replies = []
    for (let i = 0; i < 5; i++) replies.push(await recover(user.email, uniqueAddress()))
    for (const reply of replies) {
      expectOk(reply, 200, identityMessages.recoverySent.pt)
      expect(reply.body).toEqual(replies[0]!.body)
      // Each caller sees their own client count (1 of 20), never the target's.
      expect(limitHeaders(reply)).toMatchObject({ policy: "recovery", q: 20, w: HOUR, r: 19 })
    }
    await waitForMail(roda, user.email, "password-recovery", 3)
    await settle()
    expect(await recoveryMails(user.email)).toHaveLength(3)
  })

  it("answers an unknown address exactly as a registered one", async () => {
    const address = uniqueAddress()
    const known = await recover((await register(api)).email, address)
    const unknown = await recover(uniqueEmail("nobody"), address)
    expect(unknown.status).toBe(known.status)
    expect(unknown.body).toEqual(known.body)
    expect(limitHeaders(unknown)).toMatchObject({ policy: "recovery", q: 20, r: 18 })
  })

  it("counts the target after the e-mail's normal form (case, spaces)", async () => {
    const user = await register(api)
    for (let i = 0; i < 3; i++) expectOk(await recover(user.email.toUpperCase(), uniqueAddress()))
    expectOk(await recover(` ${user.email}`, uniqueAddress()))
    await waitForMail(roda, user.email, "password-recovery", 3)
    await settle()
    expect(await recoveryMails(user.email)).toHaveLength(3)
  })

  it("refuses the 21st request of one client with 429", async () => {
    const address = uniqueAddress()
    for (let i = 0; i < 20; i++) expectOk(await recover(uniqueEmail("nobody"), address))
    expectLimited(await recover(uniqueEmail("nobody"), address), "recovery", HOUR)
  })

  it("50 parallel requests for one address send at most 3 e-mails", async () => {
    const user = await register(api)
    const replies = await Promise.all(Array.from({ length: 50 }, () => recover(user.email, uniqueAddress())))
    for (const reply of replies) expectOk(reply, 200, identityMessages.recoverySent.pt)
    await waitForMail(roda, user.email, "password-recovery", 3)
    await settle()
    expect(await recoveryMails(user.email)).toHaveLength(3)
    const [row] = await query<{ used: number }>(
      roda,
      (sql) => sql`SELECT used FROM rate_limit_counters WHERE bucket = 'recovery' AND used >= 3 ORDER BY used DESC`
    )
    expect(row!.used).toBe(4) // counted up to the limit and one past it, never further
  })
})

describe("verify-email: 3 an hour per account (silent)", () => {
  it("sends 3 links, then answers the same 200 without an e-mail; the headers show the caller's own count", async () => {
    // An address not confirmed yet: a confirmed one is sent no link at all.
    const user = await registerUnverified(api)
    const first = await api.post("/api/auth/verify-email", undefined, { token: user.token })
    expectOk(first, 200, identityMessages.verificationSent.pt)
    expect(limitHeaders(first)).toMatchObject({ policy: "verifyEmail", q: 3, w: HOUR, r: 2 })
    for (let i = 0; i < 2; i++) expectOk(await api.post("/api/auth/verify-email", undefined, { token: user.token }))
    const past = await api.post("/api/auth/verify-email", undefined, { token: user.token })
    expectOk(past, 200, identityMessages.verificationSent.pt)
    expect(past.body).toEqual(first.body)
    expect(limitHeaders(past)).toMatchObject({ policy: "verifyEmail", r: 0 })
    const mails = (await outboxFor(roda, user.email)).filter((m) => m.kind === "verify-email")
    // the sign-up's own link, and the three asked for
    expect(mails).toHaveLength(4)
  })
})

describe("the counters", () => {
  it("are swept once their window has ended", async () => {
    await signUp(uniqueAddress())
    time.advance(2 * HOUR * 1000)
    const swept = await roda.runtime.runPromise(Effect.flatMap(RateLimits, (limits) => limits.sweep))
    expect(swept).toBeGreaterThan(0)
    const [left] = await query<{ count: number }>(
      roda,
      (sql) => sql`SELECT count(*)::int AS count FROM rate_limit_counters WHERE resets_at <= ${new Date(Date.now())}`
    )
    expect(left!.count).toBe(0)
  })
})
