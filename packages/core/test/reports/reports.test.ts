import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { planOf, shop } from "../commerce/checkout-support"
import { cardCheckout } from "../commerce/checkout-support"
import { recordSale } from "../money/ledger-support"
import { as, newCommunity, type TestCommunity } from "../support/community"
import { courseCommunity, publishedCourse } from "../support/courses"
import { expectError, expectInvalid, expectOk, roleRequired, unknownId } from "../support/envelope"
import { createEvent, eventCommunity } from "../support/events"
import { client, startRoda } from "../support/harness"
import { query } from "../support/sql"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const today = () => new Date().toISOString().slice(0, 10)
const READERS = (role: string) => roleRequired(["owner", "admin", "finance"], role)

describe("GET /api/reports/sales", () => {
  let made: TestCommunity
  beforeAll(async () => {
    made = await newCommunity(api, "Relatórios")
    const id = made.community.id
    await recordSale(roda, id, { method: "PIX", amount: 10000, paidAt: new Date("2026-01-02T10:00:00Z") })
    await recordSale(roda, id, { method: "CREDIT_CARD", amount: 5000, paidAt: new Date("2026-01-02T15:00:00Z") })
    await recordSale(roda, id, { method: "BOLETO", amount: 2000, paidAt: new Date("2026-01-05T12:00:00Z") })
    // a minute after midnight UTC on the 7th is still the 6th in São Paulo
    await recordSale(roda, id, { method: "PIX", amount: 1000, paidAt: new Date("2026-01-07T00:01:00Z") })
  })

  it("answers a zero-filled daily series with gross, fees, net and gross by method, and totals", async () => {
    const reply = await api.get("/api/reports/sales?from=2026-01-01&to=2026-01-07", as(made.owner, made.community))
    const data = expectOk(reply, 200, "Relatório de vendas.")
    expect(data).toMatchObject({
      from: "2026-01-01",
      to: "2026-01-07",
      interval: "day",
      timeZone: "UTC",
      currency: "BRL"
    })
    expect(data.series.map((p: any) => p.period)).toEqual([
      "2026-01-01",
      "2026-01-02",
      "2026-01-03",
      "2026-01-04",
      "2026-01-05",
      "2026-01-06",
      "2026-01-07"
    ])
    expect(data.series[0]).toEqual({
      period: "2026-01-01",
      sales: 0,
      gross: 0,
      fees: 0,
      interest: 0,
      net: 0,
      refunds: 0,
      refundCount: 0,
      byMethod: { CREDIT_CARD: 0, PIX: 0, BOLETO: 0, OTHER: 0 }
    })
    const second = data.series[1]
    expect(second).toMatchObject({ sales: 2, gross: 15000, byMethod: { PIX: 10000, CREDIT_CARD: 5000, BOLETO: 0 } })
    expect(second.fees + second.net).toBe(15000)
    expect(data.series[4]).toMatchObject({ sales: 1, gross: 2000, byMethod: { BOLETO: 2000 } })
    expect(data.totals).toMatchObject({ sales: 4, gross: 18000, refunds: 0 })
    expect(data.totals.fees + data.totals.net).toBe(18000)
    const pix = data.totals.byMethod.find((m: any) => m.paymentMethod === "PIX")
    expect(pix).toMatchObject({ sales: 2, gross: 11000 })
    expect(data.totals.byMethod.map((m: any) => m.paymentMethod)).toEqual(["CREDIT_CARD", "PIX", "BOLETO"])
  })

  it("cuts weeks on Mondays and months on the 1st, and days in the time zone asked for", async () => {
    const scoped = as(made.owner, made.community)
    const weeks = expectOk(await api.get("/api/reports/sales?from=2026-01-01&to=2026-01-07&interval=week", scoped))
    expect(weeks.series.map((p: any) => [p.period, p.gross])).toEqual([["2025-12-29", 15000], ["2026-01-05", 3000]])
    const months = expectOk(await api.get("/api/reports/sales?from=2025-12-01&to=2026-02-28&interval=month", scoped))
    expect(months.series.map((p: any) => [p.period, p.sales])).toEqual([
      ["2025-12-01", 0],
      ["2026-01-01", 4],
      ["2026-02-01", 0]
    ])
    const utc = expectOk(await api.get("/api/reports/sales?from=2026-01-06&to=2026-01-07", scoped))
    expect(utc.series.map((p: any) => p.gross)).toEqual([0, 1000])
    const saoPaulo = expectOk(
      await api.get("/api/reports/sales?from=2026-01-06&to=2026-01-07&timeZone=America/Sao_Paulo", scoped)
    )
    expect(saoPaulo.timeZone).toBe("America/Sao_Paulo")
    expect(saoPaulo.series.map((p: any) => p.gross)).toEqual([1000, 0])
    const otherCurrency = expectOk(
      await api.get("/api/reports/sales?from=2026-01-01&to=2026-01-07&currency=USD", scoped)
    )
    expect(otherCurrency.totals.sales).toBe(0)
  })

  it("defaults to the last 30 days by day", async () => {
    const data = expectOk(await api.get("/api/reports/sales", as(made.owner, made.community)))
    expect(data.series).toHaveLength(30)
    expect(data.to).toBe(today())
    expect(data.series[29].period).toBe(today())
  })

  it("owner, admin and finance read; others 403", async () => {
    const finance = await made.addMember("finance")
    expectOk(await api.get("/api/reports/sales", as(finance, made.community)))
    const admin = await made.addMember("admin")
    expectOk(await api.get("/api/reports/overview", as(admin, made.community)))
    const member = await made.addMember("member")
    for (const path of ["sales", "subscriptions", "members", "engagement", "events", "courses", "overview"]) {
      expectError(await api.get(`/api/reports/${path}`, as(member, made.community)), 403, READERS("member"))
    }
    const moderator = await made.addMember("moderator")
    expectError(await api.get("/api/reports/sales", as(moderator, made.community)), 403, READERS("moderator"))
    expectError(await api.get("/api/reports/sales"), 401)
  })

  it("answers 400 with the param for bad input", async () => {
    const scoped = as(made.owner, made.community)
    expectInvalid(await api.get("/api/reports/sales?interval=year", scoped), "interval", "query")
    expectInvalid(await api.get("/api/reports/sales?from=2026-13-01", scoped), "from", "query")
    // A day outside the calendar (JavaScript reads it as March 2), and a year PostgreSQL does not read.
    expectInvalid(await api.get("/api/reports/sales?from=2026-02-30", scoped), "from", "query")
    expectInvalid(await api.get("/api/emails/stats?from=0000-12-31", scoped), "from", "query")
    expectInvalid(await api.get("/api/reports/sales?to=yesterday", scoped), "to", "query")
    expectInvalid(await api.get("/api/reports/sales?from=2026-02-01&to=2026-01-01", scoped), "to", "query")
    expectInvalid(await api.get("/api/reports/sales?from=2020-01-01&to=2026-01-01", scoped), "from", "query")
    expectOk(await api.get("/api/reports/sales?from=2020-01-01&to=2026-01-01&interval=month", scoped))
    expectInvalid(await api.get("/api/reports/sales?timeZone=Mars/Olympus", scoped), "timeZone", "query")
    // Ten years at most, whatever the interval: the day before the tenth anniversary passes, the day itself does not.
    expectOk(await api.get("/api/reports/sales?from=2016-03-01&to=2026-02-28&interval=month", scoped))
    const tooLong = expectInvalid(
      await api.get("/api/reports/sales?from=2016-03-01&to=2026-03-01&interval=month", scoped),
      "from",
      "query"
    )
    expect(tooLong.errors[0].msg).toBe("the range must not span more than 10 years")
  })

  it("refuses the widest range at once, on every report and interval", async () => {
    const scoped = as(made.owner, made.community)
    for (const path of ["sales", "subscriptions", "members", "engagement", "events", "courses", "overview"]) {
      for (const interval of ["day", "week", "month"]) {
        const started = performance.now()
        const reply = await api.get(`/api/reports/${path}?from=0001-01-01&to=9999-12-31&interval=${interval}`, scoped)
        expect(performance.now() - started).toBeLessThan(500)
        const body = expectInvalid(reply, "from", "query")
        expect(body.errors[0].msg).toBe("the range must not span more than 10 years")
      }
    }
    const activity = await api.get(
      `/api/reports/members/${made.owner.profileId}/activity?from=0001-01-01&to=9999-12-31`,
      scoped
    )
    expectInvalid(activity, "from", "query")
    expectInvalid(await api.get("/api/reports/sales?currency=real", scoped), "currency", "query")
  })
})

