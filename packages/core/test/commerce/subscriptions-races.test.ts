import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { POSTGRES_ONLY, skipWhen } from "../../../../testing/skips"
import { PaymentGateway, type Roda, sandboxGateway, secret } from "../../node/index"
import { rodaWith } from "../stripe/support/gateways"
import { as } from "../support/community"
import { expectCreated, expectError, expectOk } from "../support/envelope"
import { type Client, client, SANDBOX_WEBHOOK_SECRET } from "../support/harness"
import { activePlanOption } from "../support/selling"
import { query } from "../support/sql"
import {
  type Billing,
  billingsOf,
  ledgerOf,
  pixCheckout,
  planAccessUntil,
  refundsOf,
  runJobs,
  subscribed,
  unbalanced
} from "./subscriptions-support"

/**
 * Subscriptions under concurrency: changes of option fired at once on one subscription, a change
 * racing a cancel, and a first charge whose answer comes after the subscription moved on. The
 * gateway counts the charges it is asked for, and can hold one at the gateway until the test lets
 * it go (what a slow card network does), so the interleaving is the one under test.
 */
const asked = new Map<string, number>()
let hold: { readonly reached: () => void; readonly released: Promise<void> } | undefined
/** The next charge asked of the gateway waits there: `reached` resolves when it does, `release` lets it on. */
const holdNextCharge = () => {
  let reached!: () => void
  let release!: () => void
  const atGateway = new Promise<void>((resolve) => (reached = resolve))
  hold = { reached, released: new Promise<void>((resolve) => (release = resolve)) }
  return { atGateway, release }
}
/** Slows every charge a little, so requests fired together overlap while one is at the gateway. */
let delayMs = 0
/** The next charge is taken by the gateway, then the process stops before its answer is applied. */
let stopAfterNextCharge = false

const gateway = Layer.effect(
  PaymentGateway,
  Effect.map(PaymentGateway, (inner) => ({
    ...inner,
    createCharge: (request: Parameters<typeof inner.createCharge>[0]) =>
      Effect.suspend(() => {
        asked.set(request.chargeId, (asked.get(request.chargeId) ?? 0) + 1)
        const held = hold
        hold = undefined
        const stop = stopAfterNextCharge
        stopAfterNextCharge = false
        const wait = held === undefined
          ? Effect.sleep(`${delayMs} millis`)
          : Effect.promise(() => {
            held.reached()
            return held.released
          })
        const charged = Effect.zipRight(wait, inner.createCharge(request))
        return stop
          ? Effect.zipRight(charged, Effect.dieMessage("process stopped after the gateway call"))
          : charged
      })
  }))
).pipe(Layer.provide(sandboxGateway({ webhookSecret: secret(SANDBOX_WEBHOOK_SECRET) })))

let roda: Roda
let api: Client

beforeAll(() => {
  roda = rodaWith(gateway)
  api = client(roda)
})
afterAll(() => roda.dispose())

type Made = Awaited<ReturnType<typeof subscribed>>

const subscriptionOf = async (id: string) =>
  (await query<{ status: string; productId: string; price: number; cancelAtPeriodEnd: boolean }>(
    roda,
    (sql) =>
      sql`SELECT status, product_id, price::float8 AS price, cancel_at_period_end FROM subscriptions WHERE id = ${id}`
  ))[0]!

/** Whether the member can use the product now (an entitlement to it valid beyond now). */
const hasProduct = async (profileId: string, productId: string) => {
  const rows = await query<{ validUntil: Date | null }>(
    roda,
    (sql) =>
      sql`SELECT valid_until FROM entitlements WHERE profile_id = ${profileId} AND source_type = 'product'
      AND source_id = ${productId}`
  )
  return rows.some((row) => row.validUntil === null || new Date(row.validUntil).getTime() > Date.now())
}

/** The refund jobs (and whatever else is due) run until none is left. */
const settleJobs = () => runJobs(roda)

const changeTier = (made: Made, productId: string) =>
  api.post(`/api/subscriptions/${made.subscriptionId}/change-tier`, { productId }, as(made.member, made.community))

