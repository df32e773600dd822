import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { POSTGRES_ONLY, skipWhen } from "../../../testing/skips"
import { uniqueAddress } from "./support/auth"
import { expectError, expectInvalid, expectOk } from "./support/envelope"
import { client, PASSWORD, register, startRoda } from "./support/harness"

/**
 * Issue 52 item 3: change-password is limited like sign-in, and failures of strangers cannot lock
 * the holder out; item 1: an ended session is refused by every process sharing the database.
 */
const roda = startRoda({ loginAttemptsPerAccount: 5, loginAttemptsPerAccountGlobal: 3 })
const api = client(roda)
afterAll(() => roda.dispose())
// the database starts with the first request (slow on a busy machine): not inside a test's time
beforeAll(() => register(api, "Warm Up"), 180_000)

const login = (email: string, password: string, clientAddress: string, token?: string) =>
  api.post("/api/auth/login", { email, password }, { clientAddress, token })

describe("change-password attempts", () => {
  it("are limited per account and client address (429 with Retry-After); another address is not locked", async () => {
    const user = await register(api, "Carla Senha")
    const address = uniqueAddress()
    const change = (currentPassword: string, from = address) =>
      api.put("/api/auth/change-password", { currentPassword, newPassword: "Nova12345" }, {
        token: user.token,
        clientAddress: from
      })
    for (let i = 0; i < 5; i++) expectInvalid(await change("Errada123"), "currentPassword")
    const limited = await change(PASSWORD)
    expectError(limited, 429)
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
    expectOk(await change(PASSWORD, uniqueAddress()))
  })

  it("checks at most 5 of 20 parallel wrong guesses", async () => {
    const user = await register(api, "Rui Paralelo")
    const address = uniqueAddress()
    const replies = await Promise.all(
      Array.from(
        { length: 20 },
        () =>
          api.put("/api/auth/change-password", { currentPassword: "Errada123", newPassword: "Nova12345" }, {
            token: user.token,
            clientAddress: address
          })
      )
    )
    expect(replies.filter((reply) => reply.status === 400)).toHaveLength(5)
    expect(replies.filter((reply) => reply.status === 429)).toHaveLength(15)
  })
})

describe("failures of strangers cannot lock the holder out", () => {
  it("a client that signed in from its address lately, or holds a live session, skips the account's limit", async () => {
    const user = await register(api, "Hilda Titular")
    const home = uniqueAddress()
    expectOk(await login(user.email, PASSWORD, home))
    // strangers from 3 addresses use up the account's limit over every address (3 in this Roda)
    for (let i = 0; i < 3; i++) expectError(await login(user.email, "Errada123", uniqueAddress()), 401)
    expectError(await login(user.email, PASSWORD, uniqueAddress()), 429)
    // the holder: from the address they signed in from, or anywhere with a live token of the account
    expectOk(await login(user.email, PASSWORD, home))
    expectOk(await login(user.email, PASSWORD, uniqueAddress(), user.token))
    // a token of another account does not help
    const other = await register(api, "Outro Alguém")
    expectError(await login(user.email, PASSWORD, uniqueAddress(), other.token), 429)
  })
})

skipWhen(POSTGRES_ONLY).describe("two Rodas on one database", () => {
  it("a session ended through one is refused by the other at its next request; lastUsedAt is marked", async () => {
    const other = startRoda({ loginAttemptsPerAccount: 5, loginAttemptsPerAccountGlobal: 3 })
    try {
      const second = client(other)
      const user = await register(api, "Dora Dupla")
      const token = expectOk(await login(user.email, PASSWORD, uniqueAddress())).token as string
      const sessionId = expectOk(await api.get("/api/auth/sessions", { token })).find((s: any) => s.current).id
      await roda.runtime.runPromise(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql`UPDATE auth_sessions SET last_used_at = now() - interval '5 minutes' WHERE id = ${sessionId}`
        )
      )
      expectOk(await second.get("/api/auth/me", { token }))
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
      expectOk(await api.post("/api/auth/logout", undefined, { token }))
      expectError(await second.get("/api/auth/me", { token }), 401, "Invalid or expired token")
      expectError(await second.get("/api/auth/sessions", { token }), 401, "Invalid or expired token")
    } finally {
      await other.dispose()
    }
  })
})
