import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { StatusCreated, StatusPost } from "../../src/social/Api"
import { as } from "../support/community"
import { bodyOf, failsReply, invalidReply, okBody, okReply, wireContract } from "../support/contractReplies"
import { expectError, expectInvalid, expectPlainJson, unknownId } from "../support/envelope"
import { client, register, startRoda } from "../support/harness"
import { AUTHOR_OR_STAFF, NOT_FOUND_STATUS, postStatus, type SocialCommunity, socialCommunity } from "./setup"

// Contract calls through `typed`; input the contract's types cannot express (untrimmed or too long
// bodies, malformed ids and limits, bodies that are not JSON) raw through `api`.
const roda = startRoda()
const api = client(roda)
const typed = wireContract(roda)
afterAll(() => roda.dispose())

let setup: SocialCommunity
let other: SocialCommunity
beforeAll(async () => {
  setup = await socialCommunity(api, "Status")
  other = await socialCommunity(api, "Outra")
})

const asUser = (user: { token: string }) => as(user, setup.community)
const statusOf = (user: { token: string }) => typed.as(user, setup.community).status

describe("POST /api/status", () => {
  it("creates a post authored by the caller, with author and empty counts (raw: the body is untrimmed)", async () => {
    const reply = await api.post("/api/status", { body: "  Primeiro post  " }, asUser(setup.alice))
    const post = okBody(reply, StatusPost, 201, "Publicação criada com sucesso.")
    expect(post).toMatchObject({
      body: "Primeiro post",
      author: { id: setup.alice.profileId, fullName: "Alice Alves", avatarUrl: null },
      reactions: { like: 0, love: 0, celebrate: 0, insightful: 0, funny: 0 },
      reactionCount: 0,
      commentCount: 0,
      myReaction: null,
      mentions: []
    })
    expectPlainJson(StatusCreated, bodyOf(reply))
  })

  it("records the X-ProfileId profile as author when staff act for someone", async () => {
    const asBruno = typed.clientOf({
      token: setup.owner.token,
      communityId: setup.community.id,
      profileId: setup.bruno.profileId
    })
    const { data: post } = await okReply(asBruno.status.create({ payload: { body: "Em nome de Bruno" } }), 201)
    expect(post.data.author.id).toBe(setup.bruno.profileId)
  })

  it("answers 400 for a missing, blank, too long or non-JSON body, never 5xx", async () => {
    expectInvalid(await api.post("/api/status", {}, asUser(setup.alice)), "body")
    expectInvalid(await api.post("/api/status", { body: "   " }, asUser(setup.alice)), "body")
    expectInvalid(await api.post("/api/status", { body: "x".repeat(5001) }, asUser(setup.alice)), "body")
    expectInvalid(await api.post("/api/status", { body: 42 }, asUser(setup.alice)), "body")
    expectError(await api.call("POST", "/api/status", { ...asUser(setup.alice), raw: "{not json" }), 400)
    await okReply(statusOf(setup.alice).create({ payload: { body: "x".repeat(5000) } }), 201)
  })

  it("requires a token and membership", async () => {
    await failsReply(typed.anonymous(setup.community).status.create({ payload: { body: "x" } }), 401)
    const stranger = await register(api, "Sara Stranger")
    await failsReply(statusOf(stranger).create({ payload: { body: "x" } }), 403)
  })
})

describe("mentions", () => {
  it("resolves @[Name](id) and @id to profiles of the community only, ignoring unknown ids", async () => {
    const body = `Oi @[Bruno Braga](${setup.bruno.profileId}) e @${setup.moderator.profileId.toUpperCase()}, ` +
      `@[Fantasma](${unknownId()}) e @[Estranho](${other.alice.profileId})`
    const post = await postStatus(typed, setup, setup.alice, body)
    expect(post.mentions).toEqual([
      { profileId: setup.bruno.profileId, fullName: "Bruno Braga" },
      { profileId: setup.moderator.profileId, fullName: "Maria Moderadora" }
    ])
    const { data: edited } = await okReply(
      statusOf(setup.alice).update({ path: { id: post.id }, payload: { body: "Sem menções" } }),
      200
    )
    expect(edited.data.mentions).toEqual([])
  })
})