/**
 * The money taken for a move that did not happen, given back once: the billing refunded in full,
 * asked of the gateway once, and the subscription's one refund row (succeeded, the whole amount).
 */
const expectGivenBackOnce = async (made: Made, billing: Billing | undefined) => {
  expect(billing).toMatchObject({ status: "refunded", refundedAmount: billing!.amount })
  expect(asked.get(billing!.id)).toBe(1)
  expect(await refundsOf(roda, made.subscriptionId)).toEqual([
    { billingId: billing!.id, status: "succeeded", amount: billing!.amount, reason: expect.any(String) }
  ])
}

/** `subscribed`, with a fourth billing option dearer than Premium: Ultra (R$ 199,90 a month). */
const withUltra = async () => {
  const made = await subscribed(api)
  const ultra = await activePlanOption(api, made.owner, made.community, { title: "Ultra", price: 19990 })
  const plan = expectOk(
    await api.put(`/api/subscription-groups/${made.plan.id}`, {
      name: "Plano Pro",
      productIds: [made.monthly.id, made.premium.id, made.annual.id, ultra.id],
      addOnProductIds: [made.addOn.id]
    }, made.scoped)
  )
  expect(plan.id).toBe(made.plan.id)
  return { ...made, ultra }
}

describe("changes of option fired at once on one subscription", () => {
  it("each change applied is charged once; the others are refused; one option and a balanced ledger", async () => {
    const made = await withUltra()
    const wave = [made.premium.id, made.ultra.id, made.premium.id, made.ultra.id, made.premium.id, made.ultra.id]
    delayMs = 40
    // two waves: the second comes once the first is over (a change after another, serialised)
    const replies = [
      ...await Promise.all(wave.map((target) => changeTier(made, target))),
      ...await Promise.all(wave.map((target) => changeTier(made, target)))
    ]
    const targets = [...wave, ...wave]
    delayMs = 0
    const answered = replies.flatMap((reply, i) => (reply.status === 200 ? [{ reply, target: targets[i]! }] : []))
    // applied now (an upgrade, charged), or scheduled (Premium once on Ultra is a downgrade: period end)
    const won = answered.filter((w) => w.reply.body.data.scheduled === false)
    const scheduled = answered.filter((w) => w.reply.body.data.scheduled === true)
    // the others: 409 (a charge of the subscription is at the gateway) or 400 (already that option)
    for (const reply of replies.filter((r) => r.status !== 200)) {
      expect([409, 400]).toContain(reply.status)
      expect(reply.body.errors[0].param).toBe(reply.status === 409 ? "status" : "productId")
    }
    expect(won.length).toBeGreaterThanOrEqual(1)
    // serialised: at most one change per option moved to (Premium then Ultra; Ultra)
    expect(won.length).toBeLessThanOrEqual(2)
    expect(new Set(won.map((w) => w.target)).size).toBe(won.length)
    expect(scheduled.every((w) => w.target === made.premium.id)).toBe(true)
    await settleJobs()

    const prorations = (await billingsOf(roda, made.subscriptionId)).filter((b) => b.reason === "proration")
    // one billing per change applied, paid, each asked of the gateway once, none refunded
    expect(prorations).toHaveLength(won.length)
    for (const billing of prorations) {
      expect(billing).toMatchObject({ status: "paid", refundedAmount: 0 })
      expect(asked.get(billing.id)).toBe(1)
      expect(await ledgerOf(roda, billing.id)).toEqual(["sale"])
    }
    expect(await refundsOf(roda, made.subscriptionId)).toEqual([])
    // the answers' amounts are what was charged
    const amounts = (list: ReadonlyArray<number>) => [...list].sort((a, b) => a - b)
    expect(amounts(won.map((w) => w.reply.body.data.quote.amount))).toEqual(amounts(prorations.map((b) => b.amount)))
    if (won.length === 2) {
      // Premium, then Ultra priced from Premium (not from Mensal): R$ 100,00 for nearly a whole month
      expect(won.map((w) => w.target)).toEqual([made.premium.id, made.ultra.id])
      expect(won[1]!.reply.body.data.quote.amount).toBeGreaterThan(9900)
      expect(won[1]!.reply.body.data.quote.amount).toBeLessThanOrEqual(10000)
    }
    // Ultra once a change to it was applied (nothing moves up from it), else Premium; access to it alone
    const option = won.some((w) => w.target === made.ultra.id) ? made.ultra : made.premium
    const [row] = await query<{ productId: string; price: number; scheduledProductId: string | null }>(
      roda,
      (sql) =>
        sql`SELECT product_id, price::float8 AS price, scheduled_product_id FROM subscriptions
        WHERE id = ${made.subscriptionId}`
    )
    expect(row).toEqual({
      productId: option.id,
      price: option.id === made.ultra.id ? 19990 : 9990,
      scheduledProductId: scheduled.length > 0 ? made.premium.id : null
    })
    expect((await subscriptionOf(made.subscriptionId)).status).toBe("active")
    for (const product of [made.monthly.id, made.premium.id, made.ultra.id]) {
      expect(await hasProduct(made.member.profileId, product)).toBe(product === option.id)
    }
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })

  it.each([
    {
      who: "the member cancels (at period end)",
      cancel: (made: Made) =>
        api.post(`/api/subscriptions/${made.subscriptionId}/cancel`, undefined, as(made.member, made.community)),
      after: { status: "active", cancelAtPeriodEnd: true },
      message: "Não é possível change_tier uma assinatura em active_canceling. " +
        "Movimentos permitidos: reactivate, cancel_now, remove_add_on, extend, discount, period_end."
    },
    {
      who: "the team cancels now",
      cancel: (made: Made) =>
        api.post(`/api/manage/subscriptions/${made.subscriptionId}/cancel`, { when: "now" }, made.scoped),
      after: { status: "canceled", cancelAtPeriodEnd: false },
      message: "Não é possível change_tier uma assinatura em canceled. Movimentos permitidos: nenhum."
    }
  ])("a change at the gateway while $who: the cancel stands, the change answers 409 and is refunded in full", async ({
    after,
    cancel,
    message
  }) => {
    const made = await subscribed(api)
    const held = holdNextCharge()
    const change = changeTier(made, made.premium.id)
    await held.atGateway
    // the proration billing is `charging`; the subscription is canceled meanwhile
    expectOk(await cancel(made))
    const canceled = await subscriptionOf(made.subscriptionId)
    held.release()
    // the money was taken, but the change did not happen: the client is told so, as a refused move
    const refused = expectError(await change, 409, message)
    expect(refused.errors[0].param).toBe("status")
    await settleJobs()

    const [proration, ...others] = (await billingsOf(roda, made.subscriptionId)).filter((b) => b.reason === "proration")
    expect(others).toEqual([])
    await expectGivenBackOnce(made, proration)
    expect(await ledgerOf(roda, proration!.id)).toEqual(["refund", "sale"])
    // as the cancel left it
    expect(await subscriptionOf(made.subscriptionId)).toEqual(canceled)
    expect(canceled).toMatchObject({ ...after, productId: made.monthly.id, price: 4990 })
    expect(await hasProduct(made.member.profileId, made.premium.id)).toBe(false)
    expect(await hasProduct(made.member.profileId, made.monthly.id)).toBe(after.status === "active")
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })

  it("an add-on at the gateway while the team cancels now: the cancel stands, the add-on answers 409 and is refunded", async () => {
    const made = await subscribed(api)
    const held = holdNextCharge()
    const adding = api.post(
      `/api/subscriptions/${made.subscriptionId}/add-ons`,
      { productId: made.addOn.id },
      as(made.member, made.community)
    )
    await held.atGateway
    expectOk(await api.post(`/api/manage/subscriptions/${made.subscriptionId}/cancel`, { when: "now" }, made.scoped))
    held.release()
    const refused = expectError(
      await adding,
      409,
      "Não é possível add_on uma assinatura em canceled. Movimentos permitidos: nenhum."
    )
    expect(refused.errors[0].param).toBe("status")
    await settleJobs()

    const [charged, ...others] = (await billingsOf(roda, made.subscriptionId)).filter((b) => b.reason === "add_on")
    expect(others).toEqual([])
    await expectGivenBackOnce(made, charged)
    expect((await subscriptionOf(made.subscriptionId)).status).toBe("canceled")
    expect(await hasProduct(made.member.profileId, made.addOn.id)).toBe(false)
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })

  it("a downgrade scheduled while an upgrade is at the gateway: the downgrade stands, the upgrade answers 409 and is refunded", async () => {
    const made = await withUltra()
    expectOk(await changeTier(made, made.premium.id))
    const held = holdNextCharge()
    const upgrade = changeTier(made, made.ultra.id)
    await held.atGateway
    // the member changes their mind meanwhile: back to Mensal at the period end
    const scheduled = expectOk(
      await api.post(
        `/api/subscriptions/${made.subscriptionId}/change-tier`,
        { productId: made.monthly.id, when: "period_end" },
        as(made.member, made.community)
      )
    )
    expect(scheduled.scheduled).toBe(true)
    held.release()
    const refused = expectError(
      await upgrade,
      409,
      "A assinatura mudou enquanto a cobrança estava em andamento; nada foi alterado e o valor cobrado será estornado."
    )
    expect(refused.errors[0].param).toBe("status")
    await settleJobs()

    // the later choice is kept: still Premium, Mensal scheduled for the period end
    const [row] = await query<{ productId: string; price: number; scheduledProductId: string | null }>(
      roda,
      (sql) =>
        sql`SELECT product_id, price::float8 AS price, scheduled_product_id FROM subscriptions
        WHERE id = ${made.subscriptionId}`
    )
    expect(row).toEqual({ productId: made.premium.id, price: 9990, scheduledProductId: made.monthly.id })
    expect(
      expectOk(
        await api.get(`/api/subscriptions/${made.subscriptionId}/scheduled-change`, as(made.member, made.community))
      )
    ).toMatchObject({ productId: made.monthly.id })
    expect(await hasProduct(made.member.profileId, made.ultra.id)).toBe(false)
    expect(await hasProduct(made.member.profileId, made.premium.id)).toBe(true)
    // the upgrade's money given back in full, once; the first upgrade's kept
    const prorations = (await billingsOf(roda, made.subscriptionId)).filter((b) => b.reason === "proration")
    expect(prorations).toHaveLength(2)
    const [kept, givenBack] = prorations
    expect(kept).toMatchObject({ status: "paid", refundedAmount: 0 })
    await expectGivenBackOnce(made, givenBack)
    expect(await ledgerOf(roda, givenBack!.id)).toEqual(["refund", "sale"])
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })

  it("a change and a cancel fired together: either order, the state and the money agree", async () => {
    for (let round = 0; round < 3; round++) {
      const made = await subscribed(api)
      delayMs = 20
      const [change, cancel] = await Promise.all([
        changeTier(made, made.premium.id),
        api.post(`/api/subscriptions/${made.subscriptionId}/cancel`, undefined, as(made.member, made.community))
      ])
      delayMs = 0
      expect(cancel.status).toBe(200)
      expect([200, 409]).toContain(change.status)
      await settleJobs()
      const now = await subscriptionOf(made.subscriptionId)
      expect(now).toMatchObject({ status: "active", cancelAtPeriodEnd: true })
      const prorations = (await billingsOf(roda, made.subscriptionId)).filter((b) => b.reason === "proration")
      expect(prorations.length).toBeLessThanOrEqual(1)
      const refunds = await refundsOf(roda, made.subscriptionId)
      if (now.productId === made.premium.id) {
        // changed before the cancel: paid and kept
        expect(prorations).toMatchObject([{ status: "paid", refundedAmount: 0 }])
        expect(refunds).toEqual([])
      } else {
        expect(now.productId).toBe(made.monthly.id)
        // any money taken for the change is given back
        for (const billing of prorations.filter((b) => b.status !== "failed")) {
          expect(billing).toMatchObject({ status: "refunded", refundedAmount: billing.amount })
        }
        expect(refunds.every((refund) => refund.status === "succeeded")).toBe(true)
      }
      for (const billing of prorations) expect(asked.get(billing.id) ?? 0).toBeLessThanOrEqual(1)
      expect(await unbalanced(roda, made.community.id)).toEqual([])
    }
  })
})

