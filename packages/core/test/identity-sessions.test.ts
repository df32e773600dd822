import { Effect, Exit } from "effect"
import { SignJWT } from "jose"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { McpAccess } from "../src/index"
import { authenticate, codeFor, exchange, registerClient } from "./oauth/support"
import { uniqueAddress } from "./support/auth"
import { as, newCommunity } from "./support/community"
import { expectError, expectInvalid, expectOk } from "./support/envelope"
import { client, PASSWORD, PLATFORM_ADMIN, register, startRoda, uniqueEmail } from "./support/harness"
import { connectMcpClient, form } from "./support/oauth"
import { outboxFor, passwordLinkFor, waitForMail } from "./support/outbox"
import { platformAdmin } from "./support/selling"

/** Issue 52 item 1: sessions exactly as platform.md "Sessions" says. */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())
// the database starts with the first request (slow on a busy machine): not inside a test's time
beforeAll(() => register(api, "Warm Up"), 180_000)

const INVALID = "Invalid or expired token"
const login = (email: string, clientAddress = uniqueAddress(), userAgent = "Test/1.0") =>
  api.post("/api/auth/login", { email, password: PASSWORD }, { clientAddress, headers: { "user-agent": userAgent } })
const tokenOf = async (email: string, clientAddress?: string) =>
  expectOk(await login(email, clientAddress)).token as string
const me = (token: string) => api.get("/api/auth/me", { token })
const ownProfile = (mine: Array<{ id: string; community: { id: string } }>, communityId: string) =>
  mine.find((profile) => profile.community.id === communityId)!
const sessionsOf = async (token: string) => expectOk(await api.get("/api/auth/sessions", { token }))

describe("sessions", () => {
  it("every sign-in is a session: listed newest first, the current one marked, no X-CommunityId", async () => {
    const user = await register(api, "Sara Sessão")
    const address = uniqueAddress()
    const second = await tokenOf(user.email, address)
    const listed = await sessionsOf(second)
    expect(listed, JSON.stringify(listed)).toHaveLength(2)
    expect(listed[0], JSON.stringify(listed)).toMatchObject({
      current: true,
      userAgent: "Test/1.0",
      // in canonical form, as the client address is resolved
      clientAddress: new URL(`http://[${address}]`).hostname.slice(1, -1)
    })
    expect(listed[1]).toMatchObject({ current: false })
    expect(Object.keys(listed[0]).sort()).toEqual(
      ["clientAddress", "createdAt", "current", "id", "lastUsedAt", "userAgent"]
    )
    expect(listed[0].lastUsedAt).toMatch(/:00\.000Z$/)
    expect(Date.parse(listed[0].createdAt)).toBeGreaterThanOrEqual(Date.parse(listed[1].createdAt))
    // paging: one at a time
    const first = await api.get("/api/auth/sessions?limit=1", { token: second })
    expect(first.body.data).toHaveLength(1)
    const next = await api.get(`/api/auth/sessions?limit=1&cursor=${first.body.pagination.nextCursor}`, {
      token: second
    })
    expect(next.body.data[0].id).toBe(listed[1].id)
    expectInvalid(await api.get("/api/auth/sessions?cursor=nope", { token: second }), "cursor", "query")
    expectError(await api.get("/api/auth/sessions"), 401, "Authentication token is required")
  })

  it("ends one session (its token answers 401 at once); another account's session is 404", async () => {
    const user = await register(api, "Ana Uma")
    const other = await register(api, "Otto Outro")
    const stolen = await tokenOf(user.email)
    const victimSessions = await sessionsOf(user.token)
    const stolenId = victimSessions.find((s: { current: boolean }) => !s.current).id
    // another account cannot end it (nor learn it exists)
    expectError(await api.del(`/api/auth/sessions/${stolenId}`, { token: other.token }), 404)
    expectOk(await me(stolen))
    expectOk(await api.del(`/api/auth/sessions/${stolenId}`, { token: user.token }))
    expectError(await me(stolen), 401, INVALID)
    expectOk(await me(user.token))
    // ended already: 404; a bad id: 400 naming it
    expectError(await api.del(`/api/auth/sessions/${stolenId}`, { token: user.token }), 404)
    expectInvalid(await api.del("/api/auth/sessions/nope", { token: user.token }), "id", "params")
  })

  it("logout ends the current session only; logout-all ends the others, or all", async () => {
    const user = await register(api, "Lia Logout")
    const [a, b, c] = [await tokenOf(user.email), await tokenOf(user.email), await tokenOf(user.email)]
    expectOk(await api.post("/api/auth/logout", undefined, { token: a }))
    expectError(await me(a), 401, INVALID)
    expectError(await api.post("/api/auth/logout", undefined, { token: a }), 401, INVALID)
    expectOk(await me(b))
    const kept = expectOk(await api.post("/api/auth/logout-all", { keepCurrent: true }, { token: b }))
    expect(kept).toEqual({ sessions: 2, connections: 0 })
    expectOk(await me(b))
    expectError(await me(c), 401, INVALID)
    expectError(await me(user.token), 401, INVALID)
    expect(expectOk(await api.post("/api/auth/logout-all", {}, { token: b }))).toEqual({ sessions: 1, connections: 0 })
    expectError(await me(b), 401, INVALID)
    expectInvalid(
      await api.post("/api/auth/logout-all", { keepCurrent: "yes" }, { token: await tokenOf(user.email) }),
      "keepCurrent"
    )
  })

  it("an ended session is refused on scoped and public routes and by MCP stdio (authenticateLocal)", async () => {
    const { community, addMember } = await newCommunity(api, "Sessões")
    const member = await addMember("member")
    const token = await tokenOf(member.email)
    const local = () =>
      roda.runtime.runPromise(
        Effect.exit(Effect.flatMap(McpAccess, (mcp) => mcp.authenticateLocal(token, community.id)))
      )
    expect(Exit.isSuccess(await local())).toBe(true)
    expectOk(await api.get("/api/profiles/list", as({ token }, community)))
    expectOk(await api.post("/api/auth/logout", undefined, { token }))
    expectError(await api.get("/api/profiles/list", as({ token }, community)), 401, INVALID)
    expectError(await api.get("/api/sections", as({ token }, community)), 401, INVALID)
    expectError(await api.get("/api/profiles/my", { token }), 401, INVALID)
    expectError(await api.post("/api/status", { body: "x" }, as({ token }, community)), 401, INVALID)
    const exit = await local()
    expect(Exit.isFailure(exit) && exit.cause._tag === "Fail" && exit.cause.error.status).toBe(401)
  })

  it("a password change alone ends no session (spec §5.3)", async () => {
    const user = await register(api, "Pedro Senha")
    expectOk(
      await api.put("/api/auth/change-password", { currentPassword: PASSWORD, newPassword: "Outra123" }, {
        token: user.token
      })
    )
    expectOk(await me(user.token))
  })

  it("refuses a token issued before sessions (no sid): its holder signs in again", async () => {
    const user = await register(api, "Velho Token")
    const now = Math.floor(Date.now() / 1000)
    const legacy = await new SignJWT({ email: user.email }).setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(user.id).setIssuedAt(now).setExpirationTime(now + 3600)
      .sign(new TextEncoder().encode("test-secret-that-is-long-enough-for-hs256"))
    expectError(await me(legacy), 401, INVALID)
  })
})

