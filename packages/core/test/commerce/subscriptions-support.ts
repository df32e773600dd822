import { Clock, Effect, Layer } from "effect"
import { testPlatform } from "../../../../testing/passwords"
import {
  defaultOptions,
  makeRoda,
  PaymentGateway,
  RATE_LIMITS_OFF,
  type Roda,
  sandboxGateway,
  secret
} from "../../node/index"
import { Jobs } from "../../src/platform/Jobs"
import { as } from "../support/community"
import { expectCreated, expectOk } from "../support/envelope"
import { type Client, PASSWORD, PLATFORM_ADMIN, SANDBOX_WEBHOOK_SECRET, testDatabase } from "../support/harness"
import { activePlanOption } from "../support/selling"
import { query } from "../support/sql"
import { shop } from "./checkout-support"

/** A clock the test moves by hand (every service reads it: handler, jobs, tokens); sleeps are real. */
export const controlledClock = (start: number) => {
  let now = start
  const real = Clock.make()
  const clock: Clock.Clock = {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: () => now,
    unsafeCurrentTimeNanos: () => BigInt(now) * 1_000_000n,
    currentTimeMillis: Effect.sync(() => now),
    currentTimeNanos: Effect.sync(() => BigInt(now) * 1_000_000n),
    sleep: (duration) => real.sleep(duration)
  }
  return {
    clock,
    now: () => now,
    set: (millis: number) => {
      now = millis
    },
    advance: (millis: number) => {
      now += millis
    }
  }
}

/** Gateway charge requests seen, by our charge reference (a renewal's billing id). */
export type ChargeLog = Map<string, number>

/** The sandbox gateway, counting every charge request it gets. */
export const countingGateway = (log: ChargeLog) =>
  Layer.effect(
    PaymentGateway,
    Effect.map(PaymentGateway, (inner) => ({
      ...inner,
      createCharge: (request) =>
        Effect.suspend(() => {
          log.set(request.chargeId, (log.get(request.chargeId) ?? 0) + 1)
          return inner.createCharge(request)
        })
    }))
  ).pipe(Layer.provide(sandboxGateway({ webhookSecret: secret(SANDBOX_WEBHOOK_SECRET) })))

/** A Roda on the suites' database with a controlled clock, no job worker, and a counting gateway. */
export const startTimedRoda = (clock: Clock.Clock, log: ChargeLog): Roda =>
  makeRoda({
    database: testDatabase(),
    platform: testPlatform,
    clock,
    paymentGateway: countingGateway(log),
    options: defaultOptions({
      jwtSecret: secret("test-secret-that-is-long-enough-for-hs256"),
      publicBaseUrl: "http://roda.test",
      platformAdminEmails: [PLATFORM_ADMIN],
      sandboxWebhookSecret: secret(SANDBOX_WEBHOOK_SECRET),
      runJobs: false,
      rateLimits: RATE_LIMITS_OFF
    })
  })

/** Runs the due jobs until none is left; how many ran. */
export const runJobs = async (roda: Roda) => {
  let total = 0
  for (let round = 0; round < 50; round++) {
    const ran = await roda.runtime.runPromise(Effect.flatMap(Jobs, (jobs) => jobs.runDue({ limit: 100 })))
    total += ran
    if (ran === 0) return total
  }
  return total
}

/** Signs in again (tokens live 7 days of the clock). */
export const signIn = async (api: Client, email: string) =>
  expectOk(await api.post("/api/auth/login", { email, password: PASSWORD })).token as string

/**
 * A selling community with a plan: options Mensal (R$ 49,90 a month), Premium (R$ 99,90 a month),
 * Anual (R$ 499,00 a year), and the add-on Extra (R$ 10,00 a month); a member who bought Mensal by
 * card.
 */
export const subscribed = async (api: Client, memberName = "Marta Membro") => {
  const made = await shop(api)
  const monthly = await activePlanOption(api, made.owner, made.community)
  const premium = await activePlanOption(api, made.owner, made.community, { title: "Premium", price: 9990 })
  const annual = await activePlanOption(api, made.owner, made.community, {
    title: "Anual",
    price: 49900,
    billingInterval: "ANNUAL"
  })
  const addOn = await activePlanOption(api, made.owner, made.community, { title: "Extra", price: 1000 })
  const plan = expectCreated(
    await api.post("/api/subscription-groups", {
      name: "Plano Pro",
      productIds: [monthly.id, premium.id, annual.id],
      addOnProductIds: [addOn.id]
    }, made.scoped)
  )
  const member = await made.addMember("member", memberName)
  const buy = async (productId: string, who = member) =>
    expectOk(
      await api.post("/api/checkout", {
        productId,
        subscriptionGroupId: plan.id,
        paymentMethod: "CREDIT_CARD",
        cardToken: "tok_visa"
      }, as(who, made.community)),
      201
    ).subscriptionId as string
  const subscriptionId = await buy(monthly.id)
  return { ...made, monthly, premium, annual, addOn, plan, member, buy, subscriptionId }
}

