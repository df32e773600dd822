import { describe, expect, it } from "vitest"
import { DAY, runJobs, subscribed, unbalanced } from "../commerce/subscriptions-support"
import { query } from "../support/sql"
import { renewalSuite } from "./support/suite"

const { time, fake, roda, api } = await renewalSuite()

const statusOf = async (id: string) =>
  (await query<{ status: string }>(roda, (sql) => sql`SELECT status FROM subscriptions WHERE id = ${id}`))[0]!.status

const billingsOf = (id: string) =>
  query<{ id: string; status: string; attempts: number; reason: string }>(
    roda,
    (sql) =>
      sql`SELECT id, status, attempts, reason FROM subscription_billings WHERE subscription_id = ${id} ORDER BY created_at`
  )

describe("Stripe renewals, charged by Roda's jobs off-session", () => {
  it("saves the card on the first charge, renews off-session, and retries a declined renewal until it is paid", async () => {
    const made = await subscribed(api)
    const [first] = await query<{ firstChargeId: string }>(
      roda,
      (sql) => sql`SELECT first_charge_id FROM subscriptions WHERE id = ${made.subscriptionId}`
    )
    const firstIntent = fake.intentFor(first!.firstChargeId)!
    const checkoutRequest = fake.calls("POST", "/v1/payment_intents").find((r) =>
      r.params.metadata?.roda_charge_id === first!.firstChargeId
    )!
    expect(checkoutRequest.params).toMatchObject({ setup_future_usage: "off_session" })
    expect(checkoutRequest.params.customer).toMatch(/^cus_/)
    const customer = checkoutRequest.params.customer as string

    // the period ends: the renewal job charges the saved card without the member
    time.advance(32 * DAY)
    await runJobs(roda)
    expect(await statusOf(made.subscriptionId)).toBe("active")
    const [renewal] = (await billingsOf(made.subscriptionId)).filter((b) => b.reason === "renewal")
    expect(renewal).toMatchObject({ status: "paid", attempts: 1 })
    const renewed = fake.calls("POST", "/v1/payment_intents").filter((r) =>
      r.params.metadata?.roda_charge_id === renewal!.id
    )
    expect(renewed).toHaveLength(1)
    expect(renewed[0]!.idempotencyKey).toBe(`roda-charge-${renewal!.id}`)
    expect(renewed[0]!.params).toMatchObject({
      amount: "4990",
      currency: "brl",
      customer,
      payment_method: firstIntent.payment_method,
      off_session: "true",
      confirm: "true",
      metadata: { roda_charge_id: renewal!.id, roda_community_id: made.community.id }
    })

    // the next renewal is declined (the bank asks for the member): past_due, retried on day 1, paid on day 3
    fake.declineOffSession.add(customer)
    time.advance(31 * DAY)
    await runJobs(roda)
    expect(await statusOf(made.subscriptionId)).toBe("past_due")
    time.advance(1 * DAY + 60_000)
    await runJobs(roda)
    expect(await statusOf(made.subscriptionId)).toBe("past_due")
    fake.declineOffSession.delete(customer)
    time.advance(2 * DAY)
    await runJobs(roda)
    expect(await statusOf(made.subscriptionId)).toBe("active")
    const second = (await billingsOf(made.subscriptionId)).filter((b) => b.reason === "renewal")[1]!
    expect(second).toMatchObject({ status: "paid", attempts: 3 })
    const attempts = fake.calls("POST", "/v1/payment_intents").filter((r) =>
      r.params.metadata?.roda_charge_id === second.id
    )
    // every attempt is a charge of its own at Stripe: one key per attempt, never a replay of the decline
    expect(attempts.map((r) => r.idempotencyKey)).toEqual([
      `roda-charge-${second.id}`,
      `roda-charge-${second.id}-attempt-2`,
      `roda-charge-${second.id}-attempt-3`
    ])
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })

  it("leaves the subscription unpaid when every retry is declined", async () => {
    const made = await subscribed(api, "Rita Recusada")
    const [first] = await query<{ firstChargeId: string }>(
      roda,
      (sql) => sql`SELECT first_charge_id FROM subscriptions WHERE id = ${made.subscriptionId}`
    )
    const customer = fake.intentFor(first!.firstChargeId)!.customer as string
    fake.declineOffSession.add(customer)
    time.advance(32 * DAY)
    for (let day = 0; day < 9; day++) {
      await runJobs(roda)
      time.advance(DAY)
    }
    await runJobs(roda)
    expect(await statusOf(made.subscriptionId)).toBe("unpaid")
    const renewal = (await billingsOf(made.subscriptionId)).filter((b) => b.reason === "renewal")[0]!
    expect(renewal).toMatchObject({ status: "failed", attempts: 5 })
  })
})
