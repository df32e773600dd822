import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Roda } from "../../src/index"
import { type ChargeLog, controlledClock, DAY, startTimedRoda, subscribed } from "../commerce/subscriptions-support"
import { recordSale } from "../money/ledger-support"
import { as, newCommunity } from "../support/community"
import { expectOk } from "../support/envelope"
import { type Client, client } from "../support/harness"

/**
 * Reports in the community's time zone (issue 55): its `timezone` setting cuts the days, weeks,
 * months and the range's bounds; MRR counts add-ons and a paused subscription as 0 while paused.
 */

const SAO_PAULO = "America/Sao_Paulo" // UTC-3, no daylight saving since 2019
const time = controlledClock(Date.UTC(2026, 2, 10, 12, 0, 0))
const log: ChargeLog = new Map()
let roda: Roda
let api: Client

beforeAll(() => {
  roda = startTimedRoda(time.clock, log)
  api = client(roda)
})
afterAll(() => roda.dispose())

const inTimeZone = async (communityId: string, token: string, timezone: string) =>
  expect(
    expectOk(
      await api.patch(`/api/communities/${communityId}/settings`, { timezone }, { token, community: communityId })
    )
      .settings.timezone
  ).toBe(timezone)

const periods = (data: any, key: string) => data.series.map((p: any) => [p.period, p[key]])

describe("reports in the community's time zone", () => {
  it("puts a sale at 23:30 in São Paulo on that day, not the next UTC one, and bounds the range there", async () => {
    time.set(Date.UTC(2026, 2, 10, 12, 0, 0))
    const made = await newCommunity(api, "Fuso")
    const id = made.community.id
    const scoped = as(made.owner, made.community)
    // 2026-01-30 23:30 local (the 31st in UTC), 2026-01-31 23:30 local (February 1st in UTC),
    // 2026-02-01 00:30 local, and Sunday 2026-02-08 23:30 local (Monday the 9th in UTC)
    await recordSale(roda, id, { method: "PIX", amount: 4000, paidAt: new Date("2026-01-31T02:30:00Z") })
    await recordSale(roda, id, { method: "PIX", amount: 1000, paidAt: new Date("2026-02-01T02:30:00Z") })
    await recordSale(roda, id, { method: "PIX", amount: 2000, paidAt: new Date("2026-02-01T03:30:00Z") })
    await recordSale(roda, id, { method: "PIX", amount: 8000, paidAt: new Date("2026-02-09T02:30:00Z") })

    // without a time zone set, UTC days
    const utc = expectOk(await api.get("/api/reports/sales?from=2026-01-30&to=2026-02-01", scoped))
    expect(utc.timeZone).toBe("UTC")
    expect(periods(utc, "gross")).toEqual([["2026-01-30", 0], ["2026-01-31", 4000], ["2026-02-01", 3000]])

    await inTimeZone(id, made.owner.token, SAO_PAULO)
    const local = expectOk(await api.get("/api/reports/sales?from=2026-01-30&to=2026-02-01", scoped))
    expect(local.timeZone).toBe(SAO_PAULO)
    expect(periods(local, "gross")).toEqual([["2026-01-30", 4000], ["2026-01-31", 1000], ["2026-02-01", 2000]])
    expect(local.totals).toMatchObject({ sales: 3, gross: 7000 })

    // `from` starts and `to` ends at local midnight: the 23:30 sale is the 31st's only sale, though
    // it was February 1st in UTC, and the one of 02:30 UTC on the 31st is not in it
    const day = expectOk(await api.get("/api/reports/sales?from=2026-01-31&to=2026-01-31", scoped))
    expect(day.series).toHaveLength(1)
    expect(day.series[0]).toMatchObject({ period: "2026-01-31", sales: 1, gross: 1000 })
    expect(day.totals).toMatchObject({ sales: 1, gross: 1000 })
    const next = expectOk(await api.get("/api/reports/sales?from=2026-02-01&to=2026-02-01", scoped))
    expect(next.totals).toMatchObject({ sales: 1, gross: 2000 })

    // weeks and months are local too: Sunday 23:30 stays in its week, January 31st in January
    const weeks = expectOk(await api.get("/api/reports/sales?from=2026-01-26&to=2026-02-15&interval=week", scoped))
    expect(periods(weeks, "gross")).toEqual([["2026-01-26", 7000], ["2026-02-02", 8000], ["2026-02-09", 0]])
    const months = expectOk(await api.get("/api/reports/sales?from=2026-01-01&to=2026-02-28&interval=month", scoped))
    expect(periods(months, "gross")).toEqual([["2026-01-01", 5000], ["2026-02-01", 10000]])

    // a time zone asked for wins over the community's
    const asked = expectOk(await api.get("/api/reports/sales?from=2026-01-30&to=2026-02-01&timeZone=UTC", scoped))
    expect(asked.timeZone).toBe("UTC")
    expect(periods(asked, "gross")).toEqual(periods(utc, "gross"))

    // the default range ends today in the community's time zone: 22:00 on March 10th there
    time.set(Date.UTC(2026, 2, 11, 1, 0, 0))
    const recent = expectOk(await api.get("/api/reports/sales", scoped))
    expect(recent).toMatchObject({ from: "2026-02-09", to: "2026-03-10", timeZone: SAO_PAULO })
    expect(recent.series[0]).toMatchObject({ period: "2026-02-09", gross: 0 })
    const overview = expectOk(await api.get("/api/reports/overview", scoped))
    expect(overview).toMatchObject({ to: "2026-03-10", timeZone: SAO_PAULO })
    expect(overview.sales.totals.gross).toBe(0)
    const overviewOfJanuary = expectOk(await api.get("/api/reports/overview?from=2026-01-31&to=2026-01-31", scoped))
    expect(overviewOfJanuary.sales.totals).toMatchObject({ sales: 1, gross: 1000 })
  })
})

