import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { POSTGRES_ONLY, skipWhen } from "../../../../testing/skips"
import { uniqueAddress } from "../support/auth"
import { failsReply, from, invalidReply, okReply, statusOf, wireContract } from "../support/contractReplies"
import { client, PASSWORD, register, startRoda } from "../support/harness"
import { meOf, signIn } from "./support"

/**
 * Issue 52 item 3: change-password is limited like sign-in, and failures of strangers cannot lock
 * the holder out; item 1: an ended session is refused by every process sharing the database.
 */
const roda = startRoda({ loginAttemptsPerAccount: 5, loginAttemptsPerAccountGlobal: 3 })
const api = client(roda)
const typed = wireContract(roda)
afterAll(() => roda.dispose())
// the database starts with the first request (slow on a busy machine): not inside a test's time
beforeAll(() => register(api, "Warm Up"), 180_000)

const login = (email: string, password: string, clientAddress: string, token?: string) =>
  signIn(roda, email, password, { clientAddress, token })

describe("change-password attempts", () => {
  it("are limited per account and client address (429 with Retry-After); another address is not locked", async () => {
    const user = await register(api, "Carla Senha")
    const address = uniqueAddress()
    const change = (currentPassword: string, clientAddress = address) =>
      from(
        { clientAddress },
        typed.as(user).identity.changePassword({ payload: { currentPassword, newPassword: "Nova12345" } })
      )
    for (let i = 0; i < 5; i++) await invalidReply(change("Errada123"), "currentPassword")
    const limited = await failsReply(change(PASSWORD), 429)
    expect(Number(limited.reply.headers["retry-after"])).toBeGreaterThan(0)
    await okReply(change(PASSWORD, uniqueAddress()), 200)
  })

  it("checks at most 5 of 20 parallel wrong guesses", async () => {
    const user = await register(api, "Rui Paralelo")
    const address = uniqueAddress()
    const wrongGuess = typed.as(user).identity.changePassword({
      payload: { currentPassword: "Errada123", newPassword: "Nova12345" }
    })
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => statusOf(from({ clientAddress: address }, wrongGuess)))
    )
    expect(statuses.filter((status) => status === 400)).toHaveLength(5)
    expect(statuses.filter((status) => status === 429)).toHaveLength(15)
  })
})

describe("failures of strangers cannot lock the holder out", () => {
  it("a client that signed in from its address lately, or holds a live session, skips the account's limit", async () => {
    const user = await register(api, "Hilda Titular")
    const home = uniqueAddress()
    await okReply(login(user.email, PASSWORD, home), 200)
    // strangers from 3 addresses use up the account's limit over every address (3 in this Roda)
    for (let i = 0; i < 3; i++) await failsReply(login(user.email, "Errada123", uniqueAddress()), 401)
    await failsReply(login(user.email, PASSWORD, uniqueAddress()), 429)
    // the holder: from the address they signed in from, or anywhere with a live token of the account
    await okReply(login(user.email, PASSWORD, home), 200)
    await okReply(login(user.email, PASSWORD, uniqueAddress(), user.token), 200)
    // a token of another account does not help
    const other = await register(api, "Outro Alguém")
    await failsReply(login(user.email, PASSWORD, uniqueAddress(), other.token), 429)
  })
})

skipWhen(POSTGRES_ONLY).describe("two Rodas on one database", () => {
  it("a session ended through one is refused by the other at its next request; lastUsedAt is marked", async () => {
    const other = startRoda({ loginAttemptsPerAccount: 5, loginAttemptsPerAccountGlobal: 3 })
    try {
      const user = await register(api, "Dora Dupla")
      const token = (await okReply(login(user.email, PASSWORD, uniqueAddress()), 200)).data.data.token
      const sessions = (await okReply(typed.as({ token }).identity.sessions({ urlParams: {} }), 200)).data
      const sessionId = sessions.data.find((s) => s.current)!.id
      await roda.runtime.runPromise(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql`UPDATE auth_sessions SET last_used_at = now() - interval '5 minutes' WHERE id = ${sessionId}`
        )
      )
      await okReply(meOf(other, token), 200)
      // the other process marks it used, off the request's path
      let marked = false
      for (let i = 0; i < 50 && !marked; i++) {
        const [row] = await roda.runtime.runPromise(
          Effect.flatMap(
            SqlClient.SqlClient,
            (sql) =>
              sql<{ fresh: boolean }>`SELECT last_used_at > now() - interval '1 minute' AS fresh
            FROM auth_sessions WHERE id = ${sessionId}`
          )
        )
        marked = row!.fresh
        if (!marked) await new Promise((resolve) => setTimeout(resolve, 100))
      }
      expect(marked).toBe(true)
      await okReply(typed.as({ token }).identity.logout(), 200)
      await failsReply(meOf(other, token), 401, "Invalid or expired token")
      await failsReply(
        wireContract(other).as({ token }).identity.sessions({ urlParams: {} }),
        401,
        "Invalid or expired token"
      )
    } finally {
      await other.dispose()
    }
  })
})
