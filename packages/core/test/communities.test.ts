import { afterAll, describe, expect, it } from "vitest"
import { communityMessages } from "../src/communities/messages"
import { Messages } from "../src/domain/Messages"
import {
  expectCreated,
  expectError,
  expectInvalid,
  expectOk,
  roleRequired,
  uniqueTag,
  unknownId,
  UUID
} from "./support/envelope"
import { client, makeCommunity, register, startRoda } from "./support/harness"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

/** A community with a unique name, so slugs never clash with those of the other tests of the file. */
const newCommunity = (label = "Comunidade") => makeCommunity(api, `${label} ${uniqueTag()}`)

const NOT_MEMBER = "Você não é membro desta comunidade."
const OWNER_ONLY_AS_ADMIN = "Função necessária: owner. Sua função: admin"
const MANAGERS_ONLY_AS_MEMBER = "Função necessária: owner ou admin. Sua função: member"

describe("POST /api/communities", () => {
  it("creates the community with the creator as owner", async () => {
    const user = await register(api, "Carla Criadora")
    const name = `Clube do Livro ${uniqueTag()}`
    const reply = await api.post("/api/communities", { name }, { token: user.token })
    const data = expectCreated(reply, communityMessages.communityCreated.pt)
    expect(data).toMatchObject({ name, role: "owner", customDomain: null })
    expect(data.profileId).toMatch(UUID)

    const mine = expectOk(await api.get("/api/communities/my", { token: user.token }))
    expect(mine).toEqual([{
      id: data.id,
      name,
      slug: data.slug,
      customDomain: null,
      role: "owner",
      profileId: data.profileId
    }])

    const members = expectOk(
      await api.get(`/api/communities/${data.id}/members`, { token: user.token, community: data.id })
    )
    expect(members).toHaveLength(1)
    expect(members[0]).toMatchObject({
      id: data.profileId,
      accountId: user.id,
      role: "owner",
      fullName: "Carla Criadora"
    })
  })

  it("generates the slug from the name without accents", async () => {
    const user = await register(api)
    const tag = uniqueTag()
    const data = expectCreated(
      await api.post("/api/communities", { name: `Comunidade São João ${tag}` }, { token: user.token })
    )
    expect(data.slug).toBe(`comunidade-sao-joao-${tag}`)

    const other = expectCreated(
      await api.post("/api/communities", { name: `  Ação & Reação: Ñandú Über ${tag}!  ` }, { token: user.token })
    )
    expect(other.slug).toBe(`acao-reacao-nandu-uber-${tag}`)
    expect(other.name).toBe(`Ação & Reação: Ñandú Über ${tag}!`)
  })

  it("adds a numeric suffix when the generated slug is taken", async () => {
    const user = await register(api)
    const name = `Grupo de Corrida ${uniqueTag()}`
    const slugs: Array<string> = []
    for (let i = 0; i < 3; i++) {
      slugs.push(expectCreated(await api.post("/api/communities", { name }, { token: user.token })).slug)
    }
    const base = slugs[0]!
    expect(slugs).toEqual([base, `${base}-2`, `${base}-3`])
  })

  it("still finds a free slug when the name is very common", async () => {
    const user = await register(api)
    const name = `Comunidade Popular ${uniqueTag()}`
    const slugs = new Set<string>()
    for (let i = 0; i < 60; i++) {
      slugs.add(expectCreated(await api.post("/api/communities", { name }, { token: user.token })).slug)
    }
    expect(slugs.size).toBe(60)
    const base = [...slugs][0]!
    for (const slug of slugs) expect(slug).toMatch(new RegExp(`^${base}(-[0-9a-f]+)?$`))
  })

  it("gives concurrent creations of the same name distinct slugs, and one explicit slug to one of them", async () => {
    const user = await register(api)
    const name = `Mesmo Nome ${uniqueTag()}`
    const generated = await Promise.all(
      [1, 2, 3, 4].map(() => api.post("/api/communities", { name }, { token: user.token }))
    )
    const slugs = generated.map((reply) => expectCreated(reply).slug)
    expect(new Set(slugs).size).toBe(4)

    const slug = `disputado-${uniqueTag()}`
    const explicit = await Promise.all(
      [1, 2, 3].map((i) => api.post("/api/communities", { name: `Disputa ${i}`, slug }, { token: user.token }))
    )
    expect(explicit.map((reply) => reply.status).sort()).toEqual([201, 409, 409])
    for (const reply of explicit) if (reply.status === 409) expectError(reply, 409, Messages.slugTaken.pt)
    expect(expectOk(await api.get("/api/communities/my", { token: user.token }))).toHaveLength(5)
  })

  it("keeps an explicit slug and refuses one that is taken with 409", async () => {
    const user = await register(api)
    const slug = `meu-clube-${uniqueTag()}`
    const data = expectCreated(
      await api.post("/api/communities", { name: "Qualquer Nome", slug }, { token: user.token })
    )
    expect(data.slug).toBe(slug)

    const again = await api.post("/api/communities", { name: "Outro Nome", slug }, { token: user.token })
    expectError(again, 409, Messages.slugTaken.pt)
  })

  it("refuses a custom domain already in use with 409, whatever its case", async () => {
    const user = await register(api)
    const domain = `clube-${uniqueTag()}.example.com`
    const data = expectCreated(
      await api.post("/api/communities", { name: `Clube ${uniqueTag()}`, customDomain: domain.toUpperCase() }, {
        token: user.token
      })
    )
    expect(data.customDomain).toBe(domain)

    const again = await api.post("/api/communities", { name: `Outro ${uniqueTag()}`, customDomain: domain }, {
      token: user.token
    })
    expectError(again, 409, communityMessages.domainTaken.pt)
  })

  it("rejects an invalid slug, domain or name with 400 naming the field", async () => {
    const user = await register(api)
    expectInvalid(
      await api.post("/api/communities", { name: "Ok", slug: "Not A Slug!" }, { token: user.token }),
      "slug"
    )
    expectInvalid(
      await api.post("/api/communities", { name: "Ok", slug: "double--hyphen" }, { token: user.token }),
      "slug"
    )
    expectInvalid(
      await api.post("/api/communities", { name: "Ok", customDomain: "not a domain" }, { token: user.token }),
      "customDomain"
    )
    expectInvalid(await api.post("/api/communities", { name: "   " }, { token: user.token }), "name")
    expectInvalid(await api.post("/api/communities", { name: 42 }, { token: user.token }), "name")
    const missing = expectInvalid(await api.post("/api/communities", {}, { token: user.token }), "name")
    expect(missing.errors[0].msg).toBe("name is required")
  })

  it("answers 400 for a body that is not JSON or not an object, never 5xx", async () => {
    const user = await register(api)
    const malformed = await api.call("POST", "/api/communities", { raw: "{name:", token: user.token })
    expectError(malformed, 400, Messages.invalidJson.pt)
    expectInvalid(await api.post("/api/communities", [1, 2], { token: user.token }), "body")
    expectError(await api.post("/api/communities", "text", { token: user.token }), 400)
    expectError(await api.post("/api/communities", null, { token: user.token }), 400)
  })

  it("needs a token but no X-CommunityId", async () => {
    expectError(await api.post("/api/communities", { name: "Sem Token" }), 401, "Authentication token is required")
    expectError(
      await api.post("/api/communities", { name: "Token Ruim" }, { token: "not-a-jwt" }),
      401,
      "Invalid or expired token"
    )
  })

  it("answers in English when asked", async () => {
    const user = await register(api)
    const reply = await api.post("/api/communities", { name: `English ${uniqueTag()}` }, {
      token: user.token,
      headers: { "accept-language": "en" }
    })
    expectCreated(reply, communityMessages.communityCreated.en)
  })
})

