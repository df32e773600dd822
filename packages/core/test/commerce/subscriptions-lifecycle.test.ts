import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Roda } from "../../src/index"
import { as } from "../support/community"
import { expectError, expectOk } from "../support/envelope"
import { type Client, client } from "../support/harness"
import { outboxFor } from "../support/outbox"
import { query } from "../support/sql"
import {
  type ChargeLog,
  controlledClock,
  DAY,
  planAccessUntil,
  runJobs,
  setCard,
  signIn,
  startTimedRoda,
  subscribed,
  unbalanced
} from "./subscriptions-support"

const T0 = Date.UTC(2026, 0, 31, 12, 0, 0)
const time = controlledClock(T0)
const log: ChargeLog = new Map()
let roda: Roda
let api: Client

beforeAll(async () => {
  roda = startTimedRoda(time.clock, log)
  api = client(roda)
})
afterAll(() => roda.dispose())

interface Row {
  status: string
  cancelAtPeriodEnd: boolean
  currentPeriodStart: Date
  currentPeriodEnd: Date
}

const row = async (id: string) =>
  (await query<Row>(
    roda,
    (sql) =>
      sql`SELECT status, cancel_at_period_end, current_period_start, current_period_end FROM subscriptions
      WHERE id = ${id}`
  ))[0]!

interface Billing {
  id: string
  reason: string
  status: string
  amount: number
  attempts: number
  periodStart: Date
  periodEnd: Date
}

const billingsOf = (id: string) =>
  query<Billing>(
    roda,
    (sql) =>
      sql`SELECT id, reason, status, amount, attempts, period_start, period_end FROM subscription_billings
      WHERE subscription_id = ${id} ORDER BY created_at, id`
  )

/** Moves the clock just past the subscription's period end and runs what fell due. */
const toPeriodEnd = async (id: string) => {
  time.set(new Date((await row(id)).currentPeriodEnd).getTime() + 1000)
  await runJobs(roda)
}

const mailsOf = async (email: string, kind: string) => (await outboxFor(roda, email)).filter((m) => m.kind === kind)

