import { Effect, Layer } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { testPlatform } from "../../../../testing/passwords"
import {
  defaultOptions,
  makeRoda,
  PaymentGateway,
  RATE_LIMITS_OFF,
  sandboxGateway,
  secret,
  signSandboxWebhook
} from "../../node/index"
import { Checkout } from "../../src/commerce/checkout/Checkout"
import { SubscriptionsRepo } from "../../src/commerce/subscriptions/Repo"
import { Jobs } from "../../src/platform/Jobs"
import { buyer, shop } from "../commerce/checkout-support"
import {
  controlledClock,
  DAY,
  planAccessUntil,
  signIn,
  subscribed,
  unbalanced
} from "../commerce/subscriptions-support"
import { as } from "../support/community"
import { expectError, expectOk } from "../support/envelope"
import { client, PLATFORM_ADMIN, SANDBOX_WEBHOOK_SECRET, testDatabase } from "../support/harness"
import { query } from "../support/sql"
import { startFakeStripe, stripeEvent } from "./support/fakeStripe"
import { postStripeEvent, stripeLayer } from "./support/gateways"

/**
 * Subscription charges in three phases (issue 17): a process that stops between marking a billing
 * `charging` and applying the gateway's answer (`after` the gateway charged, or `before` it was
 * reached) leaves the billing to the reconciliation job, which asks the gateway and applies its
 * state once, however many times it runs.
 */
const crash = { at: "none" as "none" | "before" | "after" }
const charged = new Map<string, number>()
const refundsAsked = new Map<string, number>()
const crashing = <E, R>(inner: Layer.Layer<PaymentGateway, E, R>) =>
  Layer.effect(
    PaymentGateway,
    Effect.map(PaymentGateway, (gateway) => ({
      ...gateway,
      createCharge: (request: Parameters<typeof gateway.createCharge>[0]) =>
        Effect.suspend(() => {
          if (crash.at === "before") return Effect.dieMessage("process stopped before the gateway call")
          charged.set(request.chargeId, (charged.get(request.chargeId) ?? 0) + 1)
          return crash.at === "after"
            ? Effect.zipRight(
              gateway.createCharge(request),
              Effect.dieMessage("process stopped after the gateway call")
            )
            : gateway.createCharge(request)
        }),
      refund: (request: Parameters<NonNullable<typeof gateway.refund>>[0]) =>
        Effect.suspend(() => {
          refundsAsked.set(request.refundId!, (refundsAsked.get(request.refundId!) ?? 0) + 1)
          return crash.at === "after"
            ? Effect.zipRight(gateway.refund!(request), Effect.dieMessage("process stopped after the refund call"))
            : gateway.refund!(request)
        })
    }))
  ).pipe(Layer.provide(inner))

const fake = await startFakeStripe()
const time = controlledClock(Date.now())
const timedRoda = (gateway: Layer.Layer<PaymentGateway, never, any>) =>
  makeRoda({
    database: testDatabase(),
    platform: testPlatform,
    clock: time.clock,
    paymentGateway: gateway,
    options: defaultOptions({
      jwtSecret: secret("test-secret-that-is-long-enough-for-hs256"),
      publicBaseUrl: "http://roda.test",
      platformAdminEmails: [PLATFORM_ADMIN],
      sandboxWebhookSecret: secret(SANDBOX_WEBHOOK_SECRET),
      runJobs: false,
      rateLimits: RATE_LIMITS_OFF
    })
  })
const gateways = [
  { name: "sandbox", roda: timedRoda(crashing(sandboxGateway({ webhookSecret: secret(SANDBOX_WEBHOOK_SECRET) }))) },
  { name: "stripe", roda: timedRoda(crashing(stripeLayer(fake))) }
]
afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.roda.dispose()))
  await fake.close()
})