describe("GET /api/communities/my", () => {
  it("lists every community of the account with its role in each", async () => {
    const a = await newCommunity("Alfa")
    const b = await newCommunity("Beta")
    const person = await a.addMember("admin", "Paula Pessoa")
    const invited = expectCreated(
      await api.post("/api/profiles/create", { email: person.email }, {
        token: b.owner.token,
        community: b.community.id
      })
    )
    // an invitation is no membership (issue 10)
    expect(expectOk(await api.get("/api/communities/my", { token: person.token }))).toHaveLength(1)
    expectOk(
      await api.post(`/api/profiles/${invited.id}/accept`, undefined, {
        token: person.token,
        community: b.community.id
      })
    )

    const mine = expectOk(
      await api.get("/api/communities/my", { token: person.token }),
      200,
      communityMessages.communities.pt
    )
    expect(mine).toHaveLength(2)
    expect(mine).toEqual(expect.arrayContaining([
      expect.objectContaining({ id: a.community.id, role: "admin", profileId: person.profileId }),
      expect.objectContaining({ id: b.community.id, role: "member" })
    ]))

    const owners = expectOk(await api.get("/api/communities/my", { token: a.owner.token }))
    expect(owners).toEqual([
      expect.objectContaining({ id: a.community.id, role: "owner", profileId: a.owner.profileId })
    ])
  })

  it("is empty for an account without communities, and needs a token", async () => {
    const user = await register(api)
    expect(expectOk(await api.get("/api/communities/my", { token: user.token }))).toEqual([])
    expectError(await api.get("/api/communities/my"), 401, "Authentication token is required")
  })
})

