import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectError, expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { type ModerationCommunity, moderationCommunity, SUBJECT_NOT_FOUND } from "./setup"

/**
 * Issue 56, item 1: what `hide` and `remove` mean. Hidden: its author (marked `hidden: true`) and
 * staff read it; it leaves the feed, search and counts. Removed: nobody reads it; the log keeps it.
 */
// Exact figures right after each write: no cache of GET /api/feed/stats (feed/statsCache.test.ts has it).
const roda = startRoda({ feedStatsMaxAgeSeconds: 0 })
const api = client(roda)
afterAll(() => roda.dispose())

const STATUS_NOT_FOUND = "Publicação não encontrada."
const CONTENT_NOT_FOUND = "Conteúdo não encontrado."

let m: ModerationCommunity
beforeAll(async () => {
  m = await moderationCommunity(api, "Efeitos")
})

/** Reports `id` and resolves its case with `action`. */
const moderate = async (type: string, id: string, action: "hide" | "remove", reporter = m.carla) => {
  const caseId = expectOk(await m.report(reporter, type, id, "hate"), 201).caseId
  return expectOk(await api.post(`/api/moderation/cases/${caseId}/resolve`, { action }, m.in(m.moderator)))
}
const statusList = async (user: { token: string }) =>
  expectOk(await api.get("/api/status?limit=100", m.in(user))) as Array<
    { id: string; hidden: boolean; commentCount: number }
  >
const feedIds = async (user: { token: string }) =>
  (expectOk(await api.get("/api/feed?limit=100", m.in(user))) as Array<{ id: string }>).map((item) => item.id)
const stats = async (user: { token: string }) => expectOk(await api.get("/api/feed/stats", m.in(user)))
const searchIds = async (user: { token: string }, q: string) =>
  (expectOk(await api.get(`/api/search?q=${encodeURIComponent(q)}`, m.in(user))) as Array<{ id: string }>).map(
    (r) => r.id
  )

describe("hide", () => {
  it("a hidden status post: its author and staff see it marked hidden; others, the feed and counts do not", async () => {
    const post = await m.status(m.alice, "Post que será escondido")
    const before = await stats(m.moderator)
    expect((await statusList(m.bruno)).find((p) => p.id === post.id)?.hidden).toBe(false)
    await moderate("status", post.id, "hide")

    expect((await statusList(m.bruno)).some((p) => p.id === post.id)).toBe(false)
    for (const user of [m.alice, m.moderator, m.owner]) {
      expect((await statusList(user)).find((p) => p.id === post.id)).toMatchObject({ hidden: true })
    }
    for (const user of [m.alice, m.bruno, m.moderator]) expect(await feedIds(user)).not.toContain(post.id)
    const after = await stats(m.moderator)
    expect(after.counts.status).toBe(before.counts.status - 1)
    expect(after.activity.last7Days.posts).toBe(before.activity.last7Days.posts - 1)

    // others cannot react, comment, edit or report it; its author still can edit it
    expectError(await api.post(`/api/status/${post.id}/react`, { type: "like" }, m.in(m.bruno)), 404, STATUS_NOT_FOUND)
    expectError(await api.post(`/api/status/${post.id}/comment`, { body: "oi" }, m.in(m.bruno)), 404, STATUS_NOT_FOUND)
    expectError(await api.put(`/api/status/${post.id}`, { body: "meu" }, m.in(m.bruno)), 404, STATUS_NOT_FOUND)
    expectError(await m.report(m.bruno, "status", post.id), 404, SUBJECT_NOT_FOUND)
    expectOk(await api.put(`/api/status/${post.id}`, { body: "Corrigido" }, m.in(m.alice)))
  })

  it("a hidden content post: read by its author and staff only, out of the feed, search and counts", async () => {
    const post = await m.content(m.alice, "Zebra listrada escondida")
    expect(await searchIds(m.bruno, "zebra listrada")).toContain(post.id)
    const before = await stats(m.moderator)
    await moderate("content", post.id, "hide")

    expectError(await api.get(`/api/content/${post.id}`, m.in(m.bruno)), 404, CONTENT_NOT_FOUND)
    for (const user of [m.alice, m.moderator, m.admin]) {
      expect(expectOk(await api.get(`/api/content/${post.id}`, m.in(user)))).toMatchObject({
        id: post.id,
        hidden: true
      })
    }
    for (const user of [m.alice, m.bruno, m.moderator]) {
      expect(await feedIds(user)).not.toContain(post.id)
      expect(await searchIds(user, "zebra listrada")).not.toContain(post.id)
    }
    expect((await stats(m.moderator)).counts.content).toBe(before.counts.content - 1)
  })

  it("a hidden comment: listed to its author and staff marked hidden, to others not; out of the count", async () => {
    const post = await m.status(m.alice)
    const kept = await m.comment(m.bruno, post.id, "Comentário educado")
    const rude = await m.comment(m.bruno, post.id, "Comentário grosseiro")
    expect((await statusList(m.carla)).find((p) => p.id === post.id)?.commentCount).toBe(2)
    await moderate("comment", rude.id, "hide", m.alice)

    const listed = async (user: { token: string }) =>
      (expectOk(await api.get(`/api/status/${post.id}/comments`, m.in(user))) as Array<{ id: string; hidden: boolean }>)
        .map((c) => [c.id, c.hidden])
    expect(await listed(m.carla)).toEqual([[kept.id, false]])
    for (const user of [m.bruno, m.moderator]) expect(await listed(user)).toEqual([[kept.id, false], [rude.id, true]])
    for (const user of [m.carla, m.bruno, m.moderator]) {
      expect((await statusList(user)).find((p) => p.id === post.id)?.commentCount).toBe(1)
    }
    expectError(
      await api.post(`/api/status/${post.id}/comment/${rude.id}/react`, { type: "like" }, m.in(m.carla)),
      404
    )
  })
})

