import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Roda } from "../../src/index"
import { subscribed } from "../commerce/subscriptions-support"
import { authenticate } from "../oauth/support"
import { as, newCommunity } from "../support/community"
import { expectCreated, expectError, expectOk } from "../support/envelope"
import { type Client, client, PASSWORD, startRoda } from "../support/harness"
import { connectMcpClient } from "../support/oauth"
import { query } from "../support/sql"

/**
 * Issue 56 item 4: `DELETE /api/account` as platform.md "Members' data rights" says: sessions, keys
 * and OAuth grants end, e-mail, names and phone are erased, profiles become the former member, posts
 * and comments are kept or deleted, subscriptions end at the period end, orders and ledger stay, the
 * owner of a community with other members is refused, and the e-mail may register again.
 */
let roda: Roda
let api: Client
beforeAll(() => {
  roda = startRoda({ runJobs: false })
  api = client(roda)
})
afterAll(() => roda.dispose())

/** A community's name as its creation answered it. */
const nameOf = (community: object) => (community as { name: string }).name

const ERASED = "Conta excluída. Seus dados pessoais foram apagados."
const WRONG = "A senha atual está incorreta."
const INVALID_CREDENTIALS = "E-mail ou senha inválidos."
const TOKEN_INVALID = "Invalid or expired token"

const erase = (token: string, body: unknown) => api.call("DELETE", "/api/account", { token, body })

const accountRow = async (id: string) =>
  (await query<{ email: string; fullName: string; passwordHash: string | null; erasedAt: Date | null }>(
    roda,
    (sql) => sql`SELECT email, full_name, password_hash, erased_at FROM accounts WHERE id = ${id}`
  ))[0]!

const profileRow = async (id: string) =>
  (await query<
    { fullName: string; phone: string | null; bio: string | null; tags: Array<string>; removedAt: Date | null }
  >(
    roda,
    (sql) => sql`SELECT full_name, phone, bio, tags, removed_at FROM profiles WHERE id = ${id}`
  ))[0]!

const count = async (build: Parameters<typeof query<{ n: number }>>[1]) =>
  Number((await query<{ n: number }>(roda, build))[0]!.n)

