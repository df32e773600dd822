import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { StatusCreated } from "../../src/social/Api"
import { as } from "../support/community"
import { expectError, expectInvalid, expectOk, expectPlainJson, unknownId } from "../support/envelope"
import { client, register, startRoda } from "../support/harness"
import { AUTHOR_OR_STAFF, NOT_FOUND_STATUS, postStatus, type SocialCommunity, socialCommunity } from "./setup"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: SocialCommunity
let other: SocialCommunity
beforeAll(async () => {
  setup = await socialCommunity(api, "Status")
  other = await socialCommunity(api, "Outra")
})

const asUser = (user: { token: string }) => as(user, setup.community)

describe("POST /api/status", () => {
  it("creates a post authored by the caller, with author and empty counts", async () => {
    const reply = await api.post("/api/status", { body: "  Primeiro post  " }, asUser(setup.alice))
    const post = expectOk(reply, 201, "Publicação criada com sucesso.")
    expect(post).toMatchObject({
      body: "Primeiro post",
      author: { id: setup.alice.profileId, fullName: "Alice Alves", avatarUrl: null },
      reactions: { like: 0, love: 0, celebrate: 0, insightful: 0, funny: 0 },
      reactionCount: 0,
      commentCount: 0,
      myReaction: null,
      mentions: []
    })
    expectPlainJson(StatusCreated, reply.body)
  })

  it("records the X-ProfileId profile as author when staff act for someone", async () => {
    const post = expectOk(
      await api.post("/api/status", { body: "Em nome de Bruno" }, {
        ...asUser(setup.owner),
        profile: setup.bruno.profileId
      }),
      201
    )
    expect(post.author.id).toBe(setup.bruno.profileId)
  })

  it("answers 400 for a missing, blank, too long or non-JSON body, never 5xx", async () => {
    expectInvalid(await api.post("/api/status", {}, asUser(setup.alice)), "body")
    expectInvalid(await api.post("/api/status", { body: "   " }, asUser(setup.alice)), "body")
    expectInvalid(await api.post("/api/status", { body: "x".repeat(5001) }, asUser(setup.alice)), "body")
    expectInvalid(await api.post("/api/status", { body: 42 }, asUser(setup.alice)), "body")
    expectError(await api.call("POST", "/api/status", { ...asUser(setup.alice), raw: "{not json" }), 400)
    expectOk(await api.post("/api/status", { body: "x".repeat(5000) }, asUser(setup.alice)), 201)
  })

  it("requires a token and membership", async () => {
    expectError(await api.post("/api/status", { body: "x" }, { community: setup.community.id }), 401)
    const stranger = await register(api, "Sara Stranger")
    expectError(await api.post("/api/status", { body: "x" }, asUser(stranger)), 403)
  })
})

describe("mentions", () => {
  it("resolves @[Name](id) and @id to profiles of the community only, ignoring unknown ids", async () => {
    const body = `Oi @[Bruno Braga](${setup.bruno.profileId}) e @${setup.moderator.profileId.toUpperCase()}, ` +
      `@[Fantasma](${unknownId()}) e @[Estranho](${other.alice.profileId})`
    const post = await postStatus(api, setup, setup.alice, body)
    expect(post.mentions).toEqual([
      { profileId: setup.bruno.profileId, fullName: "Bruno Braga" },
      { profileId: setup.moderator.profileId, fullName: "Maria Moderadora" }
    ])
    const edited = expectOk(await api.put(`/api/status/${post.id}`, { body: "Sem menções" }, asUser(setup.alice)))
    expect(edited.mentions).toEqual([])
  })
})