describe("remove", () => {
  it("a removed status post is read by nobody, its author included; the case and the log keep its excerpt", async () => {
    const post = await m.status(m.alice, "Post que será removido")
    const resolved = await moderate("status", post.id, "remove")
    expect(resolved.subject.excerpt).toBe("Post que será removido")
    for (const user of [m.alice, m.bruno, m.moderator, m.owner]) {
      expect((await statusList(user)).some((p) => p.id === post.id)).toBe(false)
      expect(await feedIds(user)).not.toContain(post.id)
    }
    expectError(await api.put(`/api/status/${post.id}`, { body: "volta" }, m.in(m.alice)), 404, STATUS_NOT_FOUND)
    const log = expectOk(await api.get("/api/moderation/log", m.in(m.moderator))) as Array<any>
    expect(log.find((e) => e.subject.id === post.id)).toMatchObject({
      action: "remove",
      subject: { type: "status", excerpt: "Post que será removido" }
    })
  })

  it("a removed content post is gone for everyone, from search too", async () => {
    const post = await m.content(m.alice, "Girafa pintada removida")
    await moderate("content", post.id, "remove")
    for (const user of [m.alice, m.bruno, m.moderator]) {
      expectError(await api.get(`/api/content/${post.id}`, m.in(user)), 404, CONTENT_NOT_FOUND)
      expect(await searchIds(user, "girafa pintada")).not.toContain(post.id)
    }
  })

  it("a removed comment takes its replies and leaves the count", async () => {
    const post = await m.status(m.alice)
    const parent = await m.comment(m.bruno, post.id, "Comentário removido")
    expectOk(
      await api.post(`/api/status/${post.id}/comment`, { body: "Resposta", parentId: parent.id }, m.in(m.carla)),
      201
    )
    await moderate("comment", parent.id, "remove", m.alice)
    for (const user of [m.bruno, m.moderator]) {
      expect(expectOk(await api.get(`/api/status/${post.id}/comments`, m.in(user)))).toEqual([])
      expect((await statusList(user)).find((p) => p.id === post.id)?.commentCount).toBe(0)
    }
  })
})
