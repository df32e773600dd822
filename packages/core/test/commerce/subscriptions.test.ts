import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Roda } from "../../src/index"
import { as } from "../support/community"
import { expectCreated, expectError, expectInvalid, expectOk, roleRequired, unknownId } from "../support/envelope"
import { type Client, client, startRoda } from "../support/harness"
import { outboxFor } from "../support/outbox"
import { query } from "../support/sql"
import { planAccessUntil, runJobs, setCard, subscribed, unbalanced } from "./subscriptions-support"

let roda: Roda
let api: Client

beforeAll(() => {
  roda = startRoda({ runJobs: false })
  api = client(roda)
})
afterAll(() => roda.dispose())

type Made = Awaited<ReturnType<typeof subscribed>>
const memberOf = (made: Made) => as(made.member, made.community)
const sub = (made: Made, path = "") => `/api/subscriptions/${made.subscriptionId}${path}`
const manage = (made: Made, path = "") => `/api/manage/subscriptions/${made.subscriptionId}${path}`
const ALLOWED = /Movimentos permitidos: /

const expectRefusedMove = (reply: Awaited<ReturnType<Client["post"]>>) => {
  const body = expectError(reply, 409)
  expect(body.message).toMatch(ALLOWED)
  expect(body.errors[0].param).toBe("status")
}