/** The card on file stops working (or works again): what a renewal is charged to. */
export const setCard = (roda: Roda, subscriptionId: string, token: string) =>
  query(roda, (sql) => sql`UPDATE subscriptions SET card_token = ${token} WHERE id = ${subscriptionId} RETURNING id`)

/** Ledger transactions of a community whose entries do not sum to zero per currency (must be none). */
export const unbalanced = (roda: Roda, communityId: string) =>
  query(roda, (sql) =>
    sql`SELECT transaction_id, currency, sum(amount)::bigint AS total FROM ledger_entries
      WHERE community_id = ${communityId} GROUP BY transaction_id, currency HAVING sum(amount) <> 0`)

/** The entitlement end of the member's plan access (null when none). */
export const planAccessUntil = async (roda: Roda, profileId: string, planId: string) => {
  const rows = await query<{ validUntil: Date | null }>(
    roda,
    (sql) =>
      sql`SELECT valid_until FROM entitlements WHERE profile_id = ${profileId} AND source_type = 'plan'
      AND source_id = ${planId} ORDER BY valid_until DESC NULLS FIRST LIMIT 1`
  )
  return rows[0]?.validUntil === undefined || rows[0]?.validUntil === null ? null : new Date(rows[0].validUntil)
}

export const DAY = 24 * 60 * 60 * 1000

export interface Billing {
  readonly id: string
  readonly key: string
  readonly reason: string
  readonly status: string
  readonly amount: number
  readonly refundedAmount: number
  readonly paymentMethod: string
  readonly paidAt: Date | null
  readonly periodStart: Date | null
  readonly periodEnd: Date | null
}

/** The billings of a subscription, paid ones by payment time. */
export const billingsOf = (roda: Roda, subscriptionId: string) =>
  query<Billing>(
    roda,
    (sql) =>
      sql`SELECT id, key, reason, status, amount::float8 AS amount, refunded_amount::float8 AS refunded_amount,
        payment_method, paid_at, period_start, period_end
      FROM subscription_billings WHERE subscription_id = ${subscriptionId} ORDER BY paid_at NULLS LAST, id`
  )

/** The refunds of a subscription, oldest first. */
export const refundsOf = (roda: Roda, subscriptionId: string) =>
  query<{ billingId: string; status: string; amount: number; reason: string }>(
    roda,
    (sql) =>
      sql`SELECT billing_id, status, amount::float8 AS amount, reason FROM subscription_refunds
      WHERE subscription_id = ${subscriptionId} ORDER BY created_at`
  )

/** The ledger transactions of a charge or billing (its id is their reference), by kind. */
export const ledgerOf = async (roda: Roda, reference: string) =>
  (await query<{ kind: string }>(
    roda,
    (sql) => sql`SELECT kind FROM ledger_transactions WHERE reference = ${reference} ORDER BY kind`
  )).map((row) => row.kind).filter((kind) => kind !== "release")

/**
 * A plan checkout by PIX, left unpaid (its subscription is `incomplete`), by a new member; with
 * `coupon` (the body of `POST /api/coupons`), that coupon is created first and used on it.
 */
export const pixCheckout = async (
  api: Client,
  memberName: string,
  options: { readonly coupon?: Record<string, unknown> } = {}
) => {
  const made = await shop(api)
  const option = await activePlanOption(api, made.owner, made.community)
  const plan = expectCreated(
    await api.post("/api/subscription-groups", { name: "Plano PIX", productIds: [option.id] }, made.scoped)
  )
  const coupon = options.coupon === undefined
    ? null
    : expectCreated(await api.post("/api/coupons", options.coupon, made.scoped))
  const member = await made.addMember("member", memberName)
  const pix = expectOk(
    await api.post(
      "/api/checkout",
      {
        productId: option.id,
        subscriptionGroupId: plan.id,
        paymentMethod: "PIX",
        ...(coupon === null ? {} : { couponCode: coupon.code })
      },
      as(member, made.community)
    ),
    201
  )
  return {
    made,
    option,
    plan,
    coupon,
    member,
    pix,
    id: pix.subscriptionId as string,
    chargeId: pix.chargeId as string,
    total: pix.total as number
  }
}
