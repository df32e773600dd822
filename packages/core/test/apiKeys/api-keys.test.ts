import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { POSTGRES_ONLY, skipWhen } from "../../../../testing/skips"
import type { Roda } from "../../node/index"
import { type Client, client, makeCommunity, startRoda } from "../support/harness"

/** Issue 54, item 1: API keys (platform.md "API keys"). */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

type Community = Awaited<ReturnType<typeof makeCommunity>>

const createKey = (
  on: Client,
  community: Community,
  body: Record<string, unknown>,
  token = community.owner.token
) => on.post("/api/api-keys", body, { token, community: community.community.id })

const keyOf = async (community: Community, scopes: ReadonlyArray<string>, token?: string) => {
  const reply = await createKey(api, community, { name: `key ${scopes.join(" ")}`, scopes }, token)
  expect(reply.status, JSON.stringify(reply.body)).toBe(201)
  return reply.body.data as { id: string; key: string; prefix: string }
}

let home: Community
let other: Community
beforeAll(async () => {
  home = await makeCommunity(api, "Chaves")
  other = await makeCommunity(api, "Outra")
})

describe("managing keys", () => {
  it("creates a key shown once and stored hashed, lists it without the key, revokes it", async () => {
    const created = await createKey(api, home, {
      name: "  CRM  ",
      scopes: ["community:read", "content:read", "community:read"],
      expiresAt: "2099-01-01T00:00:00Z"
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const key = created.body.data
    expect(key.key).toMatch(/^rk_[A-Za-z0-9_-]{43}$/)
    expect(key.prefix).toBe(key.key.slice(0, 8))
    expect(key).toMatchObject({
      name: "CRM",
      scopes: ["community:read", "content:read"],
      expiresAt: "2099-01-01T00:00:00.000Z",
      revokedAt: null,
      lastUsedAt: null
    })
    const stored = await roda.runtime.runPromise(
      (await import("effect")).Effect.flatMap(
        (await import("@effect/sql")).SqlClient.SqlClient,
        (sql) => sql<{ keyHash: string }>`SELECT key_hash FROM api_keys WHERE id = ${key.id}`
      )
    )
    expect(stored[0]!.keyHash).not.toContain(key.key.slice(3))
    expect(stored[0]!.keyHash).toMatch(/^[0-9a-f]{64}$/)

    const listed = await api.get("/api/api-keys", { token: home.owner.token, community: home.community.id })
    expect(listed.status).toBe(200)
    const item = listed.body.data.find((k: { id: string }) => k.id === key.id)
    expect(item).toMatchObject({ name: "CRM", prefix: key.prefix, createdBy: expect.any(String) })
    expect(item.key).toBeUndefined()
    expect(JSON.stringify(listed.body)).not.toContain(key.key)

    const revoked = await api.del(`/api/api-keys/${key.id}`, { token: home.owner.token, community: home.community.id })
    expect(revoked.status).toBe(200)
    expect(revoked.body.data.revokedAt).toEqual(expect.any(String))
    const again = await api.del(`/api/api-keys/${key.id}`, { token: home.owner.token, community: home.community.id })
    expect(again.body.data.revokedAt).toBe(revoked.body.data.revokedAt)
  })

  it("is for owners and admins; another community's key is 404; bad input is 400 with the field", async () => {
    const admin = await home.addMember("admin")
    const member = await home.addMember("member")
    expect((await createKey(api, home, { name: "a", scopes: ["content:read"] }, admin.token)).status).toBe(201)
    const refused = await createKey(api, home, { name: "m", scopes: ["content:read"] }, member.token)
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe("role_required")
    expect((await api.get("/api/api-keys", { token: member.token, community: home.community.id })).status).toBe(403)

    const theirs = await keyOf(other, ["content:read"])
    const foreign = await api.del(`/api/api-keys/${theirs.id}`, {
      token: home.owner.token,
      community: home.community.id
    })
    expect(foreign.status).toBe(404)
    expect(foreign.body.message).toBe("Chave de API não encontrada.")

    for (
      const [body, param] of [
        [{ name: "", scopes: ["content:read"] }, "name"],
        [{ name: "x", scopes: [] }, "scopes"],
        [{ name: "x", scopes: ["everything"] }, "scopes"],
        [{ name: "x", scopes: ["content:read"], expiresAt: "tomorrow" }, "expiresAt"],
        [{ name: "x", scopes: ["content:read"], expiresAt: "2001-01-01T00:00:00Z" }, "expiresAt"],
        [{ name: "x", scopes: ["content:read"], admin: true }, "admin"]
      ] as const
    ) {
      const reply = await createKey(api, home, body)
      expect(reply.status, JSON.stringify(body)).toBe(400)
      const params = reply.body.errors.map((e: { param: string }) => e.param.split(".")[0])
      expect(params, JSON.stringify(reply.body)).toContain(param)
    }
  })
})

describe("calling with a key", () => {
  const as = (key: string, community = home.community.id) => ({ token: key, community })

  it("acts within its scopes: reads with :read, writes with :write, 403 naming the scope it lacks", async () => {
    const reader = await keyOf(home, ["community:read"])
    expect((await api.get("/api/sections", as(reader.key))).status).toBe(200)
    const refused = await api.post("/api/sections", { title: "Por chave" }, as(reader.key))
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe("api_key_scope_missing")
    expect(refused.body.message).toBe("Esta chave de API não tem o escopo community:write.")
    const feed = await api.get("/api/feed", as(reader.key))
    expect(feed.status).toBe(403)
    expect(feed.body.message).toContain("content:read")

    const writer = await keyOf(home, ["community:write"])
    const made = await api.post("/api/sections", { title: "Por chave" }, as(writer.key))
    expect(made.status, JSON.stringify(made.body)).toBe(201)
  })

  it("money is read-only for keys; account, OAuth and key routes take none", async () => {
    const all = await keyOf(home, ["money:read", "community:read", "community:write"])
    expect((await api.get("/api/ledger/balance", as(all.key))).status).not.toBe(403)
    const payout = await api.post("/api/payouts", { amount: 100 }, as(all.key))
    expect(payout.status).toBe(403)
    expect(payout.body.code).toBe("api_key_route_refused")
    for (
      const [method, path] of [["GET", "/api/auth/me"], ["GET", "/api/api-keys"], ["GET", "/api/oauth/connections"]]
    ) {
      const reply = await api.call(method!, path!, as(all.key))
      expect(reply.status, path).toBe(403)
      expect(reply.body.code, path).toBe("api_key_route_refused")
    }
    const mine = await api.get("/api/communities/my", { token: all.key })
    expect(mine.status).toBe(403)
  })

  it("answers 403 with another community's header, 401 when revoked, expired or unknown", async () => {
    const key = await keyOf(home, ["community:read"])
    const elsewhere = await api.get("/api/sections", as(key.key, other.community.id))
    expect(elsewhere.status).toBe(403)
    expect(elsewhere.body.code).toBe("api_key_other_community")

    const unknown = await api.get("/api/sections", as(`rk_${"A".repeat(43)}`))
    expect(unknown.status).toBe(401)
    expect(unknown.body.message).toBe("Invalid or expired token")

    await api.del(`/api/api-keys/${key.id}`, { token: home.owner.token, community: home.community.id })
    const revoked = await api.get("/api/sections", as(key.key))
    expect(revoked.status).toBe(401)
    expect(revoked.body.message).toBe("Invalid or expired token")

    const soon = new Date(Date.now() + 1500).toISOString()
    const brief = await createKey(api, home, { name: "breve", scopes: ["community:read"], expiresAt: soon })
    expect((await api.get("/api/sections", as(brief.body.data.key))).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 1600))
    expect((await api.get("/api/sections", as(brief.body.data.key))).status).toBe(401)
  })

  it("has the creator's current role as its ceiling", async () => {
    const admin = await home.addMember("admin", "Ada Admin")
    const key = await keyOf(home, ["community:read", "community:write"], admin.token)
    expect((await api.post("/api/sections", { title: "Da admin" }, as(key.key))).status).toBe(201)
    const demoted = await api.put(`/api/profiles/${admin.profileId}/role`, { role: "member" }, {
      token: home.owner.token,
      community: home.community.id
    })
    expect(demoted.status, JSON.stringify(demoted.body)).toBe(200)
    const after = await api.post("/api/sections", { title: "Da ex-admin" }, as(key.key))
    expect(after.status).toBe(403)
    expect(after.body.code).toBe("role_required")
    expect((await api.get("/api/sections", as(key.key))).status).toBe(200)
  })
})

describe("the key's limit", () => {
  let limited: Roda
  afterAll(() => limited?.dispose())
  it("counts requests per key: past it, 429 with Retry-After and the rate-limit headers", async () => {
    limited = startRoda({ rateLimits: { apiKey: { limit: 3, windowSeconds: 60 } } })
    const on = client(limited)
    const community = await makeCommunity(on, "Limitada")
    const made = await createKey(on, community, { name: "lim", scopes: ["community:read"] })
    const headers = { token: made.body.data.key, community: community.community.id }
    for (let i = 0; i < 3; i++) {
      const reply = await on.get("/api/sections", headers)
      expect(reply.status).toBe(200)
      expect(reply.headers.get("ratelimit-policy")).toBe(`"apiKey";q=3;w=60`)
      expect(reply.headers.get("ratelimit")).toMatch(new RegExp(`^"apiKey";r=${2 - i};t=\\d+$`))
    }
    const over = await on.get("/api/sections", headers)
    expect(over.status).toBe(429)
    expect(over.headers.get("retry-after")).toMatch(/^\d+$/)
    expect(over.headers.get("ratelimit-policy")).toBe(`"apiKey";q=3;w=60`)
    // another key of the same account has its own count
    const second = await createKey(on, community, { name: "lim2", scopes: ["community:read"] })
    expect((await on.get("/api/sections", { ...headers, token: second.body.data.key })).status).toBe(200)
  })
})

skipWhen(POSTGRES_ONLY).describe("two Rodas on one database", () => {
  it("a key revoked through one is refused by the other at its next request", async () => {
    const second = startRoda()
    try {
      const key = await keyOf(home, ["community:read"])
      const there = client(second)
      expect((await there.get("/api/sections", { token: key.key, community: home.community.id })).status).toBe(200)
      await api.del(`/api/api-keys/${key.id}`, { token: home.owner.token, community: home.community.id })
      expect((await there.get("/api/sections", { token: key.key, community: home.community.id })).status).toBe(401)
    } finally {
      await second.dispose()
    }
  })
})