describe("PUT and DELETE /api/status/{id}", () => {
  it("lets the author and moderators edit and delete; other members get 403", async () => {
    const post = await postStatus(api, setup, setup.alice, "Original")
    expectError(
      await api.put(`/api/status/${post.id}`, { body: "Hack" }, asUser(setup.bruno)),
      403,
      AUTHOR_OR_STAFF("member")
    )
    expectError(await api.del(`/api/status/${post.id}`, asUser(setup.bruno)), 403, AUTHOR_OR_STAFF("member"))
    const edited = expectOk(
      await api.put(`/api/status/${post.id}`, { body: "Editado" }, asUser(setup.alice)),
      200,
      "Publicação atualizada com sucesso."
    )
    expect(edited.body).toBe("Editado")
    expectOk(await api.put(`/api/status/${post.id}`, { body: "Moderado" }, asUser(setup.moderator)))
    expectOk(await api.del(`/api/status/${post.id}`, asUser(setup.moderator)), 200, "Publicação removida com sucesso.")
    expectError(await api.put(`/api/status/${post.id}`, { body: "x" }, asUser(setup.alice)), 404, NOT_FOUND_STATUS)
    expectError(await api.del(`/api/status/${post.id}`, asUser(setup.alice)), 404, NOT_FOUND_STATUS)
    const list = expectOk(await api.get("/api/status?limit=100", asUser(setup.alice)))
    expect(list.map((p: { id: string }) => p.id)).not.toContain(post.id)
  })

  it("answers 404 for another community's post and 400 for a malformed id", async () => {
    const foreign = await postStatus(api, other, other.alice)
    expectError(await api.put(`/api/status/${foreign.id}`, { body: "x" }, asUser(setup.owner)), 404, NOT_FOUND_STATUS)
    expectError(await api.del(`/api/status/${foreign.id}`, asUser(setup.owner)), 404)
    expectError(await api.post(`/api/status/${foreign.id}/react`, { type: "like" }, asUser(setup.owner)), 404)
    expectError(await api.post(`/api/status/${foreign.id}/comment`, { body: "x" }, asUser(setup.owner)), 404)
    expectError(await api.get(`/api/status/${foreign.id}/comments`, asUser(setup.owner)), 404)
    expectInvalid(await api.put("/api/status/not-an-id", { body: "x" }, asUser(setup.owner)), "id", "params")
  })
})

describe("GET /api/status (Public)", () => {
  it("lists newest first with keyset pagination, no repeats", async () => {
    const fresh = await socialCommunity(api, "Paginação")
    const ids: Array<string> = []
    for (let i = 0; i < 5; i++) ids.push((await postStatus(api, fresh, fresh.alice, `Post ${i}`)).id)
    const seen: Array<string> = []
    let cursor: string | null = null
    do {
      const query: string = cursor ? `?limit=2&cursor=${cursor}` : "?limit=2"
      const reply = await api.get(`/api/status${query}`, as(fresh.bruno, fresh.community))
      const page = expectOk(reply, 200, "Publicações encontradas.")
      expect(page.length).toBeLessThanOrEqual(2)
      seen.push(...page.map((p: { id: string }) => p.id))
      cursor = reply.body.pagination.nextCursor
    } while (cursor)
    expect(seen).toEqual([...ids].reverse())
  })

  it("answers 400 for a bad cursor or limit", async () => {
    expectInvalid(await api.get("/api/status?cursor=bad", asUser(setup.alice)), "cursor", "query")
    expectInvalid(await api.get("/api/status?limit=0", asUser(setup.alice)), "limit", "query")
    expectInvalid(await api.get("/api/status?limit=abc", asUser(setup.alice)), "limit", "query")
  })

  it("shows anonymous visitors nothing unless the community sets publicStatusPosts", async () => {
    const fresh = await socialCommunity(api, "Publico")
    await postStatus(api, fresh, fresh.alice, "Visível?")
    expect(expectOk(await api.get("/api/status", { community: fresh.community.id }))).toEqual([])
    const stranger = await register(api, "Sara Stranger")
    expect(expectOk(await api.get("/api/status", as(stranger, fresh.community)))).toEqual([])
    expectOk(
      await api.patch(
        `/api/communities/${fresh.community.id}/settings`,
        { publicStatusPosts: true },
        as(fresh.owner, fresh.community)
      )
    )
    expect(expectOk(await api.get("/api/status", { community: fresh.community.id }))).toHaveLength(1)
    expectError(await api.get("/api/status"), 400)
  })
})
