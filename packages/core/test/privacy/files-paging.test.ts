import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { join } from "../notifications/setup"
import { newCommunity, type TestCommunity } from "../support/community"
import { client, register, startRoda, type TestUser } from "../support/harness"
import { statements } from "../support/queries"
import { query } from "../support/sql"
import { recordsOf } from "./files-support"

/**
 * Members' data rights (issue 56, item 3): an export file reads its records in keyset pages of 500, one
 * statement a page, profile after profile, never the whole set at once. Rows seeded by SQL in the
 * thousands: every record comes once, across pages, profiles and communities; another member's do not.
 */
const roda = startRoda({}, { tracing: true })
const api = client(roda)
afterAll(() => roda.dispose())

const SPAN = "PersonalDataFiles.paging"

let pat: TestUser
let a: TestCommunity
let b: TestCommunity
let patA: string
let patB: string
let ottoA: string

/** `n` reactions of `profileId` in `communityId`, to items of random ids: their item ids. */
const seedReactions = async (communityId: string, profileId: string, n: number) =>
  (await query<{ itemId: string }>(
    roda,
    (sql) =>
      sql`INSERT INTO reactions (community_id, item_type, item_id, profile_id, type, created_at)
      SELECT ${communityId}, (ARRAY['status', 'content', 'comment'])[1 + i % 3], gen_random_uuid(), ${profileId},
        'like', now()
      FROM generate_series(1, ${n}) i
      RETURNING item_id`
  )).map((row) => row.itemId)

/** `n` status posts of `profileId` (every third deleted): the ids of those not deleted. */
const seedPosts = async (communityId: string, profileId: string, n: number) =>
  (await query<{ id: string; deleted: boolean }>(
    roda,
    (sql) =>
      sql`INSERT INTO status_posts (id, community_id, author_profile_id, body, created_at, updated_at, deleted_at)
      SELECT gen_random_uuid(), ${communityId}, ${profileId}, 'Post ' || i, now(), now(),
        CASE WHEN i % 3 = 0 THEN now() END
      FROM generate_series(1, ${n}) i
      RETURNING id, deleted_at IS NOT NULL AS deleted`
  )).filter((row) => !row.deleted).map((row) => row.id)

/** `n` notifications of `profileId`, most at one same instant (the page key's ties): their ids. */
const seedNotifications = async (communityId: string, profileId: string, n: number) =>
  (await query<{ id: string }>(
    roda,
    (sql) =>
      sql`INSERT INTO notifications (id, community_id, recipient_profile_id, kind, subject_type, subject_id,
        subject_title, created_at, in_app)
      SELECT gen_random_uuid(), ${communityId}, ${profileId}, 'reaction', 'status', gen_random_uuid(), 'Post',
        CASE WHEN i % 4 = 0 THEN timestamptz '2026-01-01 00:00:00.123456+00' + i * interval '1 microsecond'
          ELSE timestamptz '2026-01-01 00:00:00+00' END,
        TRUE
      FROM generate_series(1, ${n}) i
      RETURNING id`
  )).map((row) => row.id)

const expectOnceEach = (found: ReadonlyArray<string>, expected: ReadonlyArray<string>) => {
  expect(new Set(found).size).toBe(found.length)
  expect([...found].sort()).toEqual([...expected].sort())
}

beforeAll(async () => {
  pat = await register(api, "Patrícia Paginada")
  const otto = await register(api, "Otto Outro")
  a = await newCommunity(api, "Páginas A")
  b = await newCommunity(api, "Páginas B")
  patA = (await join(api, a, pat)).profileId
  patB = (await join(api, b, pat)).profileId
  ottoA = (await join(api, a, otto)).profileId
}, 120_000)

describe("export files read in keyset pages", () => {
  it("reactions: 1,200 in one community and 700 in another, each once, one statement a page", async () => {
    const inA = await seedReactions(a.community.id, patA, 1_200)
    const inB = await seedReactions(b.community.id, patB, 700)
    await seedReactions(a.community.id, ottoA, 40)
    const { inSpans, result } = await statements(() => recordsOf(roda, pat.id, "reactions.json", SPAN), {
      spans: [SPAN]
    })
    expect(result).toHaveLength(1_900)
    expectOnceEach(result.map((r) => r.itemId), [...inA, ...inB])
    expect(new Set(result.map((r) => r.communityId))).toEqual(new Set([a.community.id, b.community.id]))
    // A: 500 + 500 + 200; B: 500 + 200
    expect(inSpans).toBe(5)
  })

  it("posts: 1,100 written (every third deleted) in one community, none in the other; the deleted left out", async () => {
    const kept = await seedPosts(a.community.id, patA, 1_100)
    await seedPosts(a.community.id, ottoA, 30)
    expect(kept).toHaveLength(734)
    const { inSpans, result } = await statements(() => recordsOf(roda, pat.id, "posts.json", SPAN), { spans: [SPAN] })
    expectOnceEach(result.map((r) => r.id), kept)
    expect(result.every((r) => r.type === "status" && r.communityId === a.community.id)).toBe(true)
    // A: status 500 + 234, content 1; B: status 1, content 1
    expect(inSpans).toBe(5)
  })

  it("notifications: 1,100 newest first across pages whose key ties on the instant, each once", async () => {
    const seeded = await seedNotifications(a.community.id, patA, 1_100)
    await seedNotifications(a.community.id, ottoA, 20)
    const { inSpans, result } = await statements(() => recordsOf(roda, pat.id, "notifications.json", SPAN), {
      spans: [SPAN]
    })
    expectOnceEach(result.map((r) => r.id), seeded)
    const times = result.map((r) => r.createdAt as string)
    expect([...times].sort().reverse()).toEqual(times)
    expect(result[0].pageKey).toBeUndefined()
    // A: 500 + 500 + 100; B: 1
    expect(inSpans).toBe(4)
  })

  it("a subject with no profile left has its account and empty files", async () => {
    const loner = await register(api, "Lia Sozinha")
    expect(await recordsOf(roda, loner.id, "reactions.json")).toEqual([])
    expect((await recordsOf(roda, loner.id, "account.json")).map((r) => r.id)).toEqual([loner.id])
  })
})