describe("a first charge paid after the subscription moved on is refunded", () => {
  /** A manual `charge` subscription (incomplete until its first charge) of another member. */
  const manualCharge = async (made: Made) => {
    const other = await made.addMember("member", "Fábia Primeira")
    const created = expectCreated(
      await api.post("/api/manage/subscriptions", {
        profileId: other.profileId,
        productId: made.monthly.id,
        kind: "charge"
      }, made.scoped)
    )
    return { other, id: created.id as string }
  }

  it.each(["canceled by the team", "expired"] as const)(
    "pay-now of the first charge answered after the subscription was %s: 409, refunded",
    async (how) => {
      const made = await subscribed(api)
      const { id, other } = await manualCharge(made)
      const held = holdNextCharge()
      const paying = api.post(
        `/api/subscriptions/${id}/pay-now`,
        { paymentMethod: "CREDIT_CARD", cardToken: "tok_visa" },
        as(other, made.community)
      )
      await held.atGateway
      if (how === "canceled by the team") {
        expectOk(await api.post(`/api/manage/subscriptions/${id}/cancel`, { when: "now" }, made.scoped))
      } else {
        // the first-charge job sends the link and schedules the expiry; made due now
        await runJobs(roda)
        const moved = await query(roda, (sql) =>
          sql`UPDATE jobs SET run_at = now() - interval '1 second'
            WHERE kind = 'subscriptions.expire-incomplete' AND key = ${id} RETURNING id`)
        expect(moved).toHaveLength(1)
        await runJobs(roda)
      }
      const moved = how === "expired" ? "incomplete_expired" : "canceled"
      expect((await subscriptionOf(id)).status).toBe(moved)
      held.release()
      // the money was taken, but nothing was paid for: the client is told so, as a refused move
      const refused = expectError(await paying, 409)
      expect(refused.message).toMatch(new RegExp(`^Não é possível pay_now uma assinatura em ${moved}\\.`))
      expect(refused.errors[0].param).toBe("status")
      await settleJobs()

      const billings = await billingsOf(roda, id)
      expect(billings).toHaveLength(1)
      const [first] = billings
      expect(first).toMatchObject({ reason: "initial", status: "refunded", refundedAmount: 4990, amount: 4990 })
      expect(asked.get(first!.id)).toBe(1)
      expect(await refundsOf(roda, id)).toEqual([
        { billingId: first!.id, status: "succeeded", amount: 4990, reason: "paid after the subscription moved on" }
      ])
      expect(await ledgerOf(roda, first!.id)).toEqual(["refund", "sale"])
      // not revived, no access
      expect((await subscriptionOf(id)).status).toBe(moved)
      const until = await planAccessUntil(roda, other.profileId, made.plan.id)
      expect(until === null || until.getTime() <= Date.now()).toBe(true)
      expect(await unbalanced(roda, made.community.id)).toEqual([])
    }
  )

  it("a checkout's PIX paid after its incomplete subscription was canceled: refunded, not revived", async () => {
    const { id, made, member, option, pix, plan } = await pixCheckout(api, "Pietra Pix")
    expect((await subscriptionOf(id)).status).toBe("incomplete")
    // the member gives up before paying: the incomplete subscription ends now
    expectOk(await api.post(`/api/subscriptions/${id}/cancel`, undefined, as(member, made.community)))
    expect((await subscriptionOf(id)).status).toBe("canceled")
    // the bank pays the PIX anyway
    expectOk(await api.post(`/api/checkout/sandbox/${pix.chargeId}/pay`, {}, made.scoped))
    await settleJobs()

    expect((await subscriptionOf(id)).status).toBe("canceled")
    const until = await planAccessUntil(roda, member.profileId, plan.id)
    expect(until === null || until.getTime() <= Date.now()).toBe(true)
    expect(await hasProduct(member.profileId, option.id)).toBe(false)
    // the money is given back in full, once, and the ledger shows the payment and its refund
    const refunds = await refundsOf(roda, id)
    expect(refunds).toEqual([
      {
        billingId: pix.chargeId,
        status: "succeeded",
        amount: pix.total,
        reason: "paid after the subscription moved on"
      }
    ])
    expect(await ledgerOf(roda, pix.chargeId)).toEqual(["refund", "sale"])
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })
})

