import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { feedCommunity, insertComment, insertContent, insertReaction, insertStatus, minutesAgo } from "./feed/setup"
import { commentOn, NOT_FOUND_COMMENT, postStatus, type SocialCommunity, socialCommunity } from "./social/setup"
import { answerOf, failsOf, failsReply, okOf, okReply, wireContract } from "./support/contractReplies"
import { roleRequired } from "./support/envelope"
import { client, startRoda } from "./support/harness"

/**
 * Social and the feed as an attacker sees them: staff putting words in an owner's name, edits,
 * replies and removals fired together (run on PostgreSQL too: PGlite serialises the requests), and
 * counts that tell about what is hidden.
 */
// Exact figures right after each write: no cache of GET /api/feed/stats (feed/statsCache.test.ts has it).
const roda = startRoda({ feedStatsMaxAgeSeconds: 0 })
const api = client(roda)
const typed = wireContract(roda)
afterAll(() => roda.dispose())

let setup: SocialCommunity
let admin: { token: string; profileId: string }
beforeAll(async () => {
  setup = await socialCommunity(api, "Ataque Social")
  admin = await setup.addMember("admin", "Ada Admin")
})
const statusOf = (user: { token: string }) => typed.as(user, setup.community).status

const comment = (postId: string, user: { token: string }, body: string, parentId?: string) =>
  commentOn(typed, setup, user, postId, parentId === undefined ? { body } : { body, parentId })

const commentsOf = async (postId: string) =>
  (await okReply(statusOf(setup.alice).comments({ path: { id: postId }, urlParams: { limit: 100 } }), 200)).data.data

const statusList = async () => (await okReply(statusOf(setup.alice).list({ urlParams: { limit: 100 } }), 200)).data.data

describe("an owner's words are edited only by an owner", () => {
  it("a moderator or admin cannot rewrite the owner's status post (as they cannot act as the owner)", async () => {
    const post = await postStatus(typed, setup, setup.owner, "Palavras da dona")
    for (const [user, role] of [[setup.moderator, "moderator"], [admin, "admin"]] as const) {
      await failsReply(
        statusOf(user).update({ path: { id: post.id }, payload: { body: "Renuncio à comunidade" } }),
        403,
        roleRequired(["owner"], role)
      )
    }
    expect((await statusList()).find((p) => p.id === post.id)?.body).toBe("Palavras da dona")
    // The owner edits their own; staff still edit a member's, and still remove the owner's.
    await okReply(statusOf(setup.owner).update({ path: { id: post.id }, payload: { body: "Editado pela dona" } }), 200)
    const members = await postStatus(typed, setup, setup.alice, "De Alice")
    await okReply(statusOf(setup.moderator).update({ path: { id: members.id }, payload: { body: "Moderado" } }), 200)
    await okReply(statusOf(setup.moderator).remove({ path: { id: post.id } }), 200)
  })

  it("nor the owner's comment", async () => {
    const post = await postStatus(typed, setup, setup.alice)
    const mine = await comment(post.id, setup.owner, "Comentário da dona")
    const target = { statusId: post.id, commentId: mine.id }
    await failsReply(
      statusOf(setup.moderator).updateComment({ path: target, payload: { body: "Forjado" } }),
      403,
      roleRequired(["owner"], "moderator")
    )
    await failsReply(
      statusOf(admin).updateComment({ path: target, payload: { body: "Forjado" } }),
      403,
      roleRequired(["owner"], "admin")
    )
    expect((await commentsOf(post.id)).map((c) => c.body)).toEqual(["Comentário da dona"])
    const { data: revised } = await okReply(
      statusOf(setup.owner).updateComment({ path: target, payload: { body: "Revisto" } }),
      200
    )
    expect(revised.data.body).toBe("Revisto")
    await okReply(statusOf(setup.moderator).removeComment({ path: target }), 200)
  })
})

describe("calls fired together", () => {
  it("a reply and the removal of its thread: the reply never outlives the thread", async () => {
    for (let i = 0; i < 12; i++) {
      const post = await postStatus(typed, setup, setup.alice)
      const thread = await comment(post.id, setup.bruno, "Tópico")
      const [reply, removal] = await Promise.all([
        answerOf(
          statusOf(setup.alice).comment({ path: { id: post.id }, payload: { body: "Resposta", parentId: thread.id } })
        ),
        answerOf(statusOf(setup.bruno).removeComment({ path: { statusId: post.id, commentId: thread.id } }))
      ])
      okOf(removal, 200)
      expect([201, 404]).toContain(reply.reply.status)
      if (reply.reply.status === 201) okOf(reply, 201)
      else failsOf(reply, 404)
      // Nothing of the thread is left: no reply under a removed comment, none counted.
      expect(await commentsOf(post.id)).toEqual([])
      expect((await statusList()).find((p) => p.id === post.id)?.commentCount).toBe(0)
    }
  })

  it("an edit and a removal of one comment: 200 or 404, never 5xx", async () => {
    for (let i = 0; i < 12; i++) {
      const post = await postStatus(typed, setup, setup.alice)
      const target = { statusId: post.id, commentId: (await comment(post.id, setup.bruno, "Original")).id }
      const [edit, removal] = await Promise.all([
        answerOf(statusOf(setup.bruno).updateComment({ path: target, payload: { body: "Editado" } })),
        answerOf(statusOf(setup.bruno).removeComment({ path: target }))
      ])
      okOf(removal, 200)
      if (edit.reply.status !== 200) failsOf(edit, 404, NOT_FOUND_COMMENT)
      else okOf(edit, 200)
      expect(await commentsOf(post.id)).toEqual([])
    }
  })
})

describe("GET /api/feed/stats tells nothing about hidden items", () => {
  it("counts comments and reactions only on items the viewer may see", async () => {
    const f = await feedCommunity(api, roda, "Estatísticas ocultas")
    const c = f.community.id
    const author = f.member.profileId
    const items = [
      ["content", await insertContent(roda, c, f.spaces.public.id, author, "Aberto", minutesAgo(5))],
      ["content", await insertContent(roda, c, f.spaces.private.id, author, "Só membros", minutesAgo(4))],
      ["content", await insertContent(roda, c, f.spaces.gated.id, author, "Pago", minutesAgo(3))],
      ["content", await insertContent(roda, c, f.spaces.secret.id, author, "Secreto", minutesAgo(2))],
      ["status", await insertStatus(roda, c, author, "Só para membros", minutesAgo(1))]
    ] as const
    for (const [type, id] of items) {
      await insertComment(roda, c, type, id, f.entitled.profileId)
      await insertReaction(roda, c, type, id, f.entitled.profileId)
    }
    const viewers = {
      anonymous: typed.anonymous(f.community),
      member: typed.as(f.member, f.community),
      entitled: typed.as(f.entitled, f.community),
      moderator: typed.as(f.moderator, f.community)
    }
    const activity = async (viewer: keyof typeof viewers) => {
      const week = (await okReply(viewers[viewer].feed.stats(), 200)).data.data.activity.last7Days
      return [week.comments, week.reactions]
    }
    // anonymous: the public post; a member: also the private post and the status post
    expect(await activity("anonymous")).toEqual([1, 1])
    expect(await activity("member")).toEqual([3, 3])
    expect(await activity("entitled")).toEqual([5, 5])
    expect(await activity("moderator")).toEqual([5, 5])
  })
})
