import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { statements } from "../support/queries"
import { type FeedCommunity, feedCommunity, insertComment, insertContent, insertReaction, minutesAgo } from "./setup"

// Statements are counted through their spans, which only exist with tracing on.
const roda = startRoda({}, { tracing: true })
const api = client(roda)
afterAll(() => roda.dispose())

let f: FeedCommunity
const posts: Array<string> = []
beforeAll(async () => {
  f = await feedCommunity(api, roda, "Consultas do feed")
  const c = f.community.id
  for (let i = 0; i < 6; i++) {
    const id = await insertContent(roda, c, f.spaces.public.id, f.member.profileId, `Post ${i}`, minutesAgo(60 - i))
    await insertReaction(roda, c, "content", id, f.entitled.profileId)
    await insertComment(roda, c, "content", id, f.entitled.profileId)
    posts.push(id)
  }
})

const page = (cursor?: string | null) =>
  statements(() => api.get(`/api/feed?limit=2${cursor ? `&cursor=${cursor}` : ""}`, f.headers.member))

/** Statements of the first three pages, and the ids they show. */
const threePages = async () => {
  const counts: Array<number> = []
  const ids: Array<string> = []
  let cursor: string | null = null
  for (let i = 0; i < 3; i++) {
    const { n, result } = await page(cursor)
    const items: Array<{ id: string; reactions: unknown; commentCount: number }> = expectOk(result)
    expect(items.map((item) => [item.reactions, item.commentCount])).toEqual(items.map(() => [{ like: 1 }, 1]))
    ids.push(...items.map((item) => item.id))
    counts.push(n)
    cursor = result.body.pagination.nextCursor
  }
  return { counts, ids }
}

/**
 * Before issue 11 a member's page took 6 statements (account, membership, readable spaces, pins,
 * stream, counts) and 5 after the first page. Now the middleware's 1 (the caller with their
 * membership) and one for the page, which reads the readable spaces, pins (when the community has
 * any), the stream and the counts.
 */
describe("GET /api/feed statements", () => {
  it("loads a member's page in 2 statements, first page or later, with pins or without", async () => {
    const plain = await threePages()
    expect(plain.ids).toEqual([...posts].reverse())
    expect(plain.counts).toEqual([2, 2, 2])
    for (const id of [posts[0]!, posts[2]!, posts[4]!]) {
      expectOk(await api.put(`/api/feed/content/${id}/pin`, { pinned: true }, f.headers.moderator))
    }
    // Pages: two pins; a pin and the stream's first; the stream after a stream cursor.
    const pinned = await threePages()
    expect(pinned.ids).toEqual([posts[4], posts[2], posts[0], posts[5], posts[3], posts[1]])
    expect(pinned.counts).toEqual([2, 2, 2])
  })
})