describe.each(gateways)("subscription charges outside any transaction ($name)", ({ name, roda }) => {
  const api = client(roda)
  /** Runs the due jobs (of `kinds`) until none is left; how many ran. */
  const runJobs = async (kinds?: ReadonlyArray<string>) => {
    let total = 0
    for (let round = 0; round < 50; round++) {
      const ran = await roda.runtime.runPromise(
        Effect.flatMap(Jobs, (jobs) => jobs.runDue({ limit: 100, ...(kinds === undefined ? {} : { kinds }) }))
      )
      total += ran
      if (ran === 0) break
    }
    return total
  }
  const renewalOf = async (subscriptionId: string) =>
    (await query<{ id: string; status: string; attempts: number }>(
      roda,
      (sql) =>
        sql`SELECT id, status, attempts FROM subscription_billings
        WHERE subscription_id = ${subscriptionId} AND reason = 'renewal' ORDER BY created_at DESC LIMIT 1`
    ))[0]!
  const statusOf = async (id: string) =>
    (await query<{ status: string }>(roda, (sql) => sql`SELECT status FROM subscriptions WHERE id = ${id}`))[0]!
      .status
  /**
   * The attempt's reconciliation job made due now, with a twin (the same payload, as a retry on
   * another worker would run it), both run at once by two workers.
   */
  const reconcileTwice = async (billingId: string) => {
    const moved = await query(roda, (sql) =>
      sql`UPDATE jobs SET run_at = ${new Date(time.now() - 1000)}
        WHERE kind = 'subscriptions.charge-reconcile' AND key = ${`${billingId}:1`} AND status = 'queued' RETURNING id`)
    expect(moved).toHaveLength(1)
    await query(roda, (sql) =>
      sql`INSERT INTO jobs (id, kind, key, payload, run_at, max_attempts)
        SELECT ${crypto.randomUUID()}, kind, NULL, payload, run_at, max_attempts FROM jobs
        WHERE kind = 'subscriptions.charge-reconcile' AND key = ${`${billingId}:1`} RETURNING id`)
    const kinds = ["subscriptions.charge-reconcile"]
    // (other tests' due jobs of the kind, in this file's database, may run too)
    const ran = await Promise.all([runJobs(kinds), runJobs(kinds)])
    expect(ran[0] + ran[1]).toBeGreaterThanOrEqual(2)
  }
  const salesOf = (billingId: string) =>
    query(roda, (sql) => sql`SELECT id FROM ledger_transactions WHERE reference = ${billingId} AND kind = 'sale'`)

  it("a renewal the gateway took before the process stopped is settled by the reconciliation, once", async () => {
    const made = await subscribed(api)
    time.advance(32 * DAY)
    crash.at = "after"
    await runJobs(["subscriptions.period-end"])
    crash.at = "none"
    const left = await renewalOf(made.subscriptionId)
    // phase a was committed: the billing is at the gateway, the subscription not renewed yet
    expect(left).toMatchObject({ status: "charging", attempts: 1 })
    expect(charged.get(left.id)).toBe(1)
    expect(await statusOf(made.subscriptionId)).toBe("active")
    // the period-end job retried meanwhile does not charge a billing at the gateway again
    time.advance(60_000)
    await runJobs(["subscriptions.period-end"])
    expect(charged.get(left.id)).toBe(1)
    // two reconciliations at once (the job and its retry on another worker): one period, one sale
    await reconcileTwice(left.id)
    expect(charged.get(left.id)).toBe(1)
    expect(await renewalOf(made.subscriptionId)).toMatchObject({ status: "paid", attempts: 1 })
    expect(await statusOf(made.subscriptionId)).toBe("active")
    expect(await salesOf(left.id)).toHaveLength(1)
    const until = await planAccessUntil(roda, made.member.profileId, made.plan.id)
    expect(until!.getTime()).toBeGreaterThan(time.now() + 25 * DAY)
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })

  it("a renewal that never reached the gateway fails on reconciliation: past due, retries scheduled", async () => {
    const made = await subscribed(api, "Nara Nunca")
    time.advance(32 * DAY)
    crash.at = "before"
    await runJobs(["subscriptions.period-end"])
    crash.at = "none"
    const left = await renewalOf(made.subscriptionId)
    expect(left.status).toBe("charging")
    await reconcileTwice(left.id)
    expect(await renewalOf(made.subscriptionId)).toMatchObject({ status: "failed", attempts: 1 })
    expect(await statusOf(made.subscriptionId)).toBe("past_due")
    expect(await salesOf(left.id)).toHaveLength(0)
    // the day-1 retry charges it (attempt 2), as without a crash
    time.advance(DAY + 60_000)
    await runJobs(["subscriptions.retry"])
    expect(await renewalOf(made.subscriptionId)).toMatchObject({ status: "paid", attempts: 2 })
    expect(await statusOf(made.subscriptionId)).toBe("active")
  })

  it("a team cancel with refund whose gateway answer was lost is finished by the refund job, once", async () => {
    const made = await subscribed(api, "Tina Tarde")
    const owner = await signIn(api, made.owner.email)
    crash.at = "after"
    const reply = await api.post(
      `/api/manage/subscriptions/${made.subscriptionId}/cancel`,
      { when: "now", refund: "full" },
      as({ token: owner }, made.community)
    )
    crash.at = "none"
    expect(reply.status).toBe(500)
    // the refund was reserved and asked, the answer lost: nothing posted, the subscription not ended yet
    const pending = await query<{ id: string; status: string }>(
      roda,
      (sql) => sql`SELECT id, status FROM subscription_refunds WHERE subscription_id = ${made.subscriptionId}`
    )
    expect(pending).toMatchObject([{ status: "pending" }])
    expect(await statusOf(made.subscriptionId)).toBe("active")
    time.advance(11 * 60_000)
    await runJobs(["subscriptions.refund"])
    const [done] = await query<{ status: string }>(
      roda,
      (sql) => sql`SELECT status FROM subscription_refunds WHERE id = ${pending[0]!.id}`
    )
    expect(done!.status).toBe("succeeded")
    // asked twice (the request and the job), with one idempotency key: refunded once at the gateway
    expect(refundsAsked.get(pending[0]!.id)).toBe(2)
    if (name === "stripe") {
      expect(fake.refunds.filter((r) => r.metadata.roda_refund_id === pending[0]!.id)).toHaveLength(1)
    }
    expect(await statusOf(made.subscriptionId)).toBe("canceled")
    expect((await planAccessUntil(roda, made.member.profileId, made.plan.id))!.getTime()).toBeLessThanOrEqual(
      time.now()
    )
    const [first] = await query<{ firstChargeId: string }>(
      roda,
      (sql) => sql`SELECT first_charge_id FROM subscriptions WHERE id = ${made.subscriptionId}`
    )
    const posted = await query(
      roda,
      (sql) => sql`SELECT id FROM ledger_transactions WHERE reference = ${first!.firstChargeId} AND kind = 'refund'`
    )
    expect(posted).toHaveLength(1)
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })

  /** A past-due subscription (its renewal declined), its member's token, and its open renewal. */
  const pastDue = async (made: Awaited<ReturnType<typeof subscribed>>) => {
    await query(
      roda,
      (sql) => sql`UPDATE subscriptions SET card_token = 'tok_chargeDeclined' WHERE id = ${made.subscriptionId}`
    )
    time.advance(32 * DAY)
    await runJobs(["subscriptions.period-end"])
    expect(await statusOf(made.subscriptionId)).toBe("past_due")
    return await renewalOf(made.subscriptionId)
  }

  it("pay-now with an Idempotency-Key charges once however often it is retried", async () => {
    const made = await subscribed(api, "Paula Pagadora")
    const open = await pastDue(made)
    const before = charged.get(open.id) ?? 0
    const token = await signIn(api, made.member.email)
    const scoped = { ...as({ token }, made.community), headers: { "idempotency-key": `pay-${open.id}` } }
    const body = { paymentMethod: "CREDIT_CARD", cardToken: "tok_visa" }
    const path = `/api/subscriptions/${made.subscriptionId}/pay-now`
    const [first, second] = await Promise.all([api.post(path, body, scoped), api.post(path, body, scoped)])
    const third = await api.post(path, body, scoped)
    expect(expectOk(first)).toEqual(expectOk(second))
    expect(expectOk(third)).toEqual(expectOk(first))
    expect(charged.get(open.id)! - before).toBe(1)
    expect(await statusOf(made.subscriptionId)).toBe("active")
    expectError(await api.post(path, { ...body, cardToken: "tok_other" }, scoped), 409)
  })

  it("an Idempotency-Key answered over 24 hours ago is a new request: pay-now charges the next renewal", async () => {
    const made = await subscribed(api, "Renata Renovada")
    const first = await pastDue(made)
    const key = { "idempotency-key": `pay-${made.subscriptionId}` }
    let scoped = { ...as({ token: await signIn(api, made.member.email) }, made.community), headers: key }
    const body = { paymentMethod: "CREDIT_CARD", cardToken: "tok_visa" }
    const path = `/api/subscriptions/${made.subscriptionId}/pay-now`
    const paid = expectOk(await api.post(path, body, scoped))
    expect(await statusOf(made.subscriptionId)).toBe("active")
    // a month on, the next renewal is declined too: the same key (same body) pays it, not replays
    const second = await pastDue(made)
    expect(second.id).not.toBe(first.id)
    scoped = { ...as({ token: await signIn(api, made.member.email) }, made.community), headers: key }
    const before = charged.get(second.id) ?? 0
    const again = expectOk(await api.post(path, body, scoped))
    expect(again).not.toEqual(paid)
    expect(charged.get(second.id)! - before).toBe(1)
    expect(await statusOf(made.subscriptionId)).toBe("active")
    expect(expectOk(await api.post(path, body, scoped))).toEqual(again)
    expect(charged.get(second.id)! - before).toBe(1)
  })

  it("an Idempotency-Key set back over 24 hours takes another body as a new request", async () => {
    const made = await subscribed(api, "Otávio Outro")
    await pastDue(made)
    const token = await signIn(api, made.member.email)
    const key = `pay-${made.subscriptionId}`
    const scoped = { ...as({ token }, made.community), headers: { "idempotency-key": key } }
    const path = `/api/subscriptions/${made.subscriptionId}/pay-now`
    expectOk(await api.post(path, { paymentMethod: "CREDIT_CARD", cardToken: "tok_visa" }, scoped))
    const other = { paymentMethod: "CREDIT_CARD", cardToken: "tok_other" }
    expect(expectError(await api.post(path, other, scoped), 409).errors[0].param).toBe("Idempotency-Key")
    await query(roda, (sql) =>
      sql`UPDATE subscription_request_keys SET created_at = created_at - interval '25 hours'
        WHERE community_id = ${made.community.id} AND key = ${key}`)
    // a new request: the subscription is active now, so paying it is a move it does not allow
    expect(expectError(await api.post(path, other, scoped), 409).errors[0].param).toBe("status")
  })

  it("keys claimed over 24 hours ago are swept, answered or left in flight; newer ones are kept", async () => {
    const communityId = crypto.randomUUID()
    const at = new Date(time.now())
    const hoursAgo = (hours: number) => new Date(at.getTime() - hours * 3_600_000)
    for (
      const [key, answer, createdAt] of [
        ["old-answered", "{\"id\":1}", hoursAgo(25)],
        ["old-in-flight", null, hoursAgo(25)],
        ["fresh-answered", "{\"id\":2}", hoursAgo(23)]
      ] as const
    ) {
      await query(
        roda,
        (sql) =>
          sql`INSERT INTO subscription_request_keys (community_id, caller, key, fingerprint, answer, created_at)
          VALUES (${communityId}, 'account:x', ${key}, 'f', ${answer}::jsonb, ${createdAt})`
      )
    }
    const keysLeft = async () =>
      (await query<{ key: string }>(
        roda,
        (sql) => sql`SELECT key FROM subscription_request_keys WHERE community_id = ${communityId} ORDER BY key`
      )).map((row) => row.key)
    // (a sweep takes 100 at a time; the file's database may hold other tests' expired keys)
    for (let round = 0; round < 20 && (await keysLeft()).length > 1; round++) {
      await roda.runtime.runPromise(
        Effect.flatMap(SubscriptionsRepo, (repo) => repo.sweepKeys(hoursAgo(24))).pipe(
          Effect.provide(SubscriptionsRepo.Default)
        )
      )
    }
    expect(await keysLeft()).toEqual(["fresh-answered"])
  })
})

