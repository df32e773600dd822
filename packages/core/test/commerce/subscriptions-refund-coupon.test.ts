import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PaymentGateway, type Roda, sandboxGateway, secret } from "../../node/index"
import { rodaWith } from "../stripe/support/gateways"
import { as } from "../support/community"
import { expectCreated, expectError, expectOk } from "../support/envelope"
import { type Client, client, SANDBOX_WEBHOOK_SECRET } from "../support/harness"
import { query } from "../support/sql"
import { planOf, shop } from "./checkout-support"
import { ledgerOf, refundsOf, runJobs, unbalanced } from "./subscriptions-support"

/**
 * The team cancels a subscription now with a full refund of its first charge, the checkout's charge
 * that used a coupon: the coupon's use is given back with the money (conventions.md: a refund
 * releases the coupon use), as a plan checkout refunded in full at the gateway gives it back, and
 * only once, however often the cancel is asked or its refund job runs. The gateway records the
 * refunds it is asked for, and can stop the process right after it refunded (before Roda applies
 * its answer), so the refund job finishes it.
 */
const refundsAsked: Array<{ chargeId: string; refundId: string | undefined }> = []
/** The next refund is given by the gateway, then the process stops before its answer is applied. */
let stopAfterNextRefund = false

const gateway = Layer.effect(
  PaymentGateway,
  Effect.map(PaymentGateway, (inner) => ({
    ...inner,
    refund: (request: Parameters<NonNullable<typeof inner.refund>>[0]) =>
      Effect.suspend(() => {
        refundsAsked.push({ chargeId: request.chargeId, refundId: request.refundId })
        const stop = stopAfterNextRefund
        stopAfterNextRefund = false
        const refunded = inner.refund!(request)
        return stop
          ? Effect.zipRight(refunded, Effect.dieMessage("process stopped after the gateway refund"))
          : refunded
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

/**
 * A plan bought by card with a coupon of two uses, by a member and by another buyer before them
 * (both uses counted: the coupon is exhausted).
 */
const soldWithCoupon = async () => {
  const made = await shop(api)
  const { option, plan } = await planOf(api, made)
  const coupon = expectCreated(
    await api.post("/api/coupons", { code: "DEVOLVE10", percentOff: 10, maxRedemptions: 2 }, made.scoped)
  )
  const buy = async (name: string) => {
    const member = await made.addMember("member", name)
    const sold = expectOk(
      await api.post("/api/checkout", {
        productId: option.id,
        subscriptionGroupId: plan.id,
        paymentMethod: "CREDIT_CARD",
        cardToken: "tok_visa",
        couponCode: coupon.code
      }, as(member, made.community)),
      201
    )
    expect(sold.discount).toBe(499)
    return {
      member,
      subscriptionId: sold.subscriptionId as string,
      chargeId: sold.chargeId as string,
      total: sold.total as number
    }
  }
  const other = await buy("Otília Outra")
  const sold = await buy("Cecília Cupom")
  return { made, coupon, other, sold }
}

type Sold = Awaited<ReturnType<typeof soldWithCoupon>>

/** The coupon as the team sees it: its counters, and the state of each use (sorted). */
const couponState = async ({ coupon, made }: Sold) => {
  const read = expectOk(await api.get(`/api/coupons/${coupon.id}`, made.scoped))
  const usage = expectOk(await api.get(`/api/coupons/${coupon.id}/usage`, made.scoped)) as Array<{ status: string }>
  return {
    timesRedeemed: read.timesRedeemed,
    reservedRedemptions: read.reservedRedemptions,
    redemptionsLeft: read.redemptionsLeft,
    status: read.status,
    uses: usage.map((use) => use.status).sort()
  }
}

/** One use counted (the other buyer's), the cancelled one given back. */
const givenBackOnce = {
  timesRedeemed: 1,
  reservedRedemptions: 0,
  redemptionsLeft: 1,
  status: "active",
  uses: ["redeemed", "released"]
}

const statusOf = async (subscriptionId: string) =>
  (await query<{ status: string }>(roda, (sql) => sql`SELECT status FROM subscriptions WHERE id = ${subscriptionId}`))[
    0
  ]!
    .status

const cancelWithFullRefund = ({ made, sold }: Sold, headers?: Record<string, string>) =>
  api.post(`/api/manage/subscriptions/${sold.subscriptionId}/cancel`, { when: "now", refund: "full" }, {
    ...made.scoped,
    ...(headers === undefined ? {} : { headers })
  })

/** The refund jobs of the subscription, made due now (`again`: a finished one delivered once more). */
const refundJobsDue = async ({ sold }: Sold, again = false) => {
  const [refund] = await query<{ id: string }>(
    roda,
    (sql) => sql`SELECT id FROM subscription_refunds WHERE subscription_id = ${sold.subscriptionId}`
  )
  const moved = await query(roda, (sql) =>
    sql`UPDATE jobs SET run_at = now() - interval '1 second', locked_until = NULL
      ${again ? sql`, status = 'queued', finished_at = NULL` : sql``}
      WHERE kind = 'subscriptions.refund' AND key = ${refund!.id} ${again ? sql`` : sql`AND status = 'queued'`}
      RETURNING id`)
  expect(moved).toHaveLength(1)
}

/** The money given back once: one refund row, asked of the gateway as often as `asked`, in the ledger once. */
const expectRefundedOnce = async ({ made, sold }: Sold, asked: number) => {
  expect(await refundsOf(roda, sold.subscriptionId)).toEqual([
    { billingId: sold.chargeId, status: "succeeded", amount: sold.total, reason: "team cancel (full)" }
  ])
  expect(refundsAsked.filter((refund) => refund.chargeId === sold.chargeId)).toHaveLength(asked)
  expect(await ledgerOf(roda, sold.chargeId)).toEqual(["refund", "sale"])
  expect(await unbalanced(roda, made.community.id)).toEqual([])
}

describe("the coupon of a first charge the team refunds in full with the cancel", () => {
  it("is given back with the money, once: a retried request, a repeated cancel and the refund job change nothing", async () => {
    const sold = await soldWithCoupon()
    expect(await couponState(sold)).toEqual({
      timesRedeemed: 2,
      reservedRedemptions: 0,
      redemptionsLeft: 0,
      status: "exhausted",
      uses: ["redeemed", "redeemed"]
    })
    const key = { "Idempotency-Key": `cancel-${sold.sold.subscriptionId}` }
    const ended = expectOk(await cancelWithFullRefund(sold, key))
    expect(ended).toMatchObject({ refunded: sold.sold.total, subscription: { status: "canceled" } })
    expect(await couponState(sold)).toEqual(givenBackOnce)

    // the client retries the request (same key: the answer replayed), then cancels again (refused)
    expect(expectOk(await cancelWithFullRefund(sold, key))).toEqual(ended)
    expectError(await cancelWithFullRefund(sold), 409)
    // the refund's job runs (the request did the work), and is delivered once more
    await refundJobsDue(sold)
    await runJobs(roda)
    await refundJobsDue(sold, true)
    await runJobs(roda)

    expect(await statusOf(sold.sold.subscriptionId)).toBe("canceled")
    expect(await couponState(sold)).toEqual(givenBackOnce)
    // the other buyer's subscription and use are untouched
    expect(await statusOf(sold.other.subscriptionId)).toBe("active")
    await expectRefundedOnce(sold, 1)
  })

  it("the process stopped once the gateway refunded: the refund job gives the use back, once, however often it runs", async () => {
    const sold = await soldWithCoupon()
    stopAfterNextRefund = true
    expect((await cancelWithFullRefund(sold)).status).toBe(500)
    // the refund is pending: nothing applied yet, the use still counted
    expect(await refundsOf(roda, sold.sold.subscriptionId)).toMatchObject([{ status: "pending" }])
    expect(await statusOf(sold.sold.subscriptionId)).toBe("active")
    expect((await couponState(sold)).timesRedeemed).toBe(2)

    await refundJobsDue(sold)
    await runJobs(roda)
    expect(await statusOf(sold.sold.subscriptionId)).toBe("canceled")
    expect(await couponState(sold)).toEqual(givenBackOnce)
    // the job delivered again, twice at once
    await refundJobsDue(sold, true)
    await Promise.all([runJobs(roda), runJobs(roda)])
    expectError(await cancelWithFullRefund(sold), 409)

    expect(await couponState(sold)).toEqual(givenBackOnce)
    // asked by the request, then by the job (the same refund id: the gateway gives it once)
    await expectRefundedOnce(sold, 2)
    const asked = refundsAsked.filter((refund) => refund.chargeId === sold.sold.chargeId)
    expect(new Set(asked.map((refund) => refund.refundId)).size).toBe(1)
  })

  it("a cancel without a refund keeps the use counted (the member paid for what they had)", async () => {
    const sold = await soldWithCoupon()
    expectOk(
      await api.post(`/api/manage/subscriptions/${sold.sold.subscriptionId}/cancel`, { when: "now" }, sold.made.scoped)
    )
    expect(await statusOf(sold.sold.subscriptionId)).toBe("canceled")
    expect(await couponState(sold)).toMatchObject({ timesRedeemed: 2, uses: ["redeemed", "redeemed"] })
  })
})