describe("member routes", () => {
  it("list, me, detail and billings show only the caller's own subscriptions", async () => {
    const made = await subscribed(api)
    const list = await api.get("/api/subscriptions", memberOf(made))
    const items = expectOk(list)
    expect(items.map((s: { id: string }) => s.id)).toEqual([made.subscriptionId])
    expect(list.body.pagination).toEqual({ limit: 20, nextCursor: null })
    expect(items[0]).toMatchObject({
      status: "active",
      productId: made.monthly.id,
      subscriptionGroupId: made.plan.id,
      cancelAtPeriodEnd: false,
      pausedUntil: null,
      scheduledChange: null,
      discountPercent: null,
      addOns: [],
      price: 4990,
      currency: "BRL"
    })
    expect(expectOk(await api.get("/api/subscriptions/me", memberOf(made))).map((s: { id: string }) => s.id)).toEqual(
      [made.subscriptionId]
    )
    expect(expectOk(await api.get(sub(made), memberOf(made))).id).toBe(made.subscriptionId)
    const billings = expectOk(await api.get(sub(made, "/billings"), memberOf(made)))
    expect(billings).toHaveLength(1)
    expect(billings[0]).toMatchObject({ reason: "initial", status: "paid", amount: 4990, currency: "BRL" })
    // the owner, another member: not theirs (404); an unknown or malformed id
    expectError(await api.get(sub(made), made.scoped), 404, "Assinatura não encontrada.")
    const other = await made.addMember("member")
    expectError(await api.get(sub(made), as(other, made.community)), 404)
    expectError(await api.post(sub(made, "/cancel"), undefined, as(other, made.community)), 404)
    expect(expectOk(await api.get("/api/subscriptions", as(other, made.community)))).toEqual([])
    expectError(await api.get(`/api/subscriptions/${unknownId()}`, memberOf(made)), 404)
    expectInvalid(await api.get("/api/subscriptions/not-a-uuid", memberOf(made)), "id", "params")
    expectInvalid(await api.get("/api/subscriptions?status=nope", memberOf(made)), "status", "query")
    // another community's subscription
    const elsewhere = await subscribed(api)
    expectError(await api.get(`/api/subscriptions/${elsewhere.subscriptionId}`, memberOf(made)), 404)
    expectError(await api.get("/api/subscriptions"), 401)
  })

  it("cancel at period end, reactivate; refused moves answer 409 with the allowed moves", async () => {
    const made = await subscribed(api)
    const canceled = await api.post(sub(made, "/cancel"), undefined, memberOf(made))
    expect(expectOk(canceled, 200, "A assinatura termina no fim do período atual.")).toMatchObject({
      status: "active",
      cancelAtPeriodEnd: true,
      allowedMoves: ["reactivate", "cancel_now", "remove_add_on", "extend", "discount"]
    })
    expect((await outboxFor(roda, made.member.email)).some((m) => m.kind === "subscription-canceled")).toBe(true)
    expectRefusedMove(await api.post(sub(made, "/cancel"), undefined, memberOf(made)))
    expectRefusedMove(await api.post(sub(made, "/pause"), {}, memberOf(made)))
    expect(expectOk(await api.post(sub(made, "/reactivate"), undefined, memberOf(made))).cancelAtPeriodEnd).toBe(false)
    expectRefusedMove(await api.post(sub(made, "/reactivate"), undefined, memberOf(made)))
    expectRefusedMove(await api.post(sub(made, "/resume"), undefined, memberOf(made)))
    expectRefusedMove(
      await api.post(sub(made, "/pay-now"), { paymentMethod: "CREDIT_CARD", cardToken: "tok_visa" }, memberOf(made))
    )
    expectInvalid(await api.post(sub(made, "/pay-now"), { paymentMethod: "PIX" }, memberOf(made)), "paymentMethod")
    expectInvalid(await api.post(sub(made, "/pay-now"), { paymentMethod: "CREDIT_CARD" }, memberOf(made)), "cardToken")
    expectInvalid(await api.post(sub(made, "/pause"), { extra: 1 }, memberOf(made)), "extra")
  })

  it("pause removes access and keeps the time left; resume gives it back; a past resumeAt is refused", async () => {
    const made = await subscribed(api)
    expectInvalid(
      await api.post(sub(made, "/pause"), { resumeAt: "2020-01-01T00:00:00Z" }, memberOf(made)),
      "resumeAt"
    )
    expectInvalid(await api.post(sub(made, "/pause"), { resumeAt: "tomorrow" }, memberOf(made)), "resumeAt")
    const before = (await planAccessUntil(roda, made.member.profileId, made.plan.id))!
    expect(before.getTime()).toBeGreaterThan(Date.now())
    const paused = expectOk(await api.post(sub(made, "/pause"), {}, memberOf(made)), 200, "Assinatura pausada.")
    expect(paused).toMatchObject({
      status: "paused",
      allowedMoves: ["resume", "cancel", "cancel_now", "remove_add_on", "discount"]
    })
    expect((await planAccessUntil(roda, made.member.profileId, made.plan.id))!.getTime()).toBeLessThanOrEqual(
      Date.now()
    )
    expectRefusedMove(await api.post(sub(made, "/pause"), {}, memberOf(made)))
    const resumed = expectOk(await api.post(sub(made, "/resume"), undefined, memberOf(made)))
    expect(resumed.status).toBe("active")
    const left = new Date(resumed.currentPeriodEnd).getTime() - Date.now()
    expect(Math.abs(left - (before.getTime() - Date.now()))).toBeLessThan(60_000)
    expect((await planAccessUntil(roda, made.member.profileId, made.plan.id))!.toISOString()).toBe(
      resumed.currentPeriodEnd
    )
  })

  it("change-tier: the quote writes nothing and equals the charge; downgrades are scheduled and undone", async () => {
    const made = await subscribed(api)
    const quote = expectOk(
      await api.post(sub(made, "/change-tier/quote"), { productId: made.premium.id }, memberOf(made))
    )
    expect(quote).toMatchObject({ direction: "upgrade", when: "now", currency: "BRL", discount: 0 })
    // (99.90 - 49.90) for nearly the whole month
    expect(quote.amount).toBeGreaterThan(4990)
    expect(quote.amount).toBeLessThanOrEqual(5000)
    expect(expectOk(await api.get(sub(made, "/billings"), memberOf(made)))).toHaveLength(1)
    expect(expectOk(await api.get(sub(made), memberOf(made))).productId).toBe(made.monthly.id)
    const changed = expectOk(await api.post(sub(made, "/change-tier"), { productId: made.premium.id }, memberOf(made)))
    expect(changed.scheduled).toBe(false)
    expect(Math.abs(changed.quote.amount - quote.amount)).toBeLessThanOrEqual(1)
    expect(changed.subscription).toMatchObject({ productId: made.premium.id, price: 9990 })
    const billings = expectOk(await api.get(sub(made, "/billings"), memberOf(made)))
    expect(billings[0]).toMatchObject({ reason: "proration", status: "paid", amount: changed.quote.amount })
    // bad targets
    expectInvalid(
      await api.post(sub(made, "/change-tier"), { productId: made.premium.id }, memberOf(made)),
      "productId"
    )
    expectInvalid(await api.post(sub(made, "/change-tier"), { productId: made.addOn.id }, memberOf(made)), "productId")
    expectInvalid(await api.post(sub(made, "/change-tier"), { productId: "x" }, memberOf(made)), "productId")
    expectInvalid(
      await api.post(sub(made, "/change-tier"), { productId: made.monthly.id, when: "now" }, memberOf(made)),
      "when"
    )
    // a downgrade waits for the period end
    expect(expectOk(await api.get(sub(made, "/scheduled-change"), memberOf(made)))).toBeNull()
    const scheduled = expectOk(
      await api.post(sub(made, "/change-tier"), { productId: made.monthly.id }, memberOf(made)),
      200,
      "A mudança de plano acontece no fim do período atual."
    )
    expect(scheduled.subscription.scheduledChange).toEqual({
      productId: made.monthly.id,
      effectiveAt: scheduled.subscription.currentPeriodEnd
    })
    expect(expectOk(await api.get(sub(made, "/scheduled-change"), memberOf(made))).productId).toBe(made.monthly.id)
    expect(expectOk(await api.del(sub(made, "/scheduled-change"), memberOf(made))).scheduledChange).toBeNull()
    expectError(await api.del(sub(made, "/scheduled-change"), memberOf(made)), 404)
    // a declined card: 402, nothing changes but the failed billing
    await setCard(roda, made.subscriptionId, "tok_chargeDeclined")
    expectError(
      await api.post(sub(made, "/add-ons"), { productId: made.addOn.id }, memberOf(made)),
      402,
      "Pagamento recusado pelo emissor do cartão."
    )
    expect(expectOk(await api.get(sub(made), memberOf(made)))).toMatchObject({ productId: made.premium.id, addOns: [] })
    expect(expectOk(await api.get(sub(made, "/billings"), memberOf(made)))[0]).toMatchObject({
      status: "failed",
      failureReason: "card_declined"
    })
  })

  it("add-ons: quote, add (charged, access), twice is 409, not an add-on is 400", async () => {
    const made = await subscribed(api)
    const quote = expectOk(await api.post(sub(made, "/add-ons/quote"), { productId: made.addOn.id }, memberOf(made)))
    expect(quote.amount).toBeGreaterThan(990)
    expect(quote.amount).toBeLessThanOrEqual(1000)
    expect(expectOk(await api.get(sub(made), memberOf(made))).addOns).toEqual([])
    const added = expectOk(await api.post(sub(made, "/add-ons"), { productId: made.addOn.id }, memberOf(made)))
    expect(added.subscription.addOns).toEqual([
      expect.objectContaining({ productId: made.addOn.id, price: 1000, title: "Extra" })
    ])
    expect(expectOk(await api.get(sub(made, "/billings"), memberOf(made)))[0]).toMatchObject({
      reason: "add_on",
      status: "paid"
    })
    const access = await query(
      roda,
      (sql) =>
        sql`SELECT valid_until FROM entitlements WHERE profile_id = ${made.member.profileId}
        AND source_id = ${made.addOn.id}`
    )
    expect(access).toHaveLength(1)
    expect(
      expectError(await api.post(sub(made, "/add-ons"), { productId: made.addOn.id }, memberOf(made)), 409).errors[0]
        .param
    ).toBe("productId")
    expectInvalid(
      await api.post(sub(made, "/add-ons/quote"), { productId: made.premium.id }, memberOf(made)),
      "productId"
    )
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })
})

