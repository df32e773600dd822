import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { codeFor, exchange, registerClient } from "../oauth/support"
import { uniqueAddress } from "../support/auth"
import { as, newCommunity } from "../support/community"
import { expectOk } from "../support/envelope"
import { client, PASSWORD, register, startRoda } from "../support/harness"
import { passwordLinkFor, waitForMail } from "../support/outbox"
import { platformAdmin } from "../support/selling"

/**
 * Issue 52 item 3: ending an account's sessions also voids the OAuth codes it was issued and has not
 * exchanged (the token endpoint is outside the contract: raw calls).
 */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())
beforeAll(() => register(api, "Warm Up"), 180_000)

const tokenOf = async (email: string) =>
  expectOk(await api.post("/api/auth/login", { email, password: PASSWORD }, { clientAddress: uniqueAddress() }))
    .token as string

describe("taking an account back: unexchanged codes", () => {
  it("a code issued but not exchanged is void once the sessions end (logout-all, an operator, a reset with logoutAll)", async () => {
    const operator = await platformAdmin(api)
    const refusedAfter = async (end: (owner: { id: string; email: string; token: string }) => Promise<void>) => {
      const { community, owner } = await newCommunity(api, "Código")
      const clientId = await registerClient(api)
      const { code, verifier } = await codeFor(api, clientId, owner, community.id)
      await end(owner)
      const exchanged = await exchange(api, clientId, code, verifier)
      expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(400)
      expect(exchanged.body).toEqual({
        error: "invalid_grant",
        error_description: "The authorization code was voided: the account's sessions were ended"
      })
      // and it made no connection
      const mine = expectOk(
        await api.get("/api/oauth/connections", as({ token: await tokenOf(owner.email) }, community))
      )
      expect(mine).toEqual([])
    }
    await refusedAfter(async (owner) => {
      expectOk(await api.post("/api/auth/logout-all", { keepCurrent: true }, { token: owner.token }))
    })
    await refusedAfter(async (owner) => {
      expectOk(await api.del(`/api/admin/accounts/${owner.id}/sessions`, { token: operator }))
    })
    await refusedAfter(async (owner) => {
      expectOk(await api.post("/api/auth/recovery-password", { email: owner.email }))
      await waitForMail(roda, owner.email, "password-recovery")
      const link = await passwordLinkFor(roda, owner.email, "password-recovery")
      expectOk(
        await api.post("/api/auth/set-password", {
          id: link.id,
          token: link.token,
          password: PASSWORD,
          logoutAll: true
        })
      )
    })
  })
})
