import { Effect, Tracer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CommunityId } from "../../src/domain/Ids"
import { Comments } from "../../src/social/Comments"
import { Reactions } from "../../src/social/Reactions"
import { as } from "../support/community"
import { failsReply, okReply, wireContract } from "../support/contractReplies"
import { expectInvalid, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import {
  AUTHOR_OR_STAFF,
  commentOn,
  NOT_FOUND_COMMENT,
  postStatus,
  REPLY_DEPTH,
  type SocialCommunity,
  socialCommunity
} from "./setup"

// Statements are counted through their spans, which only exist with tracing on.
const roda = startRoda({}, { tracing: true })
const api = client(roda)
const typed = wireContract(roda)
afterAll(() => roda.dispose())

let setup: SocialCommunity
let other: SocialCommunity
beforeAll(async () => {
  setup = await socialCommunity(api, "Reações")
  other = await socialCommunity(api, "Alheia")
})
const asUser = (user: { token: string }) => as(user, setup.community)
const statusOf = (user: { token: string }, community = setup.community) => typed.as(user, community).status

type Reaction = "like" | "love" | "celebrate" | "insightful" | "funny"

/** `user` reacts to a status post (200): the reaction state. */
const reactTo = async (user: { token: string }, statusId: string, type: Reaction, community = setup.community) =>
  (await okReply(statusOf(user, community).react({ path: { id: statusId }, payload: { type } }), 200)).data.data

/** `user` reacts to a comment of a status post (200): the reaction state. */
const reactToComment = async (user: { token: string }, statusId: string, commentId: string, type: Reaction) =>
  (await okReply(statusOf(user).reactToComment({ path: { statusId, commentId }, payload: { type } }), 200)).data
    .data

const statusList = async (user: { token: string }, community = setup.community) =>
  (await okReply(statusOf(user, community).list({ urlParams: { limit: 100 } }), 200)).data.data

describe("POST /api/status/{id}/react", () => {
  it("adds, replaces and toggles off one reaction per person, with counts", async () => {
    const post = await postStatus(typed, setup, setup.alice)
    let state = await reactTo(setup.alice, post.id, "like")
    expect(state).toMatchObject({ itemType: "status", itemId: post.id, reaction: "like", reactionCount: 1 })
    state = await reactTo(setup.bruno, post.id, "love")
    expect(state.reactions).toEqual({ like: 1, love: 1, celebrate: 0, insightful: 0, funny: 0 })
    state = await reactTo(setup.alice, post.id, "funny")
    expect(state).toMatchObject({ reaction: "funny", reactionCount: 2, reactions: { like: 0, love: 1, funny: 1 } })
    const { data: removed } = await okReply(
      statusOf(setup.alice).react({ path: { id: post.id }, payload: { type: "funny" } }),
      200
    )
    expect(removed.message).toBe("Reação removida.")
    expect(removed.data).toMatchObject({ reaction: null, reactionCount: 1 })

    const mine = (await statusList(setup.bruno)).find((p) => p.id === post.id)
    expect(mine).toMatchObject({ myReaction: "love", reactionCount: 1, reactions: { love: 1 } })
  })

  it("answers 400 for a type outside the fixed set or a missing type (raw: the contract's type is the set)", async () => {
    const post = await postStatus(typed, setup, setup.alice)
    expectInvalid(await api.post(`/api/status/${post.id}/react`, { type: "angry" }, asUser(setup.bruno)), "type")
    expectInvalid(await api.post(`/api/status/${post.id}/react`, {}, asUser(setup.bruno)), "type")
    await failsReply(statusOf(setup.bruno).react({ path: { id: unknownId() }, payload: { type: "like" } }), 404)
  })
})

describe("comments", () => {
  it("adds comments and one level of replies, listed in threads oldest first with counts", async () => {
    const post = await postStatus(typed, setup, setup.alice)
    const path = { id: post.id }
    const first = await commentOn(
      typed,
      setup,
      setup.bruno,
      post.id,
      { body: "Primeiro" },
      "Comentário criado com sucesso."
    )
    expect(first).toMatchObject({
      itemType: "status",
      itemId: post.id,
      parentId: null,
      author: { id: setup.bruno.profileId }
    })
    const second = await commentOn(typed, setup, setup.alice, post.id, { body: "Segundo" })
    const reply = await commentOn(typed, setup, setup.alice, post.id, { body: "Resposta", parentId: first.id })
    expect(reply.parentId).toBe(first.id)

    const asBruno = statusOf(setup.bruno)
    await failsReply(asBruno.comment({ path, payload: { body: "Fundo", parentId: reply.id } }), 400, REPLY_DEPTH)
    await failsReply(
      asBruno.comment({ path, payload: { body: "x", parentId: unknownId() } }),
      404,
      NOT_FOUND_COMMENT
    )
    const elsewhere = await postStatus(typed, setup, setup.bruno)
    const { body } = await failsReply(
      asBruno.comment({ path: { id: elsewhere.id }, payload: { body: "x", parentId: first.id } }),
      400
    )
    expect(body.errors?.[0]?.param).toBe("parentId")
    // raw: the contract's types refuse a malformed parent id and an empty body before sending
    expectInvalid(
      await api.post(`/api/status/${post.id}/comment`, { body: "x", parentId: "nope" }, asUser(setup.bruno)),
      "parentId"
    )
    expectInvalid(await api.post(`/api/status/${post.id}/comment`, { body: "" }, asUser(setup.bruno)), "body")

    const { data: all } = await okReply(asBruno.comments({ path, urlParams: {} }), 200)
    expect(all.message).toBe("Comentários encontrados.")
    expect(all.data.map((c) => c.id)).toEqual([first.id, reply.id, second.id])
    const { data: firstPage } = await okReply(asBruno.comments({ path, urlParams: { limit: 2 } }), 200)
    expect(firstPage.data.map((c) => c.id)).toEqual([first.id, reply.id])
    const cursor = firstPage.pagination.nextCursor
    expect(cursor).not.toBeNull()
    const { data: next } = await okReply(
      asBruno.comments({ path, urlParams: { limit: 2, ...(cursor === null ? {} : { cursor }) } }),
      200
    )
    expect(next.data.map((c) => c.id)).toEqual([second.id])
    expect(next.pagination.nextCursor).toBeNull()

    const listed = await statusList(setup.bruno)
    expect(listed.find((p) => p.id === post.id)?.commentCount).toBe(3)
  })

  it("lets the author or a moderator edit and delete a comment; deleting a thread removes its replies", async () => {
    const post = await postStatus(typed, setup, setup.alice)
    const comment = await commentOn(typed, setup, setup.bruno, post.id, { body: "Meu" })
    await commentOn(typed, setup, setup.alice, post.id, { body: "Resposta", parentId: comment.id })
    const target = { statusId: post.id, commentId: comment.id }
    await failsReply(
      statusOf(setup.alice).updateComment({ path: target, payload: { body: "Hack" } }),
      403,
      AUTHOR_OR_STAFF("member")
    )
    await failsReply(statusOf(setup.alice).removeComment({ path: target }), 403)
    const { data: edited } = await okReply(
      statusOf(setup.bruno).updateComment({ path: target, payload: { body: "Editado" } }),
      200
    )
    expect(edited.message).toBe("Comentário atualizado com sucesso.")
    expect(edited.data.body).toBe("Editado")
    await okReply(statusOf(setup.moderator).updateComment({ path: target, payload: { body: "Moderado" } }), 200)
    const otherPost = await postStatus(typed, setup, setup.alice)
    await failsReply(
      statusOf(setup.bruno).updateComment({
        path: { statusId: otherPost.id, commentId: comment.id },
        payload: { body: "x" }
      }),
      404,
      NOT_FOUND_COMMENT
    )
    const { data: removed } = await okReply(statusOf(setup.moderator).removeComment({ path: target }), 200)
    expect(removed).toEqual({ success: true, message: "Comentário removido com sucesso.", data: null })
    const { data: left } = await okReply(statusOf(setup.bruno).comments({ path: { id: post.id }, urlParams: {} }), 200)
    expect(left.data).toEqual([])
    await failsReply(statusOf(setup.bruno).updateComment({ path: target, payload: { body: "x" } }), 404)
  })

  it("toggles reactions on comments and shows them in the list", async () => {
    const post = await postStatus(typed, setup, setup.alice)
    const comment = await commentOn(typed, setup, setup.bruno, post.id, { body: "Reaja" })
    expect(await reactToComment(setup.alice, post.id, comment.id, "celebrate")).toMatchObject({
      itemType: "comment",
      reaction: "celebrate",
      reactionCount: 1
    })
    expect(await reactToComment(setup.alice, post.id, comment.id, "insightful")).toMatchObject({
      reaction: "insightful",
      reactionCount: 1
    })
    const { data: listed } = await okReply(
      statusOf(setup.alice).comments({ path: { id: post.id }, urlParams: {} }),
      200
    )
    expect(listed.data[0]).toMatchObject({ myReaction: "insightful", reactions: { insightful: 1 } })
    expect(await reactToComment(setup.alice, post.id, comment.id, "insightful")).toMatchObject({
      reaction: null,
      reactionCount: 0
    })
    expectInvalid(
      await api.post(`/api/status/${post.id}/comment/${comment.id}/react`, { type: "meh" }, asUser(setup.alice)),
      "type"
    )
    const foreign = await postStatus(typed, other, other.alice)
    const foreignComment = await commentOn(typed, other, other.alice, foreign.id, { body: "x" })
    await failsReply(
      statusOf(setup.alice).reactToComment({
        path: { statusId: post.id, commentId: foreignComment.id },
        payload: { type: "like" }
      }),
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
      const post = await postStatus(typed, fresh, fresh.alice, `P${i} @[Bruno](${fresh.bruno.profileId})`)
      await reactTo(fresh.bruno, post.id, "like", fresh.community)
      await commentOn(typed, fresh, fresh.bruno, post.id, { body: "c" })
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
    const list = await statusList(fresh.bruno, fresh.community)
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