describe("sales with checkout, refunds and subscriptions", () => {
  it("counts a real sale and its refund, and a plan's subscription and MRR", async () => {
    const made = await shop(api)
    const sale = expectOk(
      await api.post("/api/checkout", cardCheckout(made.product.id), { community: made.community.id }),
      201
    )
    expectOk(
      await api.post(`/api/manage/purchases/${sale.purchaseId}/refund`, { amount: 4000, reason: "x" }, made.scoped)
    )
    const { option } = await planOf(api, made)
    expectOk(await api.post("/api/checkout", cardCheckout(option.id), { community: made.community.id }), 201)
    const day = today()
    const sales = expectOk(await api.get(`/api/reports/sales?from=${day}&to=${day}`, made.scoped))
    expect(sales.series).toHaveLength(1)
    expect(sales.series[0]).toMatchObject({
      sales: 2,
      gross: 10000 + 4990,
      refunds: 4000,
      refundCount: 1,
      byMethod: { CREDIT_CARD: 14990 }
    })
    const subs = expectOk(
      await api.get(`/api/reports/subscriptions?from=${day}&to=${day}`, made.scoped),
      200,
      "Relatório de assinaturas."
    )
    expect(subs.series).toEqual([{ period: day, new: 1, churned: 0, active: 1, mrr: 4990 }])
    expect(subs.totals).toMatchObject({ new: 1, churned: 0, active: 1, mrr: 4990, byStatus: { active: 1 } })
  })
})