describe("PUT and DELETE /api/status/{id}", () => {
  it("lets the author and moderators edit and delete; other members get 403", async () => {
    const post = await postStatus(typed, setup, setup.alice, "Original")
    const path = { id: post.id }
    await failsReply(
      statusOf(setup.bruno).update({ path, payload: { body: "Hack" } }),
      403,
      AUTHOR_OR_STAFF("member")
    )
    await failsReply(statusOf(setup.bruno).remove({ path }), 403, AUTHOR_OR_STAFF("member"))
    const { data: edited } = await okReply(statusOf(setup.alice).update({ path, payload: { body: "Editado" } }), 200)
    expect(edited.message).toBe("Publicação atualizada com sucesso.")
    expect(edited.data.body).toBe("Editado")
    await okReply(statusOf(setup.moderator).update({ path, payload: { body: "Moderado" } }), 200)
    const { data: removed } = await okReply(statusOf(setup.moderator).remove({ path }), 200)
    expect(removed).toEqual({ success: true, message: "Publicação removida com sucesso.", data: null })
    await failsReply(statusOf(setup.alice).update({ path, payload: { body: "x" } }), 404, NOT_FOUND_STATUS)
    await failsReply(statusOf(setup.alice).remove({ path }), 404, NOT_FOUND_STATUS)
    const { data: list } = await okReply(statusOf(setup.alice).list({ urlParams: { limit: 100 } }), 200)
    expect(list.data.map((p) => p.id)).not.toContain(post.id)
  })

  it("answers 404 for another community's post and 400 for a malformed id", async () => {
    const foreign = await postStatus(typed, other, other.alice)
    const path = { id: foreign.id }
    const owner = statusOf(setup.owner)
    await failsReply(owner.update({ path, payload: { body: "x" } }), 404, NOT_FOUND_STATUS)
    await failsReply(owner.remove({ path }), 404)
    await failsReply(owner.react({ path, payload: { type: "like" } }), 404)
    await failsReply(owner.comment({ path, payload: { body: "x" } }), 404)
    await failsReply(owner.comments({ path, urlParams: {} }), 404)
    expectInvalid(await api.put("/api/status/not-an-id", { body: "x" }, asUser(setup.owner)), "id", "params")
  })
})

describe("GET /api/status (Public)", () => {
  it("lists newest first with keyset pagination, no repeats", async () => {
    const fresh = await socialCommunity(api, "Paginação")
    const ids: Array<string> = []
    for (let i = 0; i < 5; i++) ids.push((await postStatus(typed, fresh, fresh.alice, `Post ${i}`)).id)
    const asBruno = typed.as(fresh.bruno, fresh.community).status
    const pageAfter = async (cursor: string | null) =>
      (await okReply(asBruno.list({ urlParams: cursor === null ? { limit: 2 } : { limit: 2, cursor } }), 200)).data
    const seen: Array<string> = []
    let cursor: string | null = null
    do {
      const page = await pageAfter(cursor)
      expect(page.message).toBe("Publicações encontradas.")
      expect(page.data.length).toBeLessThanOrEqual(2)
      seen.push(...page.data.map((p) => p.id))
      cursor = page.pagination.nextCursor
    } while (cursor)
    expect(seen).toEqual([...ids].reverse())
  })

  it("answers 400 for a bad cursor or limit", async () => {
    await invalidReply(statusOf(setup.alice).list({ urlParams: { cursor: "bad" } }), "cursor", "query")
    expectInvalid(await api.get("/api/status?limit=0", asUser(setup.alice)), "limit", "query")
    expectInvalid(await api.get("/api/status?limit=abc", asUser(setup.alice)), "limit", "query")
  })

  it("shows anonymous visitors nothing unless the community sets publicStatusPosts", async () => {
    const fresh = await socialCommunity(api, "Publico")
    await postStatus(typed, fresh, fresh.alice, "Visível?")
    const anonymous = typed.anonymous(fresh.community).status
    expect((await okReply(anonymous.list({ urlParams: {} }), 200)).data.data).toEqual([])
    const stranger = await register(api, "Sara Stranger")
    expect((await okReply(typed.as(stranger, fresh.community).status.list({ urlParams: {} }), 200)).data.data)
      .toEqual([])
    await okReply(
      typed.as(fresh.owner, fresh.community).communities.settings({
        path: { id: fresh.community.id },
        payload: { publicStatusPosts: true }
      }),
      200
    )
    expect((await okReply(anonymous.list({ urlParams: {} }), 200)).data.data).toHaveLength(1)
    await failsReply(typed.anonymous().status.list({ urlParams: {} }), 400)
  })
})