describe("DELETE /api/account", () => {
  it("erases the caller and keeps posts under the former-member name; orders and ledger stay; the e-mail registers again", async () => {
    const made = await subscribed(api, "Marta Membro")
    const marta = made.member
    const inShop = as(marta, made.community)
    // a phone, bio and tags on the profile; a post, a comment and a reaction; an assistant connection
    expectOk(await api.put(`/api/profiles/${marta.profileId}`, { bio: "Oi, sou a Marta." }, inShop))
    expectOk(await api.put(`/api/profiles/${marta.profileId}/phone`, { phone: "+5511999990000" }, inShop))
    expectOk(await api.put(`/api/profiles/${marta.profileId}/tags`, { tags: ["vip"] }, made.scoped))
    const ownerPost = expectCreated(await api.post("/api/status", { body: "Bem-vindos!" }, made.scoped)) as {
      id: string
    }
    const post = expectCreated(await api.post("/api/status", { body: "Post da Marta" }, inShop)) as { id: string }
    expectCreated(await api.post(`/api/status/${ownerPost.id}/comment`, { body: "Comentário da Marta" }, inShop))
    expectOk(await api.post(`/api/status/${ownerPost.id}/react`, { type: "like" }, inShop))
    const mcp = await connectMcpClient(api, marta, made.community.id)
    const charges = await count((sql) =>
      sql`SELECT count(*)::int AS n FROM charges WHERE community_id = ${made.community.id}`
    )
    const entries = await count((sql) =>
      sql`SELECT count(*)::int AS n FROM ledger_entries WHERE community_id = ${made.community.id}`
    )

    const data = expectOk(await erase(marta.token, { password: PASSWORD }), 200, ERASED)
    expect(data).toEqual({ id: marta.id, deleteContent: false })

    // the token, the password and the assistant's grant are dead
    expectError(await api.get("/api/auth/me", { token: marta.token }), 401, TOKEN_INVALID)
    expectError(await api.post("/api/auth/login", { email: marta.email, password: PASSWORD }), 401, INVALID_CREDENTIALS)
    expect(await authenticate(roda, mcp.accessToken)).toEqual({ failed: true })
    // the account keeps only its id: no address, name or password
    const account = await accountRow(marta.id)
    expect(account).toMatchObject({ email: `erased+${marta.id}@invalid`, fullName: "", passwordHash: null })
    expect(account.erasedAt).not.toBeNull()
    expect(JSON.stringify(await query(roda, (sql) => sql`SELECT * FROM accounts WHERE id = ${marta.id}`))).not
      .toContain(
        "Marta"
      )
    // the profile is the former member, out of the member list
    expect(await profileRow(marta.profileId)).toMatchObject({ fullName: "Ex-membro", phone: null, bio: null, tags: [] })
    expect((await profileRow(marta.profileId)).removedAt).not.toBeNull()
    const members = expectOk(await api.get("/api/profiles/list?limit=100", made.scoped)) as Array<{ id: string }>
    expect(members.map((m) => m.id)).not.toContain(marta.profileId)
    // posts and comments stay, under the former-member name
    const feed = expectOk(await api.get("/api/status", made.scoped)) as Array<any>
    expect(feed.find((p) => p.id === post.id)?.author).toMatchObject({ id: marta.profileId, fullName: "Ex-membro" })
    const comments = expectOk(await api.get(`/api/status/${ownerPost.id}/comments`, made.scoped)) as Array<any>
    expect(comments.map((c) => [c.body, c.author.fullName])).toEqual([["Comentário da Marta", "Ex-membro"]])
    // the subscription ends at the period end; orders and ledger are kept
    const [subscription] = await query<{ status: string; cancelAtPeriodEnd: boolean }>(
      roda,
      (sql) => sql`SELECT status, cancel_at_period_end FROM subscriptions WHERE id = ${made.subscriptionId}`
    )
    expect(subscription).toEqual({ status: "active", cancelAtPeriodEnd: true })
    expect(await count((sql) => sql`SELECT count(*)::int AS n FROM charges WHERE community_id = ${made.community.id}`))
      .toBe(charges)
    expect(
      await count((sql) => sql`SELECT count(*)::int AS n FROM ledger_entries WHERE community_id = ${made.community.id}`)
    ).toBe(entries)
    // no notification, follow or preference of the member is left
    expect(
      await count((sql) =>
        sql`SELECT count(*)::int AS n FROM notifications WHERE recipient_profile_id = ${marta.profileId}`
      )
    ).toBe(0)

    // the address registers again, as a new account
    const again = expectCreated(
      await api.post("/api/auth/register", { fullName: "Marta Nova", email: marta.email, password: PASSWORD })
    ) as { id: string }
    expect(again.id).not.toBe(marta.id)
    expect(expectOk(await api.post("/api/auth/login", { email: marta.email, password: PASSWORD })).member.id).toBe(
      again.id
    )
  })

  it("deleteContent: true deletes posts, comments (with their replies) and reactions; API keys end", async () => {
    const setup = await newCommunity(api, "Conteúdo")
    const ada = await setup.addMember("admin", "Ada Admin")
    const inIt = as(ada, setup.community)
    const key = expectCreated(
      await api.post("/api/api-keys", { name: "CRM", scopes: ["community:read"] }, inIt)
    ) as { id: string; key: string }
    expectOk(await api.get("/api/sections", as({ token: key.key }, setup.community)))
    const ownerPost = expectCreated(
      await api.post("/api/status", { body: "Olá" }, as(setup.owner, setup.community))
    ) as {
      id: string
    }
    const post = expectCreated(await api.post("/api/status", { body: "Post da Ada" }, inIt)) as { id: string }
    const comment = expectCreated(
      await api.post(`/api/status/${ownerPost.id}/comment`, { body: "Comentário da Ada" }, inIt)
    ) as { id: string }
    expectCreated(
      await api.post(`/api/status/${ownerPost.id}/comment`, { body: "Resposta", parentId: comment.id }, {
        ...as(setup.owner, setup.community)
      })
    )
    expectCreated(
      await api.post(`/api/status/${ownerPost.id}/comment`, { body: "Outro" }, as(setup.owner, setup.community))
    )
    expectOk(await api.post(`/api/status/${ownerPost.id}/react`, { type: "like" }, inIt))

    expect(expectOk(await erase(ada.token, { password: PASSWORD, deleteContent: true }), 200, ERASED)).toEqual({
      id: ada.id,
      deleteContent: true
    })

    const owner = as(setup.owner, setup.community)
    const feed = expectOk(await api.get("/api/status", owner)) as Array<any>
    expect(feed.map((p) => p.id)).not.toContain(post.id)
    expectError(await api.get(`/api/status/${post.id}`, owner), 404)
    const comments = expectOk(await api.get(`/api/status/${ownerPost.id}/comments`, owner)) as Array<any>
    expect(comments.map((c) => c.body)).toEqual(["Outro"])
    expect(
      await count((sql) => sql`SELECT count(*)::int AS n FROM reactions WHERE profile_id = ${ada.profileId}`)
    ).toBe(0)
    // the key is revoked: refused
    expectError(await api.get("/api/sections", as({ token: key.key }, setup.community)), 401)
  })

  it("a wrong password is refused and changes nothing; a missing one or a wrong type is a 400 naming the field", async () => {
    const setup = await newCommunity(api, "Senha")
    const bia = await setup.addMember("member", "Bia Braga")
    const wrong = expectError(await erase(bia.token, { password: "Wrong123" }), 400, WRONG)
    expect(wrong.code).toBe("current_password_wrong")
    expect(wrong.errors).toEqual([{ param: "password", msg: WRONG, location: "body" }])
    const missing = expectError(await erase(bia.token, {}), 400)
    expect(missing.errors.map((e: { param: string }) => e.param)).toEqual(["password"])
    const typed = expectError(await erase(bia.token, { password: PASSWORD, deleteContent: "yes" }), 400)
    expect(typed.errors.map((e: { param: string }) => e.param)).toEqual(["deleteContent"])
    expectError(await erase("", { password: PASSWORD }), 401)
    expect(expectOk(await api.get("/api/auth/me", { token: bia.token })).fullName).toBe("Bia Braga")
    expect((await profileRow(bia.profileId)).fullName).toBe("Bia Braga")
  })

  it("the owner of a community with other members is refused with 409 naming it, and nothing changes", async () => {
    const setup = await newCommunity(api, "Dona")
    await setup.addMember("member", "Caio Costa")
    const reply = await erase(setup.owner.token, { password: PASSWORD })
    const body = expectError(reply, 409)
    expect(body.code).toBe("owned_communities")
    expect(body.message).toContain(nameOf(setup.community))
    expect(body.errors).toEqual([{
      param: "communities",
      msg: `Você é dono(a) de ${nameOf(setup.community)} (${setup.community.id}), que tem outros membros.`,
      location: "body"
    }])
    const english = await api.call("DELETE", "/api/account", {
      token: setup.owner.token,
      body: { password: PASSWORD },
      headers: { "accept-language": "en" }
    })
    expect(english.body.message).toBe(
      `Hand these communities over to another owner before deleting the account: ${nameOf(setup.community)}.`
    )
    expect(expectOk(await api.get("/api/auth/me", { token: setup.owner.token })).fullName).toBe("Olga Owner")
    expect((await profileRow(setup.owner.profileId)).fullName).toBe("Olga Owner")
    expect((await accountRow(setup.owner.id)).erasedAt).toBeNull()
  })

  it("the owner alone in a community is erased and the community deleted; an English community shows Former member", async () => {
    const setup = await newCommunity(api, "Sozinha")
    expectOk(
      await api.patch(
        `/api/communities/${setup.community.id}/settings`,
        { language: "en" },
        as(setup.owner, setup.community)
      )
    )
    // a member of another community too (invited and accepted)
    const elsewhere = await newCommunity(api, "Outra")
    const invited = expectCreated(
      await api.post("/api/profiles/create", { email: setup.owner.email }, as(elsewhere.owner, elsewhere.community))
    ) as { id: string }
    expectOk(await api.post(`/api/profiles/${invited.id}/accept`, undefined, as(setup.owner, elsewhere.community)))
    expectOk(await erase(setup.owner.token, { password: PASSWORD }), 200, ERASED)
    const [community] = await query<{ deletedAt: Date | null }>(
      roda,
      (sql) => sql`SELECT deleted_at FROM communities WHERE id = ${setup.community.id}`
    )
    expect(community!.deletedAt).not.toBeNull()
    expect((await profileRow(setup.owner.profileId)).fullName).toBe("Former member")
    // elsewhere: the former member (Portuguese), out of the community, which stays
    expect(await profileRow(invited.id)).toMatchObject({ fullName: "Ex-membro" })
    expectOk(await api.get("/api/profiles/list", as(elsewhere.owner, elsewhere.community)))
    expect(expectOk(await api.get("/api/auth/me", { token: elsewhere.owner.token })).fullName).toBe("Olga Owner")
  })
})
