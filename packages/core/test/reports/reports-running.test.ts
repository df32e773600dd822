import { afterAll, describe, expect, it } from "vitest"
import { cardCheckout, planOf, shop } from "../commerce/checkout-support"
import { expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { query } from "../support/sql"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const RANGE = "from=2026-01-01&to=2026-01-05&timeZone=UTC"

// Running figures (members' `total`, subscriptions' `active` and `mrr`) at each period's end, with
// members who leave, subscriptions that start before the range, end in it, pause, resume and take an add-on.
describe("running figures at each period's end", () => {
  it("counts members who join and leave, and subscriptions that end, pause and take add-ons", async () => {
    const made = await shop(api)
    const { option } = await planOf(api, made)
    for (let i = 0; i < 3; i++) {
      expectOk(await api.post("/api/checkout", cardCheckout(option.id), { community: made.community.id }), 201)
    }
    const subs = await query<{ id: string; profileId: string }>(
      roda,
      (sql) => sql`SELECT id, profile_id FROM subscriptions WHERE community_id = ${made.community.id} ORDER BY id`
    )
    expect(subs).toHaveLength(3)
    const [one, two, three] = subs as [typeof subs[0], typeof subs[0], typeof subs[0]]
    await query(
      roda,
      (sql) => sql`UPDATE profiles SET created_at = '2025-12-01T00:00:00Z' WHERE community_id = ${made.community.id}`
    )
    const at = (id: string, createdAt: string, canceledAt: string | null) =>
      query(
        roda,
        (sql) =>
          sql`UPDATE subscriptions SET created_at = ${createdAt}::timestamptz, canceled_at = ${canceledAt}::timestamptz
          WHERE id = ${id}`
      )
    const profile = (id: string, createdAt: string, removedAt: string | null) =>
      query(
        roda,
        (sql) =>
          sql`UPDATE profiles SET created_at = ${createdAt}::timestamptz, removed_at = ${removedAt}::timestamptz
          WHERE id = ${id}`
      )
    // one: before the range, canceled on the 3rd; its member leaves on the 2nd
    await at(one.id, "2025-12-20T10:00:00Z", "2026-01-03T12:00:00Z")
    await profile(one.profileId, "2025-12-01T00:00:00Z", "2026-01-02T09:00:00Z")
    // two: starts on the 2nd, paused over the end of the 3rd, an add-on of 10.00 a month from the 4th
    await at(two.id, "2026-01-02T10:00:00Z", null)
    await profile(two.profileId, "2026-01-03T10:00:00Z", null)
    await query(
      roda,
      (sql) =>
        sql`INSERT INTO subscription_pauses (community_id, subscription_id, paused_at, resumed_at)
        VALUES (${made.community.id}, ${two.id}, '2026-01-03T05:00:00Z', '2026-01-04T05:00:00Z')`
    )
    await query(
      roda,
      (sql) =>
        sql`INSERT INTO subscription_add_ons (id, community_id, subscription_id, product_id, price, created_at)
        VALUES (gen_random_uuid(), ${made.community.id}, ${two.id}, ${option.id}, 1000, '2026-01-04T01:00:00Z')`
    )
    // three: starts on the 4th; its member joined before the range and leaves on the 5th
    await at(three.id, "2026-01-04T08:00:00Z", null)
    await profile(three.profileId, "2025-12-31T23:00:00Z", "2026-01-05T01:00:00Z")
    const [{ count }] = await query<{ count: number }>(
      roda,
      (sql) =>
        sql`SELECT count(*)::int AS count FROM profiles WHERE community_id = ${made.community.id} AND status = 'active'`
    ) as [
      { count: number }
    ]

    const subscriptions = expectOk(await api.get(`/api/reports/subscriptions?${RANGE}`, made.scoped))
    expect(subscriptions.series).toEqual([
      { period: "2026-01-01", new: 0, churned: 0, active: 1, mrr: 4990 },
      { period: "2026-01-02", new: 1, churned: 0, active: 2, mrr: 9980 },
      { period: "2026-01-03", new: 0, churned: 1, active: 1, mrr: 0 },
      { period: "2026-01-04", new: 1, churned: 0, active: 2, mrr: 10980 },
      { period: "2026-01-05", new: 0, churned: 0, active: 2, mrr: 10980 }
    ])
    const monthly = expectOk(
      await api.get("/api/reports/subscriptions?from=2025-12-01&to=2026-01-31&interval=month&timeZone=UTC", made.scoped)
    )
    expect(monthly.series.map((row: { active: number; mrr: number }) => [row.active, row.mrr])).toEqual([
      [1, 4990],
      [2, 10980]
    ])

    const members = expectOk(await api.get(`/api/reports/members?${RANGE}`, made.scoped))
    expect(members.series.map((row: { joined: number; left: number; total: number }) => [
      row.joined,
      row.left,
      row.total
    ])).toEqual([
      [0, 0, count - 1],
      [0, 1, count - 2],
      [1, 0, count - 1],
      [0, 0, count - 1],
      [0, 1, count - 2]
    ])
    const overview = expectOk(await api.get(`/api/reports/overview?${RANGE}`, made.scoped))
    expect(overview.members.series).toEqual(members.series)
    expect(overview.subscriptions.series).toEqual(subscriptions.series)
  })
})