describe("DELETE /api/admin/accounts/{id}/sessions (operators)", () => {
  it("ends every session and OAuth grant of an account, in the operator audit log; others get 403", async () => {
    const { community, owner } = await newCommunity(api, "Operador")
    const stolen = await tokenOf(owner.email)
    const mcp = await connectMcpClient(api, owner, community.id)
    expectError(await api.del(`/api/admin/accounts/${owner.id}/sessions`, { token: owner.token }), 403)
    expectOk(await me(stolen))
    const operator = await platformAdmin(api)
    expectError(await api.del(`/api/admin/accounts/${crypto.randomUUID()}/sessions`, { token: operator }), 404)
    expectInvalid(await api.del("/api/admin/accounts/nope/sessions", { token: operator }), "id", "params")
    const ended = expectOk(await api.del(`/api/admin/accounts/${owner.id}/sessions`, { token: operator }))
    expect(ended).toEqual({ sessions: 2, connections: 1 })
    expectError(await me(stolen), 401, INVALID)
    expectError(await me(owner.token), 401, INVALID)
    expect(await authenticate(roda, mcp.accessToken)).toEqual({ failed: true })
    const log = expectOk(await api.get("/api/admin/audit?action=account.sessions_end", { token: operator }))
    expect(log[0]).toMatchObject({
      actor: { email: PLATFORM_ADMIN },
      action: "account.sessions_end",
      target: { type: "account", id: owner.id },
      details: { sessions: 2, connections: 1 }
    })
  })
})