describe("a price changed in the catalogue while a change is at the gateway", () => {
  /** The team reprices a product (what later buyers pay); subscriptions already sold keep theirs. */
  const reprice = async (made: Made, productId: string, price: number) =>
    expect(expectOk(await api.put(`/api/products/${productId}`, { price }, made.scoped)).price).toBe(price)

  const addOnsOf = (subscriptionId: string) =>
    query<{ productId: string; price: number }>(
      roda,
      (sql) =>
        sql`SELECT product_id, price::float8 AS price FROM subscription_add_ons
        WHERE subscription_id = ${subscriptionId} AND removed_at IS NULL`
    )

  /** The reconciliation job of a billing's first attempt, made due now. */
  const reconcileNow = async (billingId: string) => {
    const moved = await query(roda, (sql) =>
      sql`UPDATE jobs SET run_at = now() - interval '1 second'
        WHERE kind = 'subscriptions.charge-reconcile' AND key = ${`${billingId}:1`} AND status = 'queued'
        RETURNING id`)
    expect(moved).toHaveLength(1)
  }

  it("an upgrade answered after Premium was repriced: the member keeps the price quoted and charged", async () => {
    const made = await subscribed(api)
    const held = holdNextCharge()
    const change = changeTier(made, made.premium.id)
    await held.atGateway
    // the quote (R$ 99,90 a month) is being charged; the team raises Premium to R$ 129,90 meanwhile
    await reprice(made, made.premium.id, 12990)
    held.release()
    const answer = expectOk(await change)
    expect(answer.scheduled).toBe(false)
    expect(answer.subscription).toMatchObject({ productId: made.premium.id, price: 9990 })
    await settleJobs()

    const [proration, ...others] = (await billingsOf(roda, made.subscriptionId)).filter((b) => b.reason === "proration")
    expect(others).toEqual([])
    expect(proration).toMatchObject({ status: "paid", refundedAmount: 0, amount: answer.quote.amount })
    // the renewals are charged the price the member agreed to, not the one set after
    expect(await subscriptionOf(made.subscriptionId)).toMatchObject({
      status: "active",
      productId: made.premium.id,
      price: 9990
    })
    expect(await hasProduct(made.member.profileId, made.premium.id)).toBe(true)
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })

  it("an add-on answered after it was repriced: the add-on keeps the monthly price quoted and charged", async () => {
    const made = await subscribed(api)
    const held = holdNextCharge()
    const adding = api.post(
      `/api/subscriptions/${made.subscriptionId}/add-ons`,
      { productId: made.addOn.id },
      as(made.member, made.community)
    )
    await held.atGateway
    await reprice(made, made.addOn.id, 1500)
    held.release()
    const answer = expectOk(await adding)
    expect(answer.quote).toMatchObject({ productId: made.addOn.id, monthlyPrice: 1000 })
    await settleJobs()

    const [charged, ...others] = (await billingsOf(roda, made.subscriptionId)).filter((b) => b.reason === "add_on")
    expect(others).toEqual([])
    expect(charged).toMatchObject({ status: "paid", refundedAmount: 0, amount: answer.quote.amount })
    expect(await addOnsOf(made.subscriptionId)).toEqual([{ productId: made.addOn.id, price: 1000 }])
    expect(await hasProduct(made.member.profileId, made.addOn.id)).toBe(true)
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })

  /**
   * The gateway takes the upgrade, the process stops before its answer is applied, Premium is
   * repriced, and the reconciliation job applies the payment later (from its queued payload).
   */
  const upgradeLeftToReconcile = async () => {
    const made = await subscribed(api)
    stopAfterNextCharge = true
    const change = await changeTier(made, made.premium.id)
    expect(change.status).toBe(500)
    const [proration] = (await billingsOf(roda, made.subscriptionId)).filter((b) => b.reason === "proration")
    expect(proration).toMatchObject({ status: "charging" })
    expect(asked.get(proration!.id)).toBe(1)
    await reprice(made, made.premium.id, 12990)
    return { made, proration: proration! }
  }

  it("an upgrade applied by the reconciliation after Premium was repriced: the price quoted and charged", async () => {
    const { made, proration } = await upgradeLeftToReconcile()
    await reconcileNow(proration.id)
    await settleJobs()

    expect((await billingsOf(roda, made.subscriptionId)).find((b) => b.id === proration.id)).toMatchObject({
      status: "paid",
      refundedAmount: 0
    })
    expect(asked.get(proration.id)).toBe(1)
    expect(await subscriptionOf(made.subscriptionId)).toMatchObject({
      status: "active",
      productId: made.premium.id,
      price: 9990
    })
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })

  it("an upgrade queued for reconciliation before the price was carried in it: today's catalogue price", async () => {
    const { made, proration } = await upgradeLeftToReconcile()
    // a reconciliation queued by an older version: its payload names the option, not the price
    const older = await query(roda, (sql) =>
      sql`UPDATE jobs SET payload = payload #- '{purpose,price}'
        WHERE kind = 'subscriptions.charge-reconcile' AND key = ${`${proration.id}:1`} RETURNING id`)
    expect(older).toHaveLength(1)
    await reconcileNow(proration.id)
    await settleJobs()

    expect((await billingsOf(roda, made.subscriptionId)).find((b) => b.id === proration.id)).toMatchObject({
      status: "paid",
      refundedAmount: 0
    })
    expect(await subscriptionOf(made.subscriptionId)).toMatchObject({
      status: "active",
      productId: made.premium.id,
      price: 12990
    })
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })
})