describe("members, engagement, events, courses, overview and one member's activity", () => {
  it("reports what the community did today, zero-filled around it", async () => {
    const setup = await eventCommunity(api, "Atividade")
    const scoped = as(setup.owner, setup.community)
    const ana = await setup.addMember("member", "Ana")
    const bruno = await setup.addMember("member", "Bruno")
    const post = expectOk(await api.post("/api/status", { body: "Olá" }, as(ana, setup.community)), 201)
    expectOk(await api.post(`/api/status/${post.id}/comment`, { body: "Oi" }, as(bruno, setup.community)), 201)
    expectOk(await api.post(`/api/status/${post.id}/react`, { type: "like" }, as(bruno, setup.community)))
    const event = await createEvent(api, setup, { startTime: `${today()}T23:00:00Z`, endTime: `${today()}T23:30:00Z` })
    expectOk(await api.post(`/api/events/${event.id}/participate`, undefined, as(ana, setup.community)))
    expectOk(await api.post(`/api/events/${event.id}/participate`, undefined, as(bruno, setup.community)))
    await query(
      roda,
      (sql) =>
        sql`UPDATE event_participants SET checked_in_at = now() WHERE event_id = ${event.id} AND profile_id = ${ana.profileId}`
    )
    const from = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10)
    const range = `from=${from}&to=${today()}`

    const members = expectOk(await api.get(`/api/reports/members?${range}`, scoped), 200, "Relatório de membros.")
    expect(members.series).toHaveLength(3)
    expect(members.series[0]).toEqual({ period: from, joined: 0, left: 0, total: 0, active: 0 })
    expect(members.series[2]).toEqual({ period: today(), joined: 3, left: 0, total: 3, active: 2 })
    expect(members.totals).toEqual({ joined: 3, left: 0, total: 3 })

    const engagement = expectOk(await api.get(`/api/reports/engagement?${range}`, scoped))
    expect(engagement.series[2]).toEqual({ period: today(), posts: 1, comments: 1, reactions: 1, activeMembers: 2 })
    expect(engagement.totals).toMatchObject({ posts: 1, comments: 1, reactions: 1 })

    const events = expectOk(await api.get(`/api/reports/events?${range}`, scoped))
    expect(events.series[2]).toEqual({ period: today(), events: 1, participants: 2, attendance: 1 })

    const activity = expectOk(
      await api.get(`/api/reports/members/${ana.profileId}/activity?${range}`, scoped),
      200,
      "Atividade do membro."
    )
    expect(activity.profileId).toBe(ana.profileId)
    expect(activity.series[2]).toMatchObject({ posts: 1, comments: 0, reactions: 0, eventsJoined: 1, attendance: 1 })
    expect(activity.totals).toMatchObject({ posts: 1, eventsJoined: 1, attendance: 1, enrollments: 0 })
    const brunos = expectOk(await api.get(`/api/reports/members/${bruno.profileId}/activity?${range}`, scoped))
    expect(brunos.totals).toMatchObject({ posts: 0, comments: 1, reactions: 1, eventsJoined: 1, attendance: 0 })

    const overview = expectOk(await api.get(`/api/reports/overview?${range}`, scoped), 200, "Visão geral.")
    expect(Object.keys(overview)).toEqual(
      expect.arrayContaining(["sales", "subscriptions", "members", "engagement", "events", "courses"])
    )
    expect(overview.members.totals.joined).toBe(3)
    expect(overview.engagement.series).toHaveLength(3)
    expect(overview.sales.totals.sales).toBe(0)

    // another community's profile, an unknown one, a malformed id
    const other = await newCommunity(api, "Outra")
    expectError(await api.get(`/api/reports/members/${other.owner.profileId}/activity`, scoped), 404)
    expectError(await api.get(`/api/reports/members/${unknownId()}/activity`, scoped), 404)
    expectInvalid(await api.get("/api/reports/members/nope/activity", scoped), "profileId", "params")
    expectError(await api.get(`/api/reports/members/${ana.profileId}/activity`, as(other.owner, other.community)), 404)
    expectError(await api.get(`/api/reports/members/${ana.profileId}/activity`, as(ana, setup.community)), 403)
  })

  it("counts enrollments, lesson completions and course completions", async () => {
    const setup = await courseCommunity(api, "Cursos rel")
    const scoped = as(setup.owner, setup.community)
    const course = await publishedCourse(api, setup, { modules: 1, lessons: 2 })
    const learner = await setup.addMember("member", "Lia")
    const options = as(learner, setup.community)
    expectOk(await api.post(`/api/courses/${course.id}/enroll`, undefined, options), 201)
    const [l1, l2] = course.modules[0]!.lessons
    expectOk(await api.post(`/api/courses/${course.id}/lesson/${l1!.id}/progress`, { completed: true }, options))
    const half = expectOk(
      await api.get(`/api/reports/courses?from=${today()}&to=${today()}`, scoped),
      200,
      "Relatório de cursos."
    )
    expect(half.series).toEqual([{ period: today(), enrollments: 1, lessonCompletions: 1, completions: 0 }])
    expectOk(await api.post(`/api/courses/${course.id}/lesson/${l2!.id}/progress`, { completed: true }, options))
    const done = expectOk(await api.get(`/api/reports/courses?from=${today()}&to=${today()}`, scoped))
    expect(done.totals).toEqual({ enrollments: 1, lessonCompletions: 2, completions: 1 })
    const activity = expectOk(
      await api.get(`/api/reports/members/${learner.profileId}/activity?from=${today()}&to=${today()}`, scoped)
    )
    expect(activity.totals).toMatchObject({ enrollments: 1, lessonCompletions: 2, completions: 1 })
  })
})