describe("the subscription lifecycle (controlled clock, jobs run by hand)", () => {
  it("a year of renewals: a failed renewal, retries, pay-now, cancel at period end; the ledger balances", async () => {
    time.set(T0)
    const made = await subscribed(api)
    const id = made.subscriptionId
    const email = made.member.email
    const start = await row(id)
    expect(start.status).toBe("active")
    // Jan 31 + 1 month is Feb 28; the anchor brings later periods back to the 31st when the month has it.
    expect(new Date(start.currentPeriodEnd).toISOString()).toBe("2026-02-28T12:00:00.000Z")

    const ends: Array<string> = []
    for (let month = 1; month <= 3; month++) {
      await toPeriodEnd(id)
      const now = await row(id)
      expect(now.status).toBe("active")
      ends.push(new Date(now.currentPeriodEnd).toISOString())
    }
    expect(ends).toEqual(["2026-03-31T12:00:00.000Z", "2026-04-30T12:00:00.000Z", "2026-05-31T12:00:00.000Z"])
    expect(await mailsOf(email, "subscription-receipt")).toHaveLength(3)

    // The card stops working: the renewal fails, the subscription is past due, access is kept.
    await setCard(roda, id, "tok_chargeDeclined")
    await toPeriodEnd(id)
    const failedAt = time.now()
    expect((await row(id)).status).toBe("past_due")
    expect(await mailsOf(email, "subscription-payment-failed")).toHaveLength(1)
    expect((await mailsOf(email, "subscription-payment-failed"))[0]!.body).toContain("http://roda.test/subscriptions/")
    expect((await planAccessUntil(roda, made.member.profileId, made.plan.id))!.getTime()).toBeGreaterThan(failedAt)
    const open = (await billingsOf(id)).at(-1)!
    expect(open).toMatchObject({ reason: "renewal", status: "failed", attempts: 1 })

    // Retries on day 1 and day 3 fail too.
    time.set(failedAt + DAY + 1000)
    await runJobs(roda)
    expect((await billingsOf(id)).at(-1)).toMatchObject({ id: open.id, status: "failed", attempts: 2 })
    time.set(failedAt + 3 * DAY + 1000)
    await runJobs(roda)
    expect((await billingsOf(id)).at(-1)).toMatchObject({ id: open.id, status: "failed", attempts: 3 })
    expect((await row(id)).status).toBe("past_due")

    // The member pays now with another card: active again for the period being renewed.
    const token = await signIn(api, email)
    const declined = await api.post(`/api/subscriptions/${id}/pay-now`, {
      paymentMethod: "CREDIT_CARD",
      cardToken: "tok_chargeDeclined"
    }, as({ token }, made.community))
    expectError(declined, 402, "Pagamento recusado pelo emissor do cartão.")
    const paid = expectOk(
      await api.post(`/api/subscriptions/${id}/pay-now`, { paymentMethod: "CREDIT_CARD", cardToken: "tok_visa" }, {
        token,
        community: made.community.id
      })
    )
    expect(paid.subscription.status).toBe("active")
    expect(paid.billing).toMatchObject({ id: open.id, status: "paid", attempts: 5 })
    expect(paid.subscription.currentPeriodEnd).toBe("2026-06-30T12:00:00.000Z")
    // The retries still queued (day 5, 7) find nothing to do.
    time.set(failedAt + 8 * DAY)
    await runJobs(roda)
    expect((await row(id)).status).toBe("active")

    for (let month = 6; month <= 11; month++) await toPeriodEnd(id)
    expect(new Date((await row(id)).currentPeriodEnd).toISOString()).toBe("2026-12-31T12:00:00.000Z")

    // The member cancels: access goes on until the period end, then the subscription is canceled.
    const again = await signIn(api, email)
    const canceled = await api.post(`/api/subscriptions/${id}/cancel`, undefined, as({ token: again }, made.community))
    expect(expectOk(canceled).cancelAtPeriodEnd).toBe(true)
    expect(canceled.body.message).toBe("A assinatura termina no fim do período atual.")
    await toPeriodEnd(id)
    expect((await row(id)).status).toBe("canceled")
    expect((await planAccessUntil(roda, made.member.profileId, made.plan.id))!.toISOString()).toBe(
      "2026-12-31T12:00:00.000Z"
    )
    await runJobs(roda)

    const billings = await billingsOf(id)
    // the first charge, 10 renewals (Feb..Nov ends), of which one failed before it was paid
    expect(billings.map((b) => b.reason)).toEqual(["initial", ...Array(10).fill("renewal")])
    expect(billings.every((b) => b.status === "paid" && b.amount === 4990)).toBe(true)
    // Each renewal was asked of the gateway once, but the failed one (3 declines, 1 declined pay-now, then paid).
    for (const billing of billings.slice(1)) expect(log.get(billing.id)).toBe(billing.id === open.id ? 5 : 1)
    // The ledger: one sale per paid charge, every transaction balanced.
    const sales = await query<{ n: number }>(
      roda,
      (sql) =>
        sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE community_id = ${made.community.id} AND kind = 'sale'`
    )
    expect(sales[0]!.n).toBe(11)
    expect(await unbalanced(roda, made.community.id)).toEqual([])
    const paidIn = await query<{ total: number }>(
      roda,
      (sql) =>
        sql`SELECT sum(amount)::bigint AS total FROM ledger_entries
        WHERE community_id = ${made.community.id} AND account = 'buyer_payments'`
    )
    expect(Number(paidIn[0]!.total)).toBe(-11 * 4990)
  })

  it("retries exhausted leave it unpaid without access; pay-now starts a new period from the payment", async () => {
    time.set(T0)
    const made = await subscribed(api)
    const id = made.subscriptionId
    await setCard(roda, id, "tok_chargeDeclined")
    await toPeriodEnd(id)
    const failedAt = time.now()
    for (const day of [1, 3, 5]) {
      time.set(failedAt + day * DAY + 1000)
      await runJobs(roda)
      expect((await row(id)).status).toBe("past_due")
    }
    time.set(failedAt + 7 * DAY + 1000)
    await runJobs(roda)
    expect((await row(id)).status).toBe("unpaid")
    expect((await planAccessUntil(roda, made.member.profileId, made.plan.id))!.getTime()).toBeLessThanOrEqual(
      time.now()
    )
    expect(await mailsOf(made.member.email, "subscription-unpaid")).toHaveLength(1)
    const token = await signIn(api, made.member.email)
    time.set(failedAt + 10 * DAY)
    const open = (await billingsOf(id)).at(-1)!
    const asked = log.get(open.id)
    // paid twice at once (a double click): one payment, the other answer is a refused move
    const replies = await Promise.all(
      [0, 1].map(() =>
        api.post(`/api/subscriptions/${id}/pay-now`, { paymentMethod: "CREDIT_CARD", cardToken: "tok_visa" }, {
          token,
          community: made.community.id
        })
      )
    )
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409])
    expect(log.get(open.id)).toBe(asked! + 1)
    const paid = expectOk(replies.find((r) => r.status === 200)!)
    expect(paid.subscription.status).toBe("active")
    expect(paid.subscription.currentPeriodStart).toBe(new Date(failedAt + 10 * DAY).toISOString())
    expect((await planAccessUntil(roda, made.member.profileId, made.plan.id))!.toISOString()).toBe(
      paid.subscription.currentPeriodEnd
    )
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })

  it("two workers racing at the period end charge the renewal once", async () => {
    time.set(T0)
    const made = await subscribed(api)
    const id = made.subscriptionId
    time.set(new Date((await row(id)).currentPeriodEnd).getTime() + 1000)
    const other = process.env.DATABASE_URL ? startTimedRoda(time.clock, log) : roda
    try {
      const { Jobs } = await import("../../src/platform/Jobs")
      const { Effect } = await import("effect")
      const round = (instance: Roda) => instance.runtime.runPromise(Effect.flatMap(Jobs, (jobs) => jobs.runDue()))
      await Promise.all([round(roda), round(other), round(roda), round(other)])
      await runJobs(roda)
    } finally {
      if (other !== roda) await other.dispose()
    }
    const billings = (await billingsOf(id)).filter((b) => b.reason === "renewal")
    expect(billings).toHaveLength(1)
    expect(billings[0]!.status).toBe("paid")
    expect(log.get(billings[0]!.id)).toBe(1)
    const sales = await query<{ n: number }>(
      roda,
      (sql) => sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE reference = ${billings[0]!.id}`
    )
    expect(sales[0]!.n).toBe(1)
  })

  it("annual plans are reminded 7 days before; a scheduled downgrade applies at the period end", async () => {
    time.set(T0)
    const made = await subscribed(api)
    const annualId = await made.buy(made.annual.id)
    const end = new Date((await row(annualId)).currentPeriodEnd).getTime()
    time.set(end - 7 * DAY - 1000)
    await runJobs(roda)
    expect(await mailsOf(made.member.email, "subscription-renewal-upcoming")).toHaveLength(0)
    time.set(end - 7 * DAY + 1000)
    await runJobs(roda)
    const reminders = await mailsOf(made.member.email, "subscription-renewal-upcoming")
    expect(reminders).toHaveLength(1)
    expect(reminders[0]!.body).toContain("499.00 BRL")

    // Annual to monthly, scheduled for the period end, then renewed at the new price.
    const token = await signIn(api, made.member.email)
    const changed = expectOk(
      await api.post(`/api/subscriptions/${annualId}/change-tier`, { productId: made.monthly.id, when: "period_end" }, {
        token,
        community: made.community.id
      })
    )
    expect(changed.scheduled).toBe(true)
    await toPeriodEnd(annualId)
    const after = expectOk(
      await api.get(`/api/subscriptions/${annualId}`, {
        token: await signIn(api, made.member.email),
        community: made.community.id
      })
    )
    expect(after).toMatchObject({ productId: made.monthly.id, scheduledChange: null, status: "active" })
    expect(new Date(after.currentPeriodEnd).getTime() - new Date(after.currentPeriodStart).getTime()).toBeLessThan(
      32 * DAY
    )
    expect((await billingsOf(annualId)).at(-1)).toMatchObject({ reason: "renewal", status: "paid", amount: 4990 })
  })

  it("pause until resumeAt resumes by itself; a courtesy ends by itself", async () => {
    time.set(T0)
    const made = await subscribed(api)
    const id = made.subscriptionId
    const token = await signIn(api, made.member.email)
    const resumeAt = new Date(T0 + 10 * DAY).toISOString()
    const paused = expectOk(
      await api.post(`/api/subscriptions/${id}/pause`, { resumeAt }, { token, community: made.community.id })
    )
    expect(paused).toMatchObject({ status: "paused", pausedUntil: resumeAt })
    time.set(T0 + 10 * DAY + 1000)
    await runJobs(roda)
    const resumed = await row(id)
    expect(resumed.status).toBe("active")
    // the 28 days that were left when paused, from the resume
    expect(new Date(resumed.currentPeriodEnd).getTime() - new Date(resumed.currentPeriodStart).getTime()).toBe(
      28 * DAY
    )

    time.set(T0)
    const courtesy = expectOk(
      await api.post("/api/manage/subscriptions", {
        profileId: made.member.profileId,
        productId: made.premium.id,
        kind: "courtesy",
        periodEnd: new Date(T0 + 5 * DAY).toISOString()
      }, { token: await signIn(api, made.owner.email), community: made.community.id }),
      201
    )
    time.set(T0 + 5 * DAY + 1000)
    await runJobs(roda)
    expect((await row(courtesy.id)).status).toBe("canceled")
    expect(log.size).toBeGreaterThan(0)
  })

  it("a PIX subscription has no card on file: its renewal goes past due with a pay link; pay-now by card recovers", async () => {
    time.set(T0)
    const made = await subscribed(api)
    const pix = expectOk(
      await api.post("/api/checkout", {
        productId: made.monthly.id,
        subscriptionGroupId: made.plan.id,
        paymentMethod: "PIX"
      }, as(made.member, made.community)),
      201
    )
    expect((await row(pix.subscriptionId)).status).toBe("incomplete")
    expectOk(await api.post(`/api/checkout/sandbox/${pix.chargeId}/pay`, {}, made.scoped))
    expect((await row(pix.subscriptionId)).status).toBe("active")
    const before = (await mailsOf(made.member.email, "subscription-payment-failed")).length
    await toPeriodEnd(pix.subscriptionId)
    expect((await row(pix.subscriptionId)).status).toBe("past_due")
    expect((await billingsOf(pix.subscriptionId)).at(-1)).toMatchObject({ status: "failed", reason: "renewal" })
    expect(await mailsOf(made.member.email, "subscription-payment-failed")).toHaveLength(before + 1)
    const token = await signIn(api, made.member.email)
    const paid = expectOk(
      await api.post(`/api/subscriptions/${pix.subscriptionId}/pay-now`, {
        paymentMethod: "CREDIT_CARD",
        cardToken: "tok_visa"
      }, { token, community: made.community.id })
    )
    expect(paid.subscription).toMatchObject({ status: "active", paymentMethod: "CREDIT_CARD", hasCard: true })
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })

  it("a repeating coupon of the checkout also discounts the renewals it covers, then they are at full price", async () => {
    time.set(T0)
    const made = await subscribed(api)
    expectOk(
      await api.post("/api/coupons", {
        code: `REP${T0}`.slice(0, 12),
        percentOff: 10,
        duration: "repeating",
        durationMonths: 2
      }, made.scoped),
      201
    )
    const other = await made.addMember("member", "Cupom Cliente")
    const sale = expectOk(
      await api.post("/api/checkout", {
        productId: made.monthly.id,
        subscriptionGroupId: made.plan.id,
        paymentMethod: "CREDIT_CARD",
        cardToken: "tok_visa",
        couponCode: `REP${T0}`.slice(0, 12)
      }, as(other, made.community)),
      201
    )
    expect(sale.amount).toBe(4491)
    await toPeriodEnd(sale.subscriptionId)
    await toPeriodEnd(sale.subscriptionId)
    const amounts = (await billingsOf(sale.subscriptionId)).map((b) => b.amount)
    // month 1 (checkout) and month 2 discounted, month 3 at full price
    expect(amounts).toEqual([4491, 4491, 4990])
  })
})