describe.each(gateways)("a payment after its charge was over here is refunded at once ($name)", ({ name, roda }) => {
  const api = client(roda)
  const at = () => Math.floor(time.now() / 1000)

  it("refunds a PIX paid after it expired, through the gateway, once, and the ledger balances", async () => {
    const made = await shop(api)
    const scoped = { community: made.community.id }
    const pix = expectOk(
      await api.post("/api/checkout", { productId: made.product.id, paymentMethod: "PIX", buyer: buyer() }, scoped),
      201
    )
    await query(
      roda,
      (sql) =>
        sql`UPDATE charges SET expires_at = ${new Date(time.now() - 60_000)} WHERE id = ${pix.chargeId} RETURNING id`
    )
    await roda.runtime.runPromise(Effect.flatMap(Checkout, (checkout) => checkout.expireDue()))
    expect(expectOk(await api.get(`/api/checkout/charges/${pix.chargeId}`, scoped)).status).toBe("expired")
    // the bank pays it anyway
    const pay = (eventId: string) => {
      if (name === "sandbox") {
        const raw = JSON.stringify({ eventId, type: "charge.paid", chargeId: pix.chargeId })
        return Effect.runPromise(signSandboxWebhook(SANDBOX_WEBHOOK_SECRET, raw, { timestamp: at() })).then((
          headers
        ) => api.call("POST", "/api/checkout/webhooks/sandbox", { raw, headers }))
      }
      const intent = fake.intentFor(pix.chargeId)!
      fake.succeed(intent.id)
      return postStripeEvent(api, stripeEvent("payment_intent.succeeded", intent, eventId), { timestamp: at() })
    }
    const first = `evt_late_${pix.chargeId}`
    expect(expectOk(await pay(first))).toMatchObject({ chargeId: pix.chargeId, status: "expired", duplicate: false })
    expect(expectOk(await pay(first)).duplicate).toBe(true)
    expect(expectOk(await pay(`${first}_again`)).status).toBe("expired")
    const refunds = await query<{ status: string; amount: number; kind: string }>(
      roda,
      (sql) => sql`SELECT status, amount::float8 AS amount, kind FROM refunds WHERE charge_id = ${pix.chargeId}`
    )
    expect(refunds).toEqual([{ status: "succeeded", amount: pix.total, kind: "refund" }])
    const ledger = await query<{ kind: string }>(
      roda,
      (sql) => sql`SELECT kind FROM ledger_transactions WHERE reference = ${pix.chargeId} ORDER BY kind`
    )
    // the payment and its refund (PIX money is released at once: a release between them)
    expect(ledger.map((row) => row.kind).filter((kind) => kind !== "release")).toEqual(["refund", "sale"])
    expect(await unbalanced(roda, made.community.id)).toEqual([])
    expect(await query(roda, (sql) => sql`SELECT id FROM purchases WHERE charge_id = ${pix.chargeId}`)).toEqual([])
    if (name === "stripe") {
      const asked = fake.calls("POST", "/v1/refunds").filter((r) => r.params.metadata?.roda_charge_id === pix.chargeId)
      expect(asked.map((r) => r.idempotencyKey)).toEqual([`roda-refund-late-${pix.chargeId}`])
      expect(asked[0]!.params.amount).toBe(String(pix.total))
      expect(fake.refunds.filter((r) => r.metadata.roda_charge_id === pix.chargeId)).toHaveLength(1)
    }
  })
})