describe("POST /api/communities/domain", () => {
  it("resolves a custom domain and a slug, without a token", async () => {
    const owner = await register(api)
    const domain = `portal-${uniqueTag()}.example.org`
    const created = expectCreated(
      await api.post("/api/communities", { name: `Portal ${uniqueTag()}`, customDomain: domain }, {
        token: owner.token
      })
    )

    const byDomain = expectOk(await api.post("/api/communities/domain", { domain: domain.toUpperCase() }))
    expect(byDomain).toMatchObject({ id: created.id, name: created.name, slug: created.slug, customDomain: domain })
    expect(byDomain.settings).toEqual({})

    const bySlug = expectOk(await api.post("/api/communities/domain", { domain: created.slug }))
    expect(bySlug.id).toBe(created.id)

    const withToken = expectOk(
      await api.post("/api/communities/domain", { domain: created.slug }, { token: owner.token })
    )
    expect(withToken.id).toBe(created.id)
  })

  it("answers 404 for an unknown domain and 400 for a missing one", async () => {
    expectError(
      await api.post("/api/communities/domain", { domain: `nada-${uniqueTag()}.example.com` }),
      404,
      Messages.communityNotFound.pt
    )
    expectInvalid(await api.post("/api/communities/domain", {}), "domain")
    expectInvalid(await api.post("/api/communities/domain", { domain: 7 }), "domain")
    expectError(await api.call("POST", "/api/communities/domain", { raw: "nope" }), 400)
  })
})