/**
 * A request that waits for the subscription's row lock while another transaction changes its option
 * must find the subscription as it stands after the wait. PostgreSQL only: PGlite runs one
 * transaction at a time, so nothing ever waits for a row lock there.
 */
skipWhen(POSTGRES_ONLY).describe("a change waiting for the subscription's lock", () => {
  /**
   * Statements locking subscriptions that wait for a lock right now, in this database (a row lock's
   * wait is on a transaction id, which names no database: the waiting backend does). Other work on the
   * server (a job runner, another database's tests) may wait for locks too, hence the statement's text.
   */
  const waitingForLocks = async () =>
    (await query<{ waiting: number }>(
      roda,
      (sql) =>
        sql`SELECT count(*)::int AS waiting FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE NOT l.granted AND a.datname = current_database() AND a.query ILIKE '%subscriptions%FOR UPDATE%'`
    ))[0]!.waiting

  it("finds the subscription moved to another option meanwhile (not a 404) and plans from the option it has now", async () => {
    const made = await withUltra()
    let commit!: () => void
    const committing = new Promise<void>((resolve) => (commit = resolve))
    let holding!: () => void
    const held = new Promise<void>((resolve) => (holding = resolve))
    // another transaction moves the subscription to Ultra and holds its row until `commit`
    const moved = roda.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql.withTransaction(
        sql`UPDATE subscriptions SET product_id = ${made.ultra.id}, price = 19990 WHERE id = ${made.subscriptionId}`
          .pipe(Effect.zipRight(Effect.sync(holding)), Effect.zipRight(Effect.promise(() => committing)))
      )))
    await held
    expect((await subscriptionOf(made.subscriptionId)).productId).toBe(made.monthly.id)
    const reply = changeTier(made, made.premium.id)
    await expect.poll(waitingForLocks, { timeout: 5000 }).toBeGreaterThan(0)
    commit()
    await moved
    // Premium from Ultra is a move down: scheduled for the period's end, nothing charged
    const answer = expectOk(await reply)
    expect(answer).toMatchObject({ scheduled: true, subscription: { productId: made.ultra.id } })
    expect((await subscriptionOf(made.subscriptionId)).productId).toBe(made.ultra.id)
  })
})