describe("a change of option scheduled for the period end, the option repriced meanwhile", () => {
  interface Terms {
    productId: string
    price: number
    scheduledProductId: string | null
    scheduledPrice: number | null
  }
  const termsOf = async (id: string) =>
    (await query<Terms>(
      roda,
      (sql) =>
        sql`SELECT product_id, price::float8 AS price, scheduled_product_id, scheduled_price::float8 AS scheduled_price
        FROM subscriptions WHERE id = ${id}`
    ))[0]!

  /**
   * A member on Premium (R$ 99,90 a month) schedules Mensal (R$ 49,90) for the period end; the team
   * then raises Mensal to R$ 59,90 (what later buyers pay).
   */
  const downgradeThenReprice = async () => {
    time.set(T0)
    const made = await subscribed(api)
    const id = await made.buy(made.premium.id)
    const scheduled = expectOk(
      await api.post(
        `/api/subscriptions/${id}/change-tier`,
        { productId: made.monthly.id, when: "period_end" },
        as(made.member, made.community)
      )
    )
    expect(scheduled).toMatchObject({ scheduled: true, quote: { direction: "downgrade", when: "period_end" } })
    expect(await termsOf(id)).toEqual({
      productId: made.premium.id,
      price: 9990,
      scheduledProductId: made.monthly.id,
      scheduledPrice: 4990
    })
    const repriced = expectOk(await api.put(`/api/products/${made.monthly.id}`, { price: 5990 }, made.scoped))
    expect(repriced.price).toBe(5990)
    return { made, id }
  }

  it("renews at the price quoted when it was scheduled, not the catalogue's at the period end", async () => {
    const { id, made } = await downgradeThenReprice()
    await toPeriodEnd(id)
    expect(await termsOf(id)).toEqual({
      productId: made.monthly.id,
      price: 4990,
      scheduledProductId: null,
      scheduledPrice: null
    })
    expect((await billingsOf(id)).at(-1)).toMatchObject({ reason: "renewal", status: "paid", amount: 4990 })
    // and so on: the next renewal too
    await toPeriodEnd(id)
    expect((await billingsOf(id)).at(-1)).toMatchObject({ reason: "renewal", status: "paid", amount: 4990 })
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })

  it("a schedule made before the quoted price was kept (none stored) takes the catalogue's price", async () => {
    const { id, made } = await downgradeThenReprice()
    // as an older version left it: the option scheduled, no price with it
    const older = await query(
      roda,
      (sql) => sql`UPDATE subscriptions SET scheduled_price = NULL WHERE id = ${id} RETURNING id`
    )
    expect(older).toHaveLength(1)
    await toPeriodEnd(id)
    expect(await termsOf(id)).toMatchObject({ productId: made.monthly.id, price: 5990, scheduledPrice: null })
    expect((await billingsOf(id)).at(-1)).toMatchObject({ reason: "renewal", status: "paid", amount: 5990 })
  })

  it("the quoted price goes with the schedule: undone, canceled, or scheduled again at today's price", async () => {
    const { id, made } = await downgradeThenReprice()
    const member = as(made.member, made.community)
    expectOk(await api.del(`/api/subscriptions/${id}/scheduled-change`, member))
    expect(await termsOf(id)).toMatchObject({ scheduledProductId: null, scheduledPrice: null })
    // scheduled again after the reprice: agreed at R$ 59,90
    expectOk(
      await api.post(`/api/subscriptions/${id}/change-tier`, { productId: made.monthly.id, when: "period_end" }, member)
    )
    expect(await termsOf(id)).toMatchObject({ scheduledProductId: made.monthly.id, scheduledPrice: 5990 })
    // a cancel at the period end drops the schedule, its price too
    expectOk(await api.post(`/api/subscriptions/${id}/cancel`, undefined, member))
    expect(await termsOf(id)).toMatchObject({ price: 9990, scheduledProductId: null, scheduledPrice: null })
  })
})