describe("PUT /api/communities/{id}", () => {
  it("lets the owner change name, slug and domain", async () => {
    const { owner, community } = await newCommunity()
    const slug = `novo-${uniqueTag()}`
    const domain = `novo-${uniqueTag()}.example.com`
    const reply = await api.put(
      `/api/communities/${community.id}`,
      { name: "Nome Novo", slug, customDomain: domain },
      { token: owner.token, community: community.id }
    )
    const data = expectOk(reply, 200, communityMessages.communityUpdated.pt)
    expect(data).toMatchObject({ id: community.id, name: "Nome Novo", slug, customDomain: domain })

    expect(expectOk(await api.post("/api/communities/domain", { domain: slug })).id).toBe(community.id)
    expectError(await api.post("/api/communities/domain", { domain: community.slug }), 404)

    const cleared = expectOk(
      await api.put(`/api/communities/${community.id}`, { customDomain: null }, {
        token: owner.token,
        community: community.id
      })
    )
    expect(cleared).toMatchObject({ name: "Nome Novo", slug, customDomain: null })
  })

  it("is for the owner only", async () => {
    const { community, addMember } = await newCommunity()
    const admin = await addMember("admin")
    const member = await addMember("member")
    expectError(
      await api.put(`/api/communities/${community.id}`, { name: "Tomada" }, {
        token: admin.token,
        community: community.id
      }),
      403,
      OWNER_ONLY_AS_ADMIN
    )
    expectError(
      await api.put(`/api/communities/${community.id}`, { name: "Tomada" }, {
        token: member.token,
        community: community.id
      }),
      403,
      roleRequired(["owner"], "member")
    )
    const outsider = await register(api)
    expectError(
      await api.put(`/api/communities/${community.id}`, { name: "Tomada" }, {
        token: outsider.token,
        community: community.id
      }),
      403,
      NOT_MEMBER
    )
  })

  it("accepts the ids in upper case", async () => {
    const { owner, community } = await newCommunity()
    const upper = community.id.toUpperCase()
    const data = expectOk(
      await api.put(`/api/communities/${upper}`, { name: "Caixa Alta" }, { token: owner.token, community: upper })
    )
    expect(data).toMatchObject({ id: community.id, name: "Caixa Alta" })
    expect(
      expectOk(await api.get(`/api/communities/${upper}/members`, { token: owner.token, community: community.id }))
    ).toHaveLength(1)
  })

  it("answers 404 when the path names another community than the header", async () => {
    const a = await newCommunity("A")
    const b = await newCommunity("B")
    const reply = await api.put(`/api/communities/${b.community.id}`, { name: "Invadida" }, {
      token: a.owner.token,
      community: a.community.id
    })
    expectError(reply, 404, Messages.communityNotFound.pt)
    const stillB = expectOk(await api.post("/api/communities/domain", { domain: b.community.slug }))
    expect(stillB.name).not.toBe("Invadida")
    expectError(
      await api.put(`/api/communities/${unknownId()}`, { name: "X" }, {
        token: a.owner.token,
        community: a.community.id
      }),
      404
    )
  })

  it("refuses a slug or domain that another community uses with 409", async () => {
    const a = await newCommunity()
    const b = await newCommunity()
    const domain = `usado-${uniqueTag()}.example.com`
    expectOk(
      await api.put(`/api/communities/${b.community.id}`, { customDomain: domain }, {
        token: b.owner.token,
        community: b.community.id
      })
    )

    expectError(
      await api.put(`/api/communities/${a.community.id}`, { slug: b.community.slug }, {
        token: a.owner.token,
        community: a.community.id
      }),
      409,
      Messages.slugTaken.pt
    )
    expectError(
      await api.put(`/api/communities/${a.community.id}`, { customDomain: domain }, {
        token: a.owner.token,
        community: a.community.id
      }),
      409,
      communityMessages.domainTaken.pt
    )
  })

  it("validates the id, the header and the body", async () => {
    const { owner, community } = await newCommunity()
    expectInvalid(
      await api.put("/api/communities/not-a-uuid", { name: "X" }, { token: owner.token, community: community.id }),
      "id",
      "params"
    )
    const noHeader = expectError(
      await api.put(`/api/communities/${community.id}`, { name: "X" }, { token: owner.token }),
      400
    )
    expect(noHeader.errors[0].param).toBe("X-CommunityId")
    expectInvalid(
      await api.put(`/api/communities/${community.id}`, { slug: "Bad Slug" }, {
        token: owner.token,
        community: community.id
      }),
      "slug"
    )
    expectInvalid(
      await api.put(`/api/communities/${community.id}`, { name: ["x"] }, {
        token: owner.token,
        community: community.id
      }),
      "name"
    )
    expectError(
      await api.call("PUT", `/api/communities/${community.id}`, {
        raw: "{",
        token: owner.token,
        community: community.id
      }),
      400,
      Messages.invalidJson.pt
    )
    expectError(await api.put(`/api/communities/${community.id}`, { name: "X" }, { community: community.id }), 401)
  })
})

describe("DELETE /api/communities/{id}", () => {
  it("is for the owner only", async () => {
    const { community, addMember } = await newCommunity()
    const admin = await addMember("admin")
    expectError(
      await api.del(`/api/communities/${community.id}`, { token: admin.token, community: community.id }),
      403,
      OWNER_ONLY_AS_ADMIN
    )
  })

  it("retires the community: gone from /my, closed to its members, its slug and domain free again", async () => {
    const domain = `fim-${uniqueTag()}.example.com`
    const { owner, community, addMember } = await newCommunity()
    const member = await addMember("member")
    expectOk(
      await api.put(`/api/communities/${community.id}`, { customDomain: domain }, {
        token: owner.token,
        community: community.id
      })
    )

    const removed = await api.del(`/api/communities/${community.id}`, { token: owner.token, community: community.id })
    expect(expectOk(removed, 200, communityMessages.communityDeleted.pt)).toBeNull()

    for (const user of [owner, member]) {
      expect(expectOk(await api.get("/api/communities/my", { token: user.token }))).toEqual([])
      expect(expectOk(await api.get("/api/profiles/my", { token: user.token }))).toEqual([])
      expectError(
        await api.get(`/api/communities/${community.id}/members`, { token: user.token, community: community.id }),
        403,
        NOT_MEMBER
      )
      expectError(await api.get("/api/profiles/list", { token: user.token, community: community.id }), 403, NOT_MEMBER)
    }
    expectError(
      await api.del(`/api/communities/${community.id}`, { token: owner.token, community: community.id }),
      403,
      NOT_MEMBER
    )
    expectError(await api.post("/api/communities/domain", { domain }), 404)
    expectError(await api.post("/api/communities/domain", { domain: community.slug }), 404)

    const reused = expectCreated(
      await api.post("/api/communities", { name: "Recomeço", slug: community.slug, customDomain: domain }, {
        token: member.token
      })
    )
    expect(reused.slug).toBe(community.slug)
    expect(expectOk(await api.post("/api/communities/domain", { domain })).id).toBe(reused.id)
  })

  it("answers 404 for another community's id and 400 for a malformed one", async () => {
    const a = await newCommunity()
    const b = await newCommunity()
    expectError(
      await api.del(`/api/communities/${b.community.id}`, { token: a.owner.token, community: a.community.id }),
      404
    )
    expectOk(
      await api.get(`/api/communities/${b.community.id}/members`, { token: b.owner.token, community: b.community.id })
    )
    expectInvalid(
      await api.del("/api/communities/123", { token: a.owner.token, community: a.community.id }),
      "id",
      "params"
    )
  })
})

