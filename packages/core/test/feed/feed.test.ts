import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { FeedPage } from "../../src/feed/Api"
import { createCourse, publish } from "../support/courses"
import { expectError, expectInvalid, expectOk, expectPlainJson, roleRequired, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import {
  type FeedCommunity,
  feedCommunity,
  insertComment,
  insertContent,
  insertReaction,
  insertStatus,
  minutesAgo
} from "./setup"

// Exact figures right after each write: no cache of GET /api/feed/stats (feed/statsCache.test.ts has it).
const roda = startRoda({ feedStatsMaxAgeSeconds: 0 })
const api = client(roda)
afterAll(() => roda.dispose())

type Viewer = "anonymous" | "member" | "entitled" | "moderator"
let f: FeedCommunity
const ids: Record<string, string> = {}
const tie = minutesAgo(30)

beforeAll(async () => {
  f = await feedCommunity(api, roda)
  const c = f.community.id
  const author = f.member.profileId
  ids.status = await insertStatus(roda, c, author, "Olá a todos", minutesAgo(50))
  ids.public = await insertContent(roda, c, f.spaces.public.id, author, "Post público", minutesAgo(40))
  ids.private = await insertContent(roda, c, f.spaces.private.id, author, "Post privado", minutesAgo(39))
  ids.gated = await insertContent(roda, c, f.spaces.gated.id, author, "Post pago", minutesAgo(38))
  ids.secret = await insertContent(roda, c, f.spaces.secret.id, author, "Post secreto", minutesAgo(37))
  // Same instant in two types: the stream breaks the tie by type, then id.
  ids.tieStatus = await insertStatus(roda, c, author, "Empate", tie)
  ids.tieContent = await insertContent(roda, c, f.spaces.public.id, author, "Empate", tie)
  const course = await createCourse(api, { ...f, space: f.spaces.courses }, { title: "Curso publicado" })
  await publish(api, f, course.id)
  ids.course = course.id
  ids.draft = (await createCourse(api, { ...f, space: f.spaces.courses }, { title: "Rascunho" })).id
})

const feedIds = async (viewer: Viewer, limit = 100) => {
  const all: Array<string> = []
  let cursor: string | null = null
  for (let page = 0; page < 50; page++) {
    const reply = await api.get(`/api/feed?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`, f.headers[viewer])
    const data = expectOk(reply)
    all.push(...data.map((item: { id: string }) => item.id))
    cursor = reply.body.pagination.nextCursor
    if (cursor === null) return all
  }
  throw new Error("too many pages")
}

describe("GET /api/feed (Public)", () => {
  it("mixes status posts, content posts and published courses, newest first, with counts", async () => {
    await insertReaction(roda, f.community.id, "content", ids.public!, f.entitled.profileId)
    await insertComment(roda, f.community.id, "content", ids.public!, f.entitled.profileId)
    const reply = await api.get("/api/feed", f.headers.member)
    const data = expectOk(reply, 200, "Feed carregado.")
    expect(reply.body.pagination).toEqual({ limit: 20, nextCursor: null })
    expect(data[0]).toMatchObject({ type: "course", id: ids.course, title: "Curso publicado", pinned: false })
    const post = data.find((item: { id: string }) => item.id === ids.public)
    expect(post).toMatchObject({
      type: "content",
      title: "Post público",
      excerpt: "Corpo de Post público",
      spaceId: f.spaces.public.id,
      author: { profileId: f.member.profileId, fullName: "Maria Member" },
      reactions: { like: 1 },
      reactionCount: 1,
      commentCount: 1
    })
    const times = data.map((item: { createdAt: string }) => item.createdAt)
    expect([...times].sort().reverse()).toEqual(times)
    // status sorts after content at the same instant (type descending)
    expect(data.findIndex((i: { id: string }) => i.id === ids.tieStatus)).toBeLessThan(
      data.findIndex((i: { id: string }) => i.id === ids.tieContent)
    )
    expectPlainJson(FeedPage, reply.body)
  })

  it("shows each viewer only what Access lets them read", async () => {
    const seen = {
      anonymous: await feedIds("anonymous"),
      member: await feedIds("member"),
      entitled: await feedIds("entitled"),
      moderator: await feedIds("moderator")
    }
    const everywhere = [ids.public, ids.course, ids.tieContent]
    for (const list of Object.values(seen)) {
      expect(list).toEqual(expect.arrayContaining(everywhere))
      expect(list).not.toContain(ids.draft)
    }
    // Status posts follow GET /api/status: members only, unless the community makes them public.
    expect(seen.anonymous).not.toContain(ids.status)
    expect(seen.member).toEqual(expect.arrayContaining([ids.status, ids.tieStatus]))
    expect(seen.anonymous).not.toContain(ids.private)
    expect(seen.member).toContain(ids.private)
    for (const viewer of ["anonymous", "member"] as const) {
      expect(seen[viewer]).not.toContain(ids.gated)
      expect(seen[viewer]).not.toContain(ids.secret)
    }
    for (const viewer of ["entitled", "moderator"] as const) {
      expect(seen[viewer]).toEqual(expect.arrayContaining([ids.private, ids.gated, ids.secret]))
    }
  })

  it("pages through the mixed stream without duplicates or gaps", async () => {
    const whole = await feedIds("moderator", 100)
    for (const limit of [1, 2, 3]) {
      const paged = await feedIds("moderator", limit)
      expect(paged).toEqual(whole)
      expect(new Set(paged).size).toBe(paged.length)
    }
  })

  it("refuses a malformed cursor or limit with 400", async () => {
    expectInvalid(await api.get("/api/feed?cursor=bm9wZQ", f.headers.anonymous), "cursor", "query")
    const wrongShape = Buffer.from(JSON.stringify([0, "yesterday", "status", unknownId()])).toString("base64url")
    expectInvalid(await api.get(`/api/feed?cursor=${wrongShape}`, f.headers.anonymous), "cursor", "query")
    expectInvalid(await api.get("/api/feed?limit=0", f.headers.anonymous), "limit", "query")
    expectInvalid(await api.get("/api/feed?limit=abc", f.headers.anonymous), "limit", "query")
  })
})

describe("PUT /api/feed/{type}/{id}/pin", () => {
  it("puts pinned items first, for moderators and above only; unpinning restores the order", async () => {
    expectError(
      await api.put(`/api/feed/status/${ids.status}/pin`, { pinned: true }, f.headers.member),
      403,
      roleRequired(["owner", "admin", "moderator"], "member")
    )
    const pinned = expectOk(
      await api.put(`/api/feed/status/${ids.status}/pin`, { pinned: true }, f.headers.moderator),
      200,
      "Item fixado com sucesso."
    )
    expect(pinned).toEqual({ type: "status", id: ids.status, pinned: true })
    expectOk(await api.put(`/api/feed/content/${ids.gated}/pin`, { pinned: true }, f.headers.owner))
    // idempotent
    expectOk(await api.put(`/api/feed/status/${ids.status}/pin`, { pinned: true }, f.headers.moderator))

    const staff = expectOk(await api.get("/api/feed", f.headers.moderator))
    expect(staff.slice(0, 2).map((i: { id: string; pinned: boolean }) => [i.id, i.pinned])).toEqual([
      [ids.gated, true],
      [ids.status, true]
    ])
    expect(staff.slice(2).every((i: { pinned: boolean }) => !i.pinned)).toBe(true)
    // a pinned item the viewer may not read stays hidden
    const member = await feedIds("member")
    expect(member[0]).toBe(ids.status)
    expect(member).not.toContain(ids.gated)
    // paging across the pinned / unpinned boundary
    expect(await feedIds("moderator", 1)).toEqual(await feedIds("moderator", 100))

    expectOk(
      await api.put(`/api/feed/content/${ids.gated}/pin`, { pinned: false }, f.headers.moderator),
      200,
      "Item desafixado com sucesso."
    )
    expectOk(await api.put(`/api/feed/status/${ids.status}/pin`, { pinned: false }, f.headers.moderator))
    expect((await feedIds("moderator"))[0]).toBe(ids.course)
  })

  it("answers 404 for unknown items, drafts and other communities' ids", async () => {
    expectError(await api.put(`/api/feed/status/${unknownId()}/pin`, { pinned: true }, f.headers.owner), 404)
    expectError(await api.put(`/api/feed/course/${ids.draft}/pin`, { pinned: true }, f.headers.owner), 404)
    expectError(await api.put(`/api/feed/content/${ids.status}/pin`, { pinned: true }, f.headers.owner), 404)
    const other = await feedCommunity(api, roda, "Outro feed")
    const foreign = await insertStatus(roda, other.community.id, other.owner.profileId, "Alheio", minutesAgo(1))
    expectError(await api.put(`/api/feed/status/${foreign}/pin`, { pinned: true }, f.headers.owner), 404)
    expect(await feedIds("moderator")).not.toContain(foreign)
  })

  it("answers 400 for an unknown type, a malformed id or body", async () => {
    expectInvalid(
      await api.put(`/api/feed/video/${ids.status}/pin`, { pinned: true }, f.headers.owner),
      "type",
      "params"
    )
    expectInvalid(await api.put(`/api/feed/status/not-a-uuid/pin`, { pinned: true }, f.headers.owner), "id", "params")
    expectInvalid(await api.put(`/api/feed/status/${ids.status}/pin`, { pinned: "yes" }, f.headers.owner), "pinned")
    expectInvalid(await api.put(`/api/feed/status/${ids.status}/pin`, {}, f.headers.owner), "pinned")
    expectError(await api.call("PUT", `/api/feed/status/${ids.status}/pin`, { raw: "{", ...f.headers.owner }), 400)
    expectError(await api.put(`/api/feed/status/${ids.status}/pin`, { pinned: true }, f.headers.anonymous), 401)
  })
})

describe("GET /api/feed/stats (Public)", () => {
  it("counts what the viewer may see, members and recent activity", async () => {
    const anonymous = expectOk(await api.get("/api/feed/stats", f.headers.anonymous), 200, "Estatísticas do feed.")
    const staff = expectOk(await api.get("/api/feed/stats", f.headers.moderator))
    expect(anonymous.counts).toMatchObject({ course: 1, event: 0 })
    expect(staff.counts.content - anonymous.counts.content).toBe(3)
    expect(anonymous.counts.status).toBe(0)
    expect(staff.counts.status).toBe(2)
    expect(staff.total).toBe(staff.counts.status + staff.counts.content + staff.counts.course + staff.counts.event)
    expect(staff.members).toBe(4)
    expect(staff.activity.last7Days.comments).toBeGreaterThanOrEqual(1)
    expect(staff.activity.last30Days.reactions).toBeGreaterThanOrEqual(staff.activity.last7Days.reactions)
    expect(staff.activity.last7Days.posts).toBe(staff.counts.status + staff.counts.content)
  })
})

describe("GET /api/feed/recommendations", () => {
  it("ranks items by recent engagement, skipping what the caller touched or may not read", async () => {
    const c = f.community.id
    for (const who of [f.owner.profileId, f.moderator.profileId]) {
      await insertReaction(roda, c, "content", ids.gated!, who)
      await insertReaction(roda, c, "content", ids.private!, who)
      await insertComment(roda, c, "content", ids.private!, who)
    }
    await insertReaction(roda, c, "status", ids.status!, f.owner.profileId)
    const member = expectOk(
      await api.get("/api/feed/recommendations", f.headers.member),
      200,
      "Recomendações encontradas."
    )
    expect(member.map((i: { id: string }) => i.id)).toEqual([ids.private, ids.public, ids.status])
    expect(member[0]).toMatchObject({ score: 4, commentCount: 2, reactionCount: 2 })
    // the entitled member commented on / reacted to the public post, and may read the gated one
    const entitled = expectOk(await api.get("/api/feed/recommendations?limit=2", f.headers.entitled))
    expect(entitled.map((i: { id: string }) => i.id)).toEqual([ids.private, ids.gated])
    expectError(await api.get("/api/feed/recommendations", f.headers.anonymous), 401)
    expectInvalid(await api.get("/api/feed/recommendations?limit=500", f.headers.member), "limit", "query")
  })
})

describe("status posts in the feed", () => {
  it("reach anonymous visitors once the community makes status posts public", async () => {
    const g = await feedCommunity(api, roda, "Pública")
    const post = await insertStatus(roda, g.community.id, g.member.profileId, "Aberto a todos", minutesAgo(1))
    const anonymousIds = async () =>
      expectOk(await api.get("/api/feed", g.headers.anonymous)).map((item: { id: string }) => item.id)
    expect(await anonymousIds()).not.toContain(post)
    expectOk(
      await api.patch(`/api/communities/${g.community.id}/settings`, { publicStatusPosts: true }, g.headers.owner)
    )
    expect(await anonymousIds()).toContain(post)
  })
})