describe("taking an account back (issue 52 item 3)", () => {
  it("the reproduced chain fails: a reset with logoutAll kills the stolen token and grants; the token alone cannot move the e-mail", async () => {
    const { community, owner: victim } = await newCommunity(api, "Vítima")
    const attacker = await tokenOf(victim.email)
    const mcp = await connectMcpClient(api, { token: attacker }, community.id)
    const profile = ownProfile(expectOk(await api.get("/api/profiles/my", { token: attacker })), community.id)
    // the stolen token alone cannot change the login e-mail any more
    expectInvalid(
      await api.put(
        `/api/profiles/${profile.id}/email`,
        { email: uniqueEmail("thief") },
        as({ token: attacker }, community)
      ),
      "currentPassword"
    )
    expectInvalid(
      await api.put(
        `/api/profiles/${profile.id}/email`,
        { email: uniqueEmail("thief"), currentPassword: "Guess1234" },
        as({ token: attacker }, community)
      ),
      "currentPassword"
    )
    // the victim resets the password, ending everything
    expectOk(await api.post("/api/auth/recovery-password", { email: victim.email }))
    await waitForMail(roda, victim.email, "password-recovery")
    const link = await passwordLinkFor(roda, victim.email, "password-recovery")
    expectOk(
      await api.post("/api/auth/set-password", {
        id: link.id,
        token: link.token,
        password: "Retomada123",
        logoutAll: true
      })
    )
    expectError(await me(attacker), 401, INVALID)
    expectError(await api.get("/api/profiles/list", as({ token: attacker }, community)), 401, INVALID)
    expect(await authenticate(roda, mcp.accessToken)).toEqual({ failed: true })
    const refreshed = await api.call(
      "POST",
      "/oauth/token",
      form({ grant_type: "refresh_token", refresh_token: mcp.refreshToken, client_id: mcp.clientId })
    )
    expect(refreshed.status).toBe(400)
    expect(refreshed.body.error).toBe("invalid_grant")
    expectOk(await api.post("/api/auth/login", { email: victim.email, password: "Retomada123" }))
  })

  it("the attacker moves the e-mail first: the undo link sent to the old address restores it and ends their sessions and grants", async () => {
    const { community, owner: victim } = await newCommunity(api, "Desfazer")
    const attacker = await tokenOf(victim.email)
    const mcp = await connectMcpClient(api, { token: attacker }, community.id)
    const profile = ownProfile(expectOk(await api.get("/api/profiles/my", { token: attacker })), community.id)
    const thief = uniqueEmail("thief")
    expectOk(
      await api.put(
        `/api/profiles/${profile.id}/email`,
        { email: thief, currentPassword: PASSWORD },
        as({ token: attacker }, community)
      ),
      202
    )
    const linkIn = async (recipient: string, kind: string) => {
      const mails = (await outboxFor(roda, recipient)).filter((mail) => mail.kind === kind)
      const match = /https?:\/\/\S+\/confirm-email\?\S+/.exec(mails[mails.length - 1]!.body)!
      const url = new URL(match[0])
      return { id: url.searchParams.get("id")!, token: url.searchParams.get("token")! }
    }
    const undo = await linkIn(victim.email, "email-change-notice")
    expect((await outboxFor(roda, victim.email)).find((m) => m.kind === "email-change-notice")!.body).toContain(
      "7 dias"
    )
    // the attacker confirms: the login is now theirs
    expectOk(await api.post("/api/auth/confirm-email", await linkIn(thief, "email-change")))
    expect(expectOk(await me(attacker)).email).toBe(thief)
    // the victim takes it back from the old address
    expect(expectOk(await api.post("/api/auth/confirm-email", undo))).toEqual({ email: victim.email })
    expectError(await me(attacker), 401, INVALID)
    expectError(await me(victim.token), 401, INVALID)
    expect(await authenticate(roda, mcp.accessToken)).toEqual({ failed: true })
    expectError(await api.post("/api/auth/login", { email: thief, password: PASSWORD }), 401)
    const back = expectOk(await api.post("/api/auth/login", { email: victim.email, password: PASSWORD }))
    expect(expectOk(await me(back.token))).toMatchObject({ email: victim.email, emailVerified: true })
    // single use
    expectError(await api.post("/api/auth/confirm-email", undo), 410)
  })

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

  it("logout-all revokes OAuth grants too: the access token is refused and the refresh fails", async () => {
    const { community, owner } = await newCommunity(api, "Conexões")
    const mcp = await connectMcpClient(api, owner, community.id)
    expect(await authenticate(roda, mcp.accessToken)).toMatchObject({ connectionId: mcp.connectionId })
    const kept = await tokenOf(owner.email)
    expect(expectOk(await api.post("/api/auth/logout-all", { keepCurrent: true }, { token: kept }))).toMatchObject({
      connections: 1
    })
    expect(await authenticate(roda, mcp.accessToken)).toEqual({ failed: true })
    const refreshed = await api.call(
      "POST",
      "/oauth/token",
      form({ grant_type: "refresh_token", refresh_token: mcp.refreshToken, client_id: mcp.clientId })
    )
    expect(refreshed.body.error).toBe("invalid_grant")
  })
})