describe("team routes", () => {
  it("roles: owner and admin act, finance reads, others are refused with the role message", async () => {
    const made = await subscribed(api)
    const finance = await made.addMember("finance")
    const moderator = await made.addMember("moderator")
    const admin = await made.addMember("admin")
    expectError(
      await api.get("/api/manage/subscriptions", memberOf(made)),
      403,
      roleRequired(["owner", "admin", "finance"], "member")
    )
    expectError(
      await api.get(manage(made), as(moderator, made.community)),
      403,
      roleRequired(["owner", "admin", "finance"], "moderator")
    )
    expect(expectOk(await api.get("/api/manage/subscriptions", as(finance, made.community)))).toHaveLength(1)
    expect(expectOk(await api.get(manage(made), as(finance, made.community))).member).toMatchObject({
      profileId: made.member.profileId,
      email: made.member.email
    })
    expectError(
      await api.post(manage(made, "/extend"), { days: 3 }, as(finance, made.community)),
      403,
      roleRequired(["owner", "admin"], "finance")
    )
    expectError(
      await api.post(manage(made, "/cancel"), { when: "now" }, memberOf(made)),
      403,
      roleRequired(["owner", "admin"], "member")
    )
    expectOk(await api.post(manage(made, "/extend"), { days: 3 }, as(admin, made.community)))
    const elsewhere = await subscribed(api)
    expectError(await api.get(`/api/manage/subscriptions/${elsewhere.subscriptionId}`, made.scoped), 404)
    expectError(
      await api.post(`/api/manage/subscriptions/${elsewhere.subscriptionId}/extend`, { days: 1 }, made.scoped),
      404
    )
  })

  it("list filters and keyset pages; the CSV export is streamed with a header line (RFC 4180)", async () => {
    const made = await subscribed(api, "Ana \"Zé\", Souza")
    const second = await made.addMember("member", "=HYPERLINK(A1)")
    const secondId = await made.buy(made.premium.id, second)
    const all = expectOk(await api.get("/api/manage/subscriptions", made.scoped))
    expect(all.map((s: { id: string }) => s.id)).toEqual([secondId, made.subscriptionId])
    const first = await api.get("/api/manage/subscriptions?limit=1", made.scoped)
    expect(expectOk(first).map((s: { id: string }) => s.id)).toEqual([secondId])
    const next = await api.get(
      `/api/manage/subscriptions?limit=1&cursor=${first.body.pagination.nextCursor}`,
      made.scoped
    )
    expect(expectOk(next).map((s: { id: string }) => s.id)).toEqual([made.subscriptionId])
    expect(next.body.pagination.nextCursor).toBeNull()
    const byProfile = expectOk(await api.get(`/api/manage/subscriptions?profileId=${second.profileId}`, made.scoped))
    expect(byProfile.map((s: { id: string }) => s.id)).toEqual([secondId])
    expect(
      expectOk(
        await api.get(`/api/manage/subscriptions?subscriptionGroupId=${made.plan.id}&status=active`, made.scoped)
      )
    )
      .toHaveLength(2)
    expect(expectOk(await api.get("/api/manage/subscriptions?status=paused", made.scoped))).toEqual([])
    expectInvalid(await api.get("/api/manage/subscriptions?status=gone", made.scoped), "status", "query")
    expectInvalid(await api.get("/api/manage/subscriptions?cursor=abc", made.scoped), "cursor", "query")

    const csv = await api.get("/api/manage/subscriptions/export.csv", made.scoped)
    expect(csv.status).toBe(200)
    expect(csv.headers.get("content-type")).toContain("text/csv")
    const lines = (csv.body as string).split("\r\n")
    expect(lines[0]).toBe(
      "id,status,cancelAtPeriodEnd,profileId,fullName,email,subscriptionGroupId,productId,productTitle,price,currency,discountPercent,currentPeriodStart,currentPeriodEnd,createdAt,canceledAt"
    )
    expect(lines).toHaveLength(4)
    expect(lines[3]).toBe("")
    expect(lines[2]).toContain(`${made.subscriptionId},active,false,${made.member.profileId},"Ana ""Zé"", Souza",`)
    // A member named like a formula is written as text (OWASP CSV injection).
    expect(lines[1]).toContain(`${second.profileId},'=HYPERLINK(A1),`)
    expectError(await api.get("/api/manage/subscriptions/export.csv", memberOf(made)), 403)
  })

  it("manual subscriptions: a courtesy is active at once; a future charge waits for the member's payment link", async () => {
    const made = await subscribed(api)
    const other = await made.addMember("member", "Carla")
    const periodEnd = new Date(Date.now() + 30 * 86_400_000).toISOString()
    const courtesy = expectCreated(
      await api.post("/api/manage/subscriptions", {
        profileId: other.profileId,
        productId: made.premium.id,
        kind: "courtesy",
        periodEnd
      }, made.scoped)
    )
    const detail = expectOk(await api.get(`/api/manage/subscriptions/${courtesy.id}`, made.scoped))
    expect(detail).toMatchObject({ status: "active", kind: "courtesy", currentPeriodEnd: periodEnd, hasCard: false })
    expect((await planAccessUntil(roda, other.profileId, made.plan.id))!.toISOString()).toBe(periodEnd)
    expectInvalid(
      await api.post("/api/manage/subscriptions", {
        profileId: other.profileId,
        productId: made.premium.id,
        kind: "courtesy"
      }, made.scoped),
      "periodEnd"
    )
    expectInvalid(
      await api.post("/api/manage/subscriptions", {
        profileId: unknownId(),
        productId: made.premium.id,
        kind: "charge"
      }, made.scoped),
      "profileId"
    )
    expectInvalid(
      await api.post("/api/manage/subscriptions", {
        profileId: other.profileId,
        productId: made.addOn.id,
        kind: "charge"
      }, made.scoped),
      "productId"
    )
    expectInvalid(
      await api.post("/api/manage/subscriptions", { profileId: other.profileId, kind: "gift" }, made.scoped),
      "kind"
    )

    const charge = expectCreated(
      await api.post("/api/manage/subscriptions", {
        profileId: other.profileId,
        productId: made.monthly.id,
        kind: "charge"
      }, made.scoped)
    )
    expect(expectOk(await api.get(`/api/manage/subscriptions/${charge.id}`, made.scoped)).status).toBe("incomplete")
    await runJobs(roda)
    const mails = (await outboxFor(roda, other.email)).filter((m) => m.kind === "subscription-payment-link")
    expect(mails).toHaveLength(1)
    const token = new URL(/http:\/\/roda\.test\/\S+/.exec(mails[0]!.body)![0]).searchParams.get("token")!
    const pay = (body: Record<string, unknown>) =>
      api.post(`/api/subscriptions/${charge.id}/pay-now`, {
        paymentMethod: "CREDIT_CARD",
        cardToken: "tok_visa",
        ...body
      }, as(other, made.community))
    expectInvalid(await pay({ token: "wrong" }), "token")
    // a second link, expired: 410
    const link = expectOk(await api.post(`/api/manage/subscriptions/${charge.id}/payment-link`, undefined, made.scoped))
    expect(link.url).toMatch(/^http:\/\/roda\.test\/subscriptions\/.+\/pay\?token=/)
    const expired = new URL(link.url).searchParams.get("token")!
    await query(roda, (sql) =>
      sql`UPDATE subscription_payment_links SET expires_at = now() - interval '1 minute'
        WHERE subscription_id = ${charge.id} AND created_at = (SELECT max(created_at) FROM subscription_payment_links
          WHERE subscription_id = ${charge.id}) RETURNING id`)
    expectError(await pay({ token: expired }), 410, "Link de pagamento já usado ou expirado.")
    const paid = expectOk(await pay({ token }))
    expect(paid.subscription).toMatchObject({ status: "active", kind: "paid", hasCard: true })
    expect(paid.billing).toMatchObject({ reason: "initial", status: "paid", amount: 4990 })

    // a manual charge never paid expires with its link (7 days)
    const unpaid = expectCreated(
      await api.post(
        "/api/manage/subscriptions",
        { profileId: other.profileId, productId: made.monthly.id, kind: "charge" },
        made.scoped
      )
    )
    await runJobs(roda)
    await query(
      roda,
      (sql) =>
        sql`UPDATE jobs SET run_at = now() - interval '1 second' WHERE kind = 'subscriptions.expire-incomplete'
        AND key = ${unpaid.id} RETURNING id`
    )
    await runJobs(roda)
    expect(expectOk(await api.get(`/api/manage/subscriptions/${unpaid.id}`, made.scoped)).status).toBe(
      "incomplete_expired"
    )
  })

  it("discount, add-ons without charge, remove an add-on, extend", async () => {
    const made = await subscribed(api)
    expectInvalid(await api.put(manage(made, "/discount"), { percent: 0 }, made.scoped), "percent")
    expectInvalid(await api.put(manage(made, "/discount"), { percent: 101 }, made.scoped), "percent")
    expect(expectOk(await api.put(manage(made, "/discount"), { percent: 20, months: 2 }, made.scoped))).toMatchObject({
      discountPercent: 20,
      discountMonthsLeft: 2
    })
    // the discount applies to the quotes: 20 % off the add-on's proration
    const quote = expectOk(await api.post(sub(made, "/add-ons/quote"), { productId: made.addOn.id }, memberOf(made)))
    expect(quote.amount).toBe(Math.round(quote.listAmount * 0.8))
    expect(expectOk(await api.del(manage(made, "/discount"), made.scoped)).discountPercent).toBeNull()
    expectError(await api.del(manage(made, "/discount"), made.scoped), 404)

    const withAddOn = expectOk(await api.post(manage(made, "/add-ons"), { productId: made.addOn.id }, made.scoped))
    expect(withAddOn.addOns).toHaveLength(1)
    expect(expectOk(await api.get(sub(made, "/billings"), memberOf(made)))).toHaveLength(1)
    expect(expectError(await api.post(manage(made, "/add-ons"), { productId: made.addOn.id }, made.scoped), 409))
      .toBeTruthy()
    expectInvalid(await api.post(manage(made, "/add-ons"), { productId: made.premium.id }, made.scoped), "productId")
    const addOnId = withAddOn.addOns[0].id
    expect(expectOk(await api.del(manage(made, `/add-ons/${addOnId}`), made.scoped)).addOns).toEqual([])
    expectError(await api.del(manage(made, `/add-ons/${addOnId}`), made.scoped), 404)

    const before = expectOk(await api.get(manage(made), made.scoped)).currentPeriodEnd
    const extended = expectOk(await api.post(manage(made, "/extend"), { days: 10 }, made.scoped))
    expect(new Date(extended.currentPeriodEnd).getTime() - new Date(before).getTime()).toBe(10 * 86_400_000)
    expect((await planAccessUntil(roda, made.member.profileId, made.plan.id))!.toISOString()).toBe(
      extended.currentPeriodEnd
    )
    expectInvalid(await api.post(manage(made, "/extend"), { days: 0 }, made.scoped), "days")
    expectInvalid(await api.post(manage(made, "/extend"), { days: 367 }, made.scoped), "days")
  })

  it("cancel at period end and reactivate; cancel now with a full refund; refund needs now", async () => {
    const made = await subscribed(api)
    expectInvalid(
      await api.post(manage(made, "/cancel"), { when: "period_end", refund: "full" }, made.scoped),
      "refund"
    )
    expectInvalid(await api.post(manage(made, "/cancel"), { when: "later" }, made.scoped), "when")
    const marked = expectOk(await api.post(manage(made, "/cancel"), { when: "period_end" }, made.scoped))
    expect(marked.subscription.cancelAtPeriodEnd).toBe(true)
    expectRefusedMove(await api.post(manage(made, "/cancel"), { when: "period_end" }, made.scoped))
    expect(expectOk(await api.post(manage(made, "/reactivate"), undefined, made.scoped)).cancelAtPeriodEnd).toBe(false)
    expectRefusedMove(await api.post(manage(made, "/reactivate"), undefined, made.scoped))

    const ended = expectOk(
      await api.post(manage(made, "/cancel"), { when: "now", refund: "full" }, made.scoped),
      200,
      "Assinatura cancelada."
    )
    expect(ended.refunded).toBe(4990)
    expect(ended.subscription.status).toBe("canceled")
    expect((await planAccessUntil(roda, made.member.profileId, made.plan.id))!.getTime()).toBeLessThanOrEqual(
      Date.now()
    )
    const refunds = await query<{ kind: string }>(
      roda,
      (sql) => sql`SELECT kind FROM ledger_transactions WHERE community_id = ${made.community.id} AND kind = 'refund'`
    )
    expect(refunds).toHaveLength(1)
    expect(await unbalanced(roda, made.community.id)).toEqual([])
    expectRefusedMove(await api.post(manage(made, "/cancel"), { when: "now" }, made.scoped))
    expectRefusedMove(await api.post(manage(made, "/payment-link"), undefined, made.scoped))
    expect(expectOk(await api.get("/api/subscriptions/me", memberOf(made)))).toEqual([])
  })

  it("cancel now with a prorated refund gives back the unused part of the period", async () => {
    const made = await subscribed(api)
    const ended = expectOk(await api.post(manage(made, "/cancel"), { when: "now", refund: "prorated" }, made.scoped))
    // bought moments ago: nearly all of R$ 49,90
    expect(ended.refunded).toBeGreaterThan(4980)
    expect(ended.refunded).toBeLessThanOrEqual(4990)
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })
})