describe("MRR with pauses and add-ons", () => {
  it("adds an add-on's monthly price while held, and counts a paused subscription 0 while paused", async () => {
    const start = Date.UTC(2026, 2, 2, 12, 0, 0) // 09:00 in São Paulo, Monday March 2nd
    time.set(start)
    const made = await subscribed(api) // Mensal, R$ 49,90 a month; add-on Extra R$ 10,00 a month
    await inTimeZone(made.community.id, made.owner.token, SAO_PAULO)
    const member = as(made.member, made.community)
    const sub = (path: string) => `/api/subscriptions/${made.subscriptionId}${path}`
    const manage = (path: string) => `/api/manage/subscriptions/${made.subscriptionId}${path}`
    const report = async (to: string) =>
      expectOk(await api.get(`/api/reports/subscriptions?from=2026-03-01&to=${to}`, made.scoped))

    time.set(start + DAY) // the 3rd: the team adds the add-on
    const added = expectOk(await api.post(manage("/add-ons"), { productId: made.addOn.id }, made.scoped))
    time.set(start + 2 * DAY) // the 4th: the member pauses
    expect(expectOk(await api.post(sub("/pause"), {}, member)).status).toBe("paused")

    const whilePaused = await report("2026-03-04")
    expect(periods(whilePaused, "mrr")).toEqual([
      ["2026-03-01", 0],
      ["2026-03-02", 4990],
      ["2026-03-03", 5990],
      ["2026-03-04", 0]
    ])
    // still a subscription (it comes back), worth nothing while paused
    expect(periods(whilePaused, "active")).toEqual([
      ["2026-03-01", 0],
      ["2026-03-02", 1],
      ["2026-03-03", 1],
      ["2026-03-04", 1]
    ])
    expect(whilePaused.totals).toMatchObject({ new: 1, churned: 0, active: 1, mrr: 0, byStatus: { paused: 1 } })

    time.set(start + 3 * DAY) // the 5th: resumed
    expect(expectOk(await api.post(sub("/resume"), undefined, member)).status).toBe("active")
    time.set(start + 4 * DAY) // the 6th: the add-on removed
    expectOk(await api.del(manage(`/add-ons/${added.addOns[0].id}`), made.scoped))

    const after = await report("2026-03-06")
    expect(periods(after, "mrr")).toEqual([
      ["2026-03-01", 0],
      ["2026-03-02", 4990],
      ["2026-03-03", 5990],
      ["2026-03-04", 0],
      ["2026-03-05", 5990],
      ["2026-03-06", 4990]
    ])
    expect(after.totals).toMatchObject({ new: 1, active: 1, mrr: 4990, byStatus: { active: 1 } })
    // by week (Monday the 2nd): the figure at the week's end
    const weekly = expectOk(
      await api.get("/api/reports/subscriptions?from=2026-03-02&to=2026-03-06&interval=week", made.scoped)
    )
    expect(weekly.series).toEqual([{ period: "2026-03-02", new: 1, churned: 0, active: 1, mrr: 4990 }])
  })
})
