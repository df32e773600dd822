import { afterAll, describe, expect, it } from "vitest"
import { identityMessages } from "../../src/identity/messages"
import { uniqueAddress } from "../support/auth"
import { expectOk } from "../support/envelope"
import { client, PASSWORD, register, uniqueEmail } from "../support/harness"
import { outboxFor, waitForMail } from "../support/outbox"
import { expectLimited, limitedRoda, limitHeaders } from "./support"

/**
 * Issue 52, item 2: the counts live in the database, so every process serving it shares them. Two
 * Roda instances need a database both open: PostgreSQL (DATABASE_URL); the embedded database is one
 * process's own.
 */
const shared = process.env.DATABASE_URL !== undefined
const one = limitedRoda()
const two = limitedRoda()
afterAll(() => Promise.all([one.roda.dispose(), two.roda.dispose()]))

describe("limits shared by two instances on one PostgreSQL database", () => {
  it.runIf(shared)("counts sign-ups from one address on both instances together", async () => {
    const address = uniqueAddress()
    const signUp = (api: typeof one.api) =>
      api.post("/api/auth/register", { fullName: "Dora Dupla", email: uniqueEmail(), password: PASSWORD }, {
        clientAddress: address
      })
    for (let i = 0; i < 10; i++) {
      const reply = await signUp(i % 2 === 0 ? one.api : two.api)
      expect(reply.status).toBe(201)
      expect(limitHeaders(reply)).toMatchObject({ policy: "register", r: 9 - i })
    }
    expectLimited(await signUp(one.api), "register", 3600)
    expectLimited(await signUp(two.api), "register", 3600)
  })

  it.runIf(shared)(
    "50 parallel recovery requests for one address, split over both instances, send 3 e-mails",
    async () => {
      const user = await register(one.api)
      const replies = await Promise.all(
        Array.from(
          { length: 50 },
          (_, i) =>
            (i % 2 === 0 ? one.api : two.api).post("/api/auth/recovery-password", { email: user.email }, {
              clientAddress: uniqueAddress()
            })
        )
      )
      for (const reply of replies) {
        expectOk(reply, 200, identityMessages.recoverySent.pt)
      }
      await waitForMail(one.roda, user.email, "password-recovery", 3)
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect((await outboxFor(one.roda, user.email)).filter((m) => m.kind === "password-recovery")).toHaveLength(3)
    }
  )

  it("a limit set to 0 is not counted and sends no headers", async () => {
    const off = limitedRoda({ register: 0 })
    try {
      const address = uniqueAddress()
      for (let i = 0; i < 12; i++) {
        const reply = await client(off.roda).post("/api/auth/register", {
          fullName: "Livre Livre",
          email: uniqueEmail(),
          password: PASSWORD
        }, { clientAddress: address })
        expect(reply.status).toBe(201)
        expect(reply.headers.get("ratelimit")).toBeNull()
        expect(reply.headers.get("ratelimit-policy")).toBeNull()
      }
    } finally {
      await off.roda.dispose()
    }
  })
})