describe("GET /api/emails/stats", () => {
  it("counts the community's outbox: sent, delivered, failed, pending, by kind; owner or admin only", async () => {
    const made = await shop(api)
    expectOk(await api.post("/api/checkout", cardCheckout(made.product.id), { community: made.community.id }), 201)
    const mails = await query<{ id: string; kind: string }>(
      roda,
      (sql) => sql`SELECT id, kind FROM outbox WHERE community_id = ${made.community.id} ORDER BY created_at`
    )
    expect(mails.length).toBeGreaterThan(1)
    const receipt = mails.find((m) => m.kind === "receipt")!
    const sale = mails.find((m) => m.kind === "sale")!
    await query(roda, (sql) => sql`UPDATE outbox SET sent_at = now(), attempts = 1 WHERE id = ${receipt.id}`)
    await query(roda, (sql) => sql`UPDATE outbox SET attempts = 5 WHERE id = ${sale.id}`)
    const data = expectOk(await api.get("/api/emails/stats", made.scoped), 200, "Estatísticas de e-mail.")
    expect(data.sent).toBe(mails.length)
    expect(data.delivered).toBe(1)
    expect(data.failed).toBe(1)
    expect(data.pending).toBe(mails.length - 2)
    expect(data.byKind).toEqual(expect.arrayContaining([
      { kind: "receipt", sent: 1, delivered: 1, failed: 0, pending: 0 },
      { kind: "sale", sent: 1, delivered: 0, failed: 1, pending: 0 }
    ]))
    const none = expectOk(await api.get("/api/emails/stats?to=2000-01-01", made.scoped))
    expect(none).toMatchObject({ sent: 0, byKind: [] })
    expectInvalid(await api.get("/api/emails/stats?from=2026-02-01&to=2026-01-01", made.scoped), "to", "query")
    expectInvalid(await api.get("/api/emails/stats?from=soon", made.scoped), "from", "query")
    const admin = await made.addMember("admin")
    expectOk(await api.get("/api/emails/stats", as(admin, made.community)))
    const finance = await made.addMember("finance")
    expectError(
      await api.get("/api/emails/stats", as(finance, made.community)),
      403,
      roleRequired(["owner", "admin"], "finance")
    )
    const other = await newCommunity(api, "Sem e-mails de venda")
    const theirs = expectOk(await api.get("/api/emails/stats", as(other.owner, other.community)))
    expect(theirs.byKind.find((k: any) => k.kind === "receipt")).toBeUndefined()
  })
})
