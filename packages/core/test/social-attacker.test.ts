import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { feedCommunity, insertComment, insertContent, insertReaction, insertStatus, minutesAgo } from "./feed/setup"
import { NOT_FOUND_COMMENT, postStatus, type SocialCommunity, socialCommunity } from "./social/setup"
import { as } from "./support/community"
import { expectCreated, expectError, expectOk, roleRequired } from "./support/envelope"
import { client, startRoda } from "./support/harness"

/**
 * Social and the feed as an attacker sees them: staff putting words in an owner's name, edits,
 * replies and removals fired together (run on PostgreSQL too: PGlite serialises the requests), and
 * counts that tell about what is hidden.
 */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: SocialCommunity
let admin: { token: string; profileId: string }
beforeAll(async () => {
  setup = await socialCommunity(api, "Ataque Social")
  admin = await setup.addMember("admin", "Ada Admin")
})
const asUser = (user: { token: string }) => as(user, setup.community)

const comment = async (postId: string, user: { token: string }, body: string, parentId?: string) =>
  expectCreated(await api.post(`/api/status/${postId}/comment`, { body, parentId }, asUser(user)))

const commentsOf = async (
  postId: string
) => (expectOk(await api.get(`/api/status/${postId}/comments?limit=100`, asUser(setup.alice))) as Array<
  { id: string; body: string; parentId: string | null }
>)

describe("an owner's words are edited only by an owner", () => {
  it("a moderator or admin cannot rewrite the owner's status post (as they cannot act as the owner)", async () => {
    const post = await postStatus(api, setup, setup.owner, "Palavras da dona")
    for (const [user, role] of [[setup.moderator, "moderator"], [admin, "admin"]] as const) {
      expectError(
        await api.put(`/api/status/${post.id}`, { body: "Renuncio à comunidade" }, asUser(user)),
        403,
        roleRequired(["owner"], role)
      )
    }
    const listed = expectOk(await api.get("/api/status?limit=100", asUser(setup.alice)))
    expect(listed.find((p: { id: string }) => p.id === post.id).body).toBe("Palavras da dona")
    // The owner edits their own; staff still edit a member's, and still remove the owner's.
    expectOk(await api.put(`/api/status/${post.id}`, { body: "Editado pela dona" }, asUser(setup.owner)))
    const members = await postStatus(api, setup, setup.alice, "De Alice")
    expectOk(await api.put(`/api/status/${members.id}`, { body: "Moderado" }, asUser(setup.moderator)))
    expectOk(await api.del(`/api/status/${post.id}`, asUser(setup.moderator)))
  })

  it("nor the owner's comment", async () => {
    const post = await postStatus(api, setup, setup.alice)
    const mine = await comment(post.id, setup.owner, "Comentário da dona")
    const target = `/api/status/${post.id}/comment/${mine.id}`
    expectError(
      await api.put(target, { body: "Forjado" }, asUser(setup.moderator)),
      403,
      roleRequired(["owner"], "moderator")
    )
    expectError(await api.put(target, { body: "Forjado" }, asUser(admin)), 403, roleRequired(["owner"], "admin"))
    expect((await commentsOf(post.id)).map((c) => c.body)).toEqual(["Comentário da dona"])
    expect(expectOk(await api.put(target, { body: "Revisto" }, asUser(setup.owner))).body).toBe("Revisto")
    expectOk(await api.del(target, asUser(setup.moderator)))
  })
})

describe("calls fired together", () => {
  it("a reply and the removal of its thread: the reply never outlives the thread", async () => {
    for (let i = 0; i < 12; i++) {
      const post = await postStatus(api, setup, setup.alice)
      const thread = await comment(post.id, setup.bruno, "Tópico")
      const [reply, removal] = await Promise.all([
        api.post(`/api/status/${post.id}/comment`, { body: "Resposta", parentId: thread.id }, asUser(setup.alice)),
        api.del(`/api/status/${post.id}/comment/${thread.id}`, asUser(setup.bruno))
      ])
      expectOk(removal)
      expect([201, 404]).toContain(reply.status)
      // Nothing of the thread is left: no reply under a removed comment, none counted.
      expect(await commentsOf(post.id)).toEqual([])
      const listed = expectOk(await api.get("/api/status?limit=100", asUser(setup.alice)))
      expect(listed.find((p: { id: string }) => p.id === post.id).commentCount).toBe(0)
    }
  })

  it("an edit and a removal of one comment: 200 or 404, never 5xx", async () => {
    for (let i = 0; i < 12; i++) {
      const post = await postStatus(api, setup, setup.alice)
      const target = `/api/status/${post.id}/comment/${(await comment(post.id, setup.bruno, "Original")).id}`
      const [edit, removal] = await Promise.all([
        api.put(target, { body: "Editado" }, asUser(setup.bruno)),
        api.del(target, asUser(setup.bruno))
      ])
      expectOk(removal)
      if (edit.status !== 200) expectError(edit, 404, NOT_FOUND_COMMENT)
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
    const activity = async (viewer: "anonymous" | "member" | "entitled" | "moderator") => {
      const week = expectOk(await api.get("/api/feed/stats", f.headers[viewer])).activity.last7Days
      return [week.comments, week.reactions]
    }
    // anonymous: the public post; a member: also the private post and the status post
    expect(await activity("anonymous")).toEqual([1, 1])
    expect(await activity("member")).toEqual([3, 3])
    expect(await activity("entitled")).toEqual([5, 5])
    expect(await activity("moderator")).toEqual([5, 5])
  })
})
