import { Effect, Tracer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CommunityId } from "../../src/domain/Ids"
import { Comments } from "../../src/social/Comments"
import { Reactions } from "../../src/social/Reactions"
import { as } from "../support/community"
import { expectCreated, expectError, expectInvalid, expectOk, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import {
  AUTHOR_OR_STAFF,
  NOT_FOUND_COMMENT,
  postStatus,
  react,
  REPLY_DEPTH,
  type SocialCommunity,
  socialCommunity
} from "./setup"

// Statements are counted through their spans, which only exist with tracing on.
const roda = startRoda({}, { tracing: true })
const api = client(roda)
afterAll(() => roda.dispose())

let setup: SocialCommunity
let other: SocialCommunity
beforeAll(async () => {
  setup = await socialCommunity(api, "Reações")
  other = await socialCommunity(api, "Alheia")
})
const asUser = (user: { token: string }) => as(user, setup.community)

describe("POST /api/status/{id}/react", () => {
  it("adds, replaces and toggles off one reaction per person, with counts", async () => {
    const post = await postStatus(api, setup, setup.alice)
    const path = `/api/status/${post.id}`
    let state = await react(api, setup, setup.alice, path, "like")
    expect(state).toMatchObject({ itemType: "status", itemId: post.id, reaction: "like", reactionCount: 1 })
    state = await react(api, setup, setup.bruno, path, "love")
    expect(state.reactions).toEqual({ like: 1, love: 1, celebrate: 0, insightful: 0, funny: 0 })
    state = await react(api, setup, setup.alice, path, "funny")
    expect(state).toMatchObject({ reaction: "funny", reactionCount: 2, reactions: { like: 0, love: 1, funny: 1 } })
    const removed = await api.post(`${path}/react`, { type: "funny" }, asUser(setup.alice))
    expect(expectOk(removed, 200, "Reação removida.")).toMatchObject({ reaction: null, reactionCount: 1 })

    const listed = expectOk(await api.get("/api/status?limit=100", asUser(setup.bruno)))
    const mine = listed.find((p: { id: string }) => p.id === post.id)
    expect(mine).toMatchObject({ myReaction: "love", reactionCount: 1, reactions: { love: 1 } })
  })

  it("answers 400 for a type outside the fixed set or a missing type", async () => {
    const post = await postStatus(api, setup, setup.alice)
    expectInvalid(await api.post(`/api/status/${post.id}/react`, { type: "angry" }, asUser(setup.bruno)), "type")
    expectInvalid(await api.post(`/api/status/${post.id}/react`, {}, asUser(setup.bruno)), "type")
    expectError(await api.post(`/api/status/${unknownId()}/react`, { type: "like" }, asUser(setup.bruno)), 404)
  })
})

describe("comments", () => {
  it("adds comments and one level of replies, listed in threads oldest first with counts", async () => {
    const post = await postStatus(api, setup, setup.alice)
    const path = `/api/status/${post.id}`
    const first = expectCreated(
      await api.post(`${path}/comment`, { body: "Primeiro" }, asUser(setup.bruno)),
      "Comentário criado com sucesso."
    )
    expect(first).toMatchObject({
      itemType: "status",
      itemId: post.id,
      parentId: null,
      author: { id: setup.bruno.profileId }
    })
    const second = expectCreated(await api.post(`${path}/comment`, { body: "Segundo" }, asUser(setup.alice)))
    const reply = expectCreated(
      await api.post(`${path}/comment`, { body: "Resposta", parentId: first.id }, asUser(setup.alice))
    )
    expect(reply.parentId).toBe(first.id)

    expectError(
      await api.post(`${path}/comment`, { body: "Fundo", parentId: reply.id }, asUser(setup.bruno)),
      400,
      REPLY_DEPTH
    )
    expectError(
      await api.post(`${path}/comment`, { body: "x", parentId: unknownId() }, asUser(setup.bruno)),
      404,
      NOT_FOUND_COMMENT
    )
    const elsewhere = await postStatus(api, setup, setup.bruno)
    const body = expectError(
      await api.post(`/api/status/${elsewhere.id}/comment`, { body: "x", parentId: first.id }, asUser(setup.bruno)),
      400
    )
    expect(body.errors[0].param).toBe("parentId")
    expectInvalid(await api.post(`${path}/comment`, { body: "x", parentId: "nope" }, asUser(setup.bruno)), "parentId")
    expectInvalid(await api.post(`${path}/comment`, { body: "" }, asUser(setup.bruno)), "body")

    const all = expectOk(await api.get(`${path}/comments`, asUser(setup.bruno)), 200, "Comentários encontrados.")
    expect(all.map((c: { id: string }) => c.id)).toEqual([first.id, reply.id, second.id])
    const firstPage = await api.get(`${path}/comments?limit=2`, asUser(setup.bruno))
    expect(expectOk(firstPage).map((c: { id: string }) => c.id)).toEqual([first.id, reply.id])
    const next = await api.get(
      `${path}/comments?limit=2&cursor=${firstPage.body.pagination.nextCursor}`,
      asUser(setup.bruno)
    )
    expect(expectOk(next).map((c: { id: string }) => c.id)).toEqual([second.id])
    expect(next.body.pagination.nextCursor).toBeNull()

    const listed = expectOk(await api.get("/api/status?limit=100", asUser(setup.bruno)))
    expect(listed.find((p: { id: string }) => p.id === post.id).commentCount).toBe(3)
  })

  it("lets the author or a moderator edit and delete a comment; deleting a thread removes its replies", async () => {
    const post = await postStatus(api, setup, setup.alice)
    const path = `/api/status/${post.id}`
    const comment = expectCreated(await api.post(`${path}/comment`, { body: "Meu" }, asUser(setup.bruno)))
    await api.post(`${path}/comment`, { body: "Resposta", parentId: comment.id }, asUser(setup.alice))
    const target = `${path}/comment/${comment.id}`
    expectError(await api.put(target, { body: "Hack" }, asUser(setup.alice)), 403, AUTHOR_OR_STAFF("member"))
    expectError(await api.del(target, asUser(setup.alice)), 403)
    expect(
      expectOk(
        await api.put(target, { body: "Editado" }, asUser(setup.bruno)),
        200,
        "Comentário atualizado com sucesso."
      ).body
    ).toBe("Editado")
    expectOk(await api.put(target, { body: "Moderado" }, asUser(setup.moderator)))
    const otherPost = await postStatus(api, setup, setup.alice)
    expectError(
      await api.put(`/api/status/${otherPost.id}/comment/${comment.id}`, { body: "x" }, asUser(setup.bruno)),
      404,
      NOT_FOUND_COMMENT
    )
    expectOk(await api.del(target, asUser(setup.moderator)), 200, "Comentário removido com sucesso.")
    expect(expectOk(await api.get(`${path}/comments`, asUser(setup.bruno)))).toEqual([])
    expectError(await api.put(target, { body: "x" }, asUser(setup.bruno)), 404)
  })

  it("toggles reactions on comments and shows them in the list", async () => {
    const post = await postStatus(api, setup, setup.alice)
    const comment = expectCreated(
      await api.post(`/api/status/${post.id}/comment`, { body: "Reaja" }, asUser(setup.bruno))
    )
    const path = `/api/status/${post.id}/comment/${comment.id}`
    expect(await react(api, setup, setup.alice, path, "celebrate")).toMatchObject({
      itemType: "comment",
      reaction: "celebrate",
      reactionCount: 1
    })
    expect(await react(api, setup, setup.alice, path, "insightful")).toMatchObject({
      reaction: "insightful",
      reactionCount: 1
    })
    const listed = expectOk(await api.get(`/api/status/${post.id}/comments`, asUser(setup.alice)))
    expect(listed[0]).toMatchObject({ myReaction: "insightful", reactions: { insightful: 1 } })
    expect(await react(api, setup, setup.alice, path, "insightful")).toMatchObject({ reaction: null, reactionCount: 0 })
    expectInvalid(await api.post(`${path}/react`, { type: "meh" }, asUser(setup.alice)), "type")
    const foreign = await postStatus(api, other, other.alice)
    const foreignComment = expectCreated(
      await api.post(`/api/status/${foreign.id}/comment`, { body: "x" }, as(other.alice, other.community))
    )
    expectError(
      await api.post(
        `/api/status/${post.id}/comment/${foreignComment.id}/react`,
        { type: "like" },
        asUser(setup.alice)
      ),
      404
    )
  })
})

/** Counts spans @effect/sql opens per statement ("sql.execute"). */
const statements = <A>(effect: Effect.Effect<A, unknown, Reactions | Comments>) =>
  roda.runtime.runPromise(Effect.gen(function*() {
    const base = yield* Effect.tracer
    let n = 0
    const counting = Tracer.make({
      span: (name, ...rest) => {
        if (name === "sql.execute") n++
        return base.span(name, ...rest)
      },
      context: base.context
    })
    yield* effect.pipe(Effect.withTracer(counting))
    return n
  }))

describe("counts for lists", () => {
  it("load in one query each whatever the number of items, and GET /api/status pages in a fixed number", async () => {
    const fresh = await socialCommunity(api, "Consultas")
    const ids: Array<string> = []
    for (let i = 0; i < 6; i++) {
      const post = await postStatus(api, fresh, fresh.alice, `P${i} @[Bruno](${fresh.bruno.profileId})`)
      await react(api, fresh, fresh.bruno, `/api/status/${post.id}`, "like")
      await api.post(`/api/status/${post.id}/comment`, { body: "c" }, as(fresh.bruno, fresh.community))
      ids.push(post.id)
    }
    const c = CommunityId.make(fresh.community.id)
    const one = await statements(Effect.flatMap(Reactions, (r) => r.countsFor(c, "status", ids.slice(0, 1))))
    const six = await statements(Effect.flatMap(Reactions, (r) => r.countsFor(c, "status", ids)))
    expect([one, six]).toEqual([1, 1])
    const commentsOne = await statements(Effect.flatMap(Comments, (s) => s.countsFor(c, "status", ids)))
    expect(commentsOne).toBe(1)
    const counts = await roda.runtime.runPromise(Effect.flatMap(Reactions, (r) => r.countsFor(c, "status", ids)))
    expect([...counts.values()].every((entry) => entry.like === 1)).toBe(true)
    const list = expectOk(await api.get("/api/status?limit=100", as(fresh.bruno, fresh.community)))
    expect(list).toHaveLength(6)
    for (const post of list) {
      expect(post).toMatchObject({
        commentCount: 1,
        reactionCount: 1,
        myReaction: "like",
        mentions: [{ profileId: fresh.bruno.profileId }]
      })
    }
  })
})