describe("GET /api/communities/{id}/members", () => {
  it("pages through the members with a keyset cursor", async () => {
    const { owner, community, addMember } = await newCommunity()
    for (const role of ["admin", "moderator", "member", "finance"]) await addMember(role)
    const auth = { token: owner.token, community: community.id }

    const seen: Array<string> = []
    let cursor: string | null = null
    const sizes: Array<number> = []
    do {
      const query: string = cursor === null ? "?limit=2" : `?limit=2&cursor=${encodeURIComponent(cursor)}`
      const reply = await api.get(`/api/communities/${community.id}/members${query}`, auth)
      const data = expectOk(reply, 200, communityMessages.members.pt)
      expect(reply.body.pagination.limit).toBe(2)
      sizes.push(data.length)
      seen.push(...data.map((p: { id: string }) => p.id))
      cursor = reply.body.pagination.nextCursor
    } while (cursor !== null && sizes.length < 10)

    expect(sizes).toEqual([2, 2, 1])
    expect(new Set(seen).size).toBe(5)
    const all = await api.get(`/api/communities/${community.id}/members`, auth)
    expect(expectOk(all).map((p: { id: string }) => p.id)).toEqual(seen)
    expect(all.body.pagination).toEqual({ limit: 20, nextCursor: null })
  })

  it("ends with a null cursor when the last page is exactly full", async () => {
    const { owner, community, addMember } = await newCommunity()
    await addMember("member")
    const reply = await api.get(`/api/communities/${community.id}/members?limit=2`, {
      token: owner.token,
      community: community.id
    })
    expect(expectOk(reply)).toHaveLength(2)
    expect(reply.body.pagination.nextCursor).toBeNull()
  })

  it("is open to any member and lists only live members of this community", async () => {
    const a = await newCommunity()
    const b = await newCommunity()
    const member = await a.addMember("member", "Mario Membro")
    const leaving = await a.addMember("member", "Lia Saindo")
    await b.addMember("member", "Bruno de Outra")
    expectOk(await api.del(`/api/profiles/${leaving.profileId}`, { token: leaving.token, community: a.community.id }))

    const data = expectOk(
      await api.get(`/api/communities/${a.community.id}/members`, { token: member.token, community: a.community.id })
    )
    expect(data.map((p: { fullName: string }) => p.fullName).sort()).toEqual(["Mario Membro", "Olga Owner"])
    expect(data.every((p: { communityId: string }) => p.communityId === a.community.id)).toBe(true)
  })

  it("validates limit and cursor as query parameters", async () => {
    const { owner, community } = await newCommunity()
    const auth = { token: owner.token, community: community.id }
    const path = `/api/communities/${community.id}/members`
    for (const limit of ["0", "101", "-1"]) {
      const body = expectInvalid(await api.get(`${path}?limit=${limit}`, auth), "limit", "query")
      expect(body.errors[0].msg).toBe("limit must be an integer between 1 and 100")
    }
    for (const limit of ["abc", "1.5", ""]) {
      expectInvalid(await api.get(`${path}?limit=${limit}`, auth), "limit", "query")
    }
    expectOk(await api.get(`${path}?limit=100`, auth))
    expectInvalid(await api.get(`${path}?cursor=${encodeURIComponent("%%%not-a-cursor")}`, auth), "cursor", "query")
    const notAKey = Buffer.from(JSON.stringify({ id: "x" })).toString("base64url")
    expectInvalid(await api.get(`${path}?cursor=${notAKey}`, auth), "cursor", "query")
    expectInvalid(await api.get(`${path}?cursor=${"a".repeat(600)}`, auth), "cursor", "query")
    // A well-formed cursor whose key is not an id never reaches the database as one.
    const forged = Buffer.from(JSON.stringify(["not-a-uuid"])).toString("base64url")
    expectInvalid(await api.get(`${path}?cursor=${forged}`, auth), "cursor", "query")
    expectInvalid(await api.get(`/api/profiles/list?cursor=${forged}`, auth), "cursor", "query")
  })

  it("answers 404 for another community and 400 for a malformed id", async () => {
    const a = await newCommunity()
    const b = await newCommunity()
    expectError(
      await api.get(`/api/communities/${b.community.id}/members`, { token: a.owner.token, community: a.community.id }),
      404,
      Messages.communityNotFound.pt
    )
    expectInvalid(
      await api.get("/api/communities/nope/members", { token: a.owner.token, community: a.community.id }),
      "id",
      "params"
    )
    expectError(
      await api.get(`/api/communities/${b.community.id}/members`, { token: a.owner.token, community: b.community.id }),
      403,
      NOT_MEMBER
    )
  })
})

