import { randomUUID } from "node:crypto"
import { afterAll, describe, expect, it } from "vitest"
import { expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { query } from "../support/sql"
import { feedCommunity, insertContent, insertReaction, insertStatus, minutesAgo } from "./setup"

// Exact figures right after each write: no cache of GET /api/feed/stats (feed/statsCache.test.ts has it).
const roda = startRoda({ feedStatsMaxAgeSeconds: 0 })
const api = client(roda)
afterAll(() => roda.dispose())

const DAY = 24 * 60
const comment = (communityId: string, type: string, itemId: string, profileId: string, at: Date, removed = false) =>
  query(
    roda,
    (sql) =>
      sql`INSERT INTO comments (id, community_id, item_type, item_id, author_profile_id, body, created_at, deleted_at)
      VALUES (${randomUUID()}, ${communityId}, ${type}, ${itemId}, ${profileId}, 'Comentário', ${at},
        ${removed ? at : null}) RETURNING id`
  )
const reaction = (communityId: string, type: string, itemId: string, profileId: string, at: Date) =>
  query(roda, (sql) =>
    sql`INSERT INTO reactions (community_id, item_type, item_id, profile_id, type, created_at)
      VALUES (${communityId}, ${type}, ${itemId}, ${profileId}, 'like', ${at}) RETURNING item_id`)

describe("GET /api/feed/stats counts exactly", () => {
  it("items, posts and activity of the last 7 and 30 days, on what each viewer may read", async () => {
    const f = await feedCommunity(api, roda, "Contagens")
    const c = f.community.id
    const author = f.member.profileId
    const status = await insertStatus(roda, c, author, "Olá", minutesAgo(50))
    const open = await insertContent(roda, c, f.spaces.public.id, author, "Aberto", minutesAgo(40))
    await insertContent(roda, c, f.spaces.private.id, author, "Membros", minutesAgo(39))
    const secret = await insertContent(roda, c, f.spaces.secret.id, author, "Secreto", minutesAgo(38))
    await insertContent(roda, c, f.spaces.public.id, author, "Antigo", minutesAgo(20 * DAY))
    const who = f.entitled.profileId
    await comment(c, "content", open, who, minutesAgo(5))
    await comment(c, "content", open, who, minutesAgo(10 * DAY))
    await comment(c, "content", open, who, minutesAgo(5), true)
    await comment(c, "content", open, who, minutesAgo(40 * DAY))
    await comment(c, "content", secret, who, minutesAgo(5))
    const onStatus = await comment(c, "status", status, who, minutesAgo(5))
    await reaction(c, "content", open, who, minutesAgo(5))
    await reaction(c, "content", open, f.moderator.profileId, minutesAgo(10 * DAY))
    await reaction(c, "comment", String(onStatus[0]!.id), f.moderator.profileId, minutesAgo(5))
    await insertReaction(roda, c, "content", secret, f.moderator.profileId)
    const stats = async (viewer: "anonymous" | "member" | "moderator") =>
      expectOk(await api.get("/api/feed/stats", f.headers[viewer]))
    const activity = (posts: number, comments: number, reactions: number) => ({ posts, comments, reactions })
    expect(await stats("anonymous")).toEqual({
      counts: { status: 0, content: 2, course: 0, event: 0 },
      total: 2,
      members: 4,
      activity: { last7Days: activity(1, 1, 1), last30Days: activity(2, 2, 2) }
    })
    expect(await stats("member")).toEqual({
      counts: { status: 1, content: 3, course: 0, event: 0 },
      total: 4,
      members: 4,
      activity: { last7Days: activity(3, 2, 1), last30Days: activity(4, 3, 2) }
    })
    expect(await stats("moderator")).toEqual({
      counts: { status: 1, content: 4, course: 0, event: 0 },
      total: 5,
      members: 4,
      activity: { last7Days: activity(4, 3, 2), last30Days: activity(5, 4, 3) }
    })
  })
})

describe("GET /api/feed/recommendations orders ties", () => {
  it("by score, then newest first", async () => {
    const g = await feedCommunity(api, roda, "Empates")
    const c = g.community.id
    const author = g.owner.profileId
    const older = await insertContent(roda, c, g.spaces.public.id, author, "Mais antigo", minutesAgo(30))
    const newer = await insertContent(roda, c, g.spaces.public.id, author, "Mais novo", minutesAgo(20))
    const status = await insertStatus(roda, c, author, "Status", minutesAgo(10))
    const best = await insertContent(roda, c, g.spaces.public.id, author, "Melhor", minutesAgo(40))
    for (const [type, id] of [["content", older], ["content", newer], ["status", status], ["content", best]]) {
      await insertReaction(roda, c, type!, id!, g.moderator.profileId)
    }
    await insertReaction(roda, c, "content", best, g.entitled.profileId)
    const ids = expectOk(await api.get("/api/feed/recommendations", g.headers.member)).map((i: { id: string }) => i.id)
    expect(ids).toEqual([best, status, newer, older])
  })
})