describe("what Stripe reports of subscription charges, and of PaymentIntents that are not Roda's", () => {
  const roda = gateways[1]!.roda
  const api = client(roda)
  const at = () => Math.floor(time.now() / 1000)
  const statusOf = async (id: string) =>
    (await query<{ status: string }>(roda, (sql) => sql`SELECT status FROM subscriptions WHERE id = ${id}`))[0]!
      .status

  it("a renewal refunded in full at Stripe is posted and ends the subscription's access", async () => {
    const made = await subscribed(api, "Rena Reembolso")
    time.advance(32 * DAY)
    while (
      await roda.runtime.runPromise(
        Effect.flatMap(Jobs, (jobs) => jobs.runDue({ limit: 100, kinds: ["subscriptions.period-end"] }))
      ) > 0
    );
    const [renewal] = await query<{ id: string; amount: number }>(
      roda,
      (sql) =>
        sql`SELECT id, amount::float8 AS amount FROM subscription_billings
        WHERE subscription_id = ${made.subscriptionId} AND reason = 'renewal' AND status = 'paid'`
    )
    const intent = fake.intentFor(renewal!.id)!
    const refunded = stripeEvent("charge.refunded", {
      id: "ch_refunded_renewal",
      object: "charge",
      payment_intent: intent.id,
      amount: intent.amount,
      amount_refunded: intent.amount,
      metadata: { roda_charge_id: renewal!.id }
    })
    expect(expectOk(await postStripeEvent(api, refunded, { timestamp: at() }))).toMatchObject({
      chargeId: null,
      status: "refunded",
      ignored: false
    })
    expect(await statusOf(made.subscriptionId)).toBe("canceled")
    expect((await planAccessUntil(roda, made.member.profileId, made.plan.id))!.getTime()).toBeLessThanOrEqual(
      time.now()
    )
    const posted = await query(
      roda,
      (sql) => sql`SELECT id FROM ledger_transactions WHERE reference = ${renewal!.id} AND kind = 'refund'`
    )
    expect(posted).toHaveLength(1)
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })

  it("a lost dispute of the first charge posts the chargeback and ends the subscription's access", async () => {
    const made = await subscribed(api, "Dora Disputa")
    const [first] = await query<{ firstChargeId: string }>(
      roda,
      (sql) => sql`SELECT first_charge_id FROM subscriptions WHERE id = ${made.subscriptionId}`
    )
    const intent = fake.intentFor(first!.firstChargeId)!
    const lost = stripeEvent("charge.dispute.closed", {
      id: "dp_lost_first",
      object: "dispute",
      status: "lost",
      payment_intent: intent.id,
      amount: intent.amount
    })
    expect(expectOk(await postStripeEvent(api, lost, { timestamp: at() }))).toMatchObject({
      chargeId: first!.firstChargeId
    })
    expect(await statusOf(made.subscriptionId)).toBe("canceled")
    expect((await planAccessUntil(roda, made.member.profileId, made.plan.id))!.getTime()).toBeLessThanOrEqual(
      time.now()
    )
    const chargebacks = await query(
      roda,
      (sql) => sql`SELECT id FROM refunds WHERE charge_id = ${first!.firstChargeId} AND kind = 'chargeback'`
    )
    expect(chargebacks).toHaveLength(1)
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })

  it("answers 200 to events about PaymentIntents that are not Roda's (recorded as ignored), 400 to a bad signature", async () => {
    const foreignIntent = {
      id: "pi_other_system",
      object: "payment_intent",
      status: "succeeded",
      amount: 1000,
      metadata: { roda_charge_id: crypto.randomUUID() }
    }
    const paid = stripeEvent("payment_intent.succeeded", foreignIntent)
    const dispute = stripeEvent("charge.dispute.closed", {
      id: "dp_other",
      object: "dispute",
      status: "lost",
      payment_intent: "pi_other_system",
      amount: 1000
    })
    for (const event of [paid, dispute]) {
      expect(expectOk(await postStripeEvent(api, event, { timestamp: at() }))).toEqual({
        eventId: event.id,
        duplicate: false,
        chargeId: null,
        status: null,
        ignored: true
      })
    }
    const recorded = await query<{ outcome: string }>(
      roda,
      (sql) =>
        sql`SELECT outcome FROM gateway_events WHERE gateway = 'stripe' AND event_id IN (${paid.id}, ${dispute.id})`
    )
    expect(recorded.map((row) => row.outcome)).toEqual(["ignored", "ignored"])
    const forged = stripeEvent("payment_intent.succeeded", foreignIntent)
    expectError(await postStripeEvent(api, forged, { timestamp: at(), secret: "whsec_not_the_endpoint" }), 400)
    expect(await query(roda, (sql) => sql`SELECT event_id FROM gateway_events WHERE event_id = ${forged.id}`))
      .toEqual([])
  })
})