describe("PATCH /api/communities/{id}/settings", () => {
  it("merges partial updates: fields not sent are kept", async () => {
    const { owner, community } = await newCommunity()
    const auth = { token: owner.token, community: community.id }
    const path = `/api/communities/${community.id}/settings`

    const first = expectOk(
      await api.patch(path, { description: "Leitores de SP" }, auth),
      200,
      communityMessages.settingsUpdated.pt
    )
    expect(first.settings).toEqual({ description: "Leitores de SP" })

    const second = expectOk(await api.patch(path, { primaryColor: "#1A2b3C" }, auth))
    expect(second.settings).toEqual({ description: "Leitores de SP", primaryColor: "#1A2b3C" })

    const third = expectOk(
      await api.patch(
        path,
        { logoUrl: "https://cdn.example.com/logo.png", membersCanInvite: true, language: "en" },
        auth
      )
    )
    expect(third.settings).toEqual({
      description: "Leitores de SP",
      primaryColor: "#1A2b3C",
      logoUrl: "https://cdn.example.com/logo.png",
      membersCanInvite: true,
      language: "en"
    })
    expect(third).toMatchObject({ id: community.id, slug: community.slug })

    const cleared = expectOk(await api.patch(path, { logoUrl: null }, auth))
    expect(cleared.settings.logoUrl).toBeNull()
    expect(cleared.settings.description).toBe("Leitores de SP")

    const unchanged = expectOk(await api.patch(path, {}, auth))
    expect(unchanged.settings).toEqual(cleared.settings)
    expect(expectOk(await api.post("/api/communities/domain", { domain: community.slug })).settings).toEqual(
      cleared.settings
    )
  })

  it("validates each field", async () => {
    const { owner, community } = await newCommunity()
    const auth = { token: owner.token, community: community.id }
    const path = `/api/communities/${community.id}/settings`
    expectInvalid(await api.patch(path, { primaryColor: "red" }, auth), "primaryColor")
    expectInvalid(await api.patch(path, { logoUrl: "javascript:alert(1)" }, auth), "logoUrl")
    expectInvalid(await api.patch(path, { language: "fr" }, auth), "language")
    expectInvalid(await api.patch(path, { membersCanInvite: "yes" }, auth), "membersCanInvite")
    const both = expectInvalid(await api.patch(path, { primaryColor: "red", language: "fr" }, auth), "primaryColor")
    expect(new Set(both.errors.map((e: { param: string }) => e.param))).toEqual(new Set(["language", "primaryColor"]))
    expectError(await api.call("PATCH", path, { raw: "not json", ...auth }), 400, Messages.invalidJson.pt)
    expect(expectOk(await api.patch(path, {}, auth)).settings).toEqual({})
  })

  it("is for owners and admins", async () => {
    const { community, addMember } = await newCommunity()
    const admin = await addMember("admin")
    const member = await addMember("member")
    const moderator = await addMember("moderator")
    const path = `/api/communities/${community.id}/settings`
    expectOk(await api.patch(path, { description: "pelo admin" }, { token: admin.token, community: community.id }))
    expectError(
      await api.patch(path, { description: "x" }, { token: member.token, community: community.id }),
      403,
      MANAGERS_ONLY_AS_MEMBER
    )
    expectError(
      await api.patch(path, { description: "x" }, { token: moderator.token, community: community.id }),
      403,
      roleRequired(["owner", "admin"], "moderator")
    )
  })

  it("answers 404 for another community and 400 for a malformed id", async () => {
    const a = await newCommunity()
    const b = await newCommunity()
    expectError(
      await api.patch(`/api/communities/${b.community.id}/settings`, { description: "x" }, {
        token: a.owner.token,
        community: a.community.id
      }),
      404
    )
    expect(expectOk(await api.post("/api/communities/domain", { domain: b.community.slug })).settings).toEqual({})
    expectInvalid(
      await api.patch("/api/communities/xyz/settings", { description: "x" }, {
        token: a.owner.token,
        community: a.community.id
      }),
      "id",
      "params"
    )
  })
})

describe("GET and PUT /api/notification-settings", () => {
  it("starts empty, then keeps the sales e-mail per community", async () => {
    const a = await newCommunity()
    const b = await newCommunity()
    const auth = { token: a.owner.token, community: a.community.id }

    const initial = expectOk(
      await api.get("/api/notification-settings", auth),
      200,
      communityMessages.notificationSettings.pt
    )
    expect(initial).toEqual({ salesEmail: null, updatedAt: null })

    const set = expectOk(
      await api.put("/api/notification-settings", { salesEmail: "  Vendas@Example.COM " }, auth),
      200,
      communityMessages.settingsUpdated.pt
    )
    expect(set.salesEmail).toBe("vendas@example.com")
    expect(new Date(set.updatedAt).toISOString()).toBe(set.updatedAt)
    expect(expectOk(await api.get("/api/notification-settings", auth)).salesEmail).toBe("vendas@example.com")

    const other = expectOk(
      await api.get("/api/notification-settings", { token: b.owner.token, community: b.community.id })
    )
    expect(other.salesEmail).toBeNull()

    expect(expectOk(await api.put("/api/notification-settings", { salesEmail: null }, auth)).salesEmail).toBeNull()
  })

  it("is for owners and admins", async () => {
    const { community, addMember } = await newCommunity()
    const admin = await addMember("admin")
    const member = await addMember("member")
    const finance = await addMember("finance")
    expectOk(
      await api.put("/api/notification-settings", { salesEmail: "admin@example.com" }, {
        token: admin.token,
        community: community.id
      })
    )
    expect(
      expectOk(await api.get("/api/notification-settings", { token: admin.token, community: community.id })).salesEmail
    )
      .toBe("admin@example.com")
    expectError(
      await api.get("/api/notification-settings", { token: member.token, community: community.id }),
      403,
      MANAGERS_ONLY_AS_MEMBER
    )
    expectError(
      await api.put("/api/notification-settings", { salesEmail: "x@example.com" }, {
        token: member.token,
        community: community.id
      }),
      403,
      MANAGERS_ONLY_AS_MEMBER
    )
    expectError(
      await api.get("/api/notification-settings", { token: finance.token, community: community.id }),
      403,
      roleRequired(["owner", "admin"], "finance")
    )
  })

  it("validates the e-mail and needs the community header", async () => {
    const { owner, community } = await newCommunity()
    const auth = { token: owner.token, community: community.id }
    expectInvalid(await api.put("/api/notification-settings", { salesEmail: "not-an-email" }, auth), "salesEmail")
    expectInvalid(await api.put("/api/notification-settings", { salesEmail: 12 }, auth), "salesEmail")
    expectInvalid(await api.put("/api/notification-settings", {}, auth), "salesEmail")
    const noHeader = expectError(
      await api.get("/api/notification-settings", { token: owner.token }),
      400,
      "Send the community in the X-CommunityId header."
    )
    expect(noHeader.errors[0]).toMatchObject({ param: "X-CommunityId", location: "headers" })
    const badHeader = expectError(
      await api.get("/api/notification-settings", { token: owner.token, community: "abc" }),
      400
    )
    expect(badHeader.errors[0].param).toBe("X-CommunityId")
    expectError(
      await api.get("/api/notification-settings", { community: community.id }),
      401,
      "Authentication token is required"
    )
  })
})
